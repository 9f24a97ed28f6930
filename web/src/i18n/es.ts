import common from "./es/common.json";
import app from "./es/app.json";
import account from "./es/account.json";
import ai from "./es/ai.json";
import assistant from "./es/assistant.json";
import audit from "./es/audit.json";
import contacts from "./es/contacts.json";
import inbox from "./es/inbox.json";
import kb from "./es/kb.json";
import notifications from "./es/notifications.json";
import onboarding from "./es/onboarding.json";
import reports from "./es/reports.json";
import settings from "./es/settings.json";
import tickets from "./es/tickets.json";
import workflow from "./es/workflow.json";

export default {
  common,
  app,
  account,
  ai,
  assistant,
  audit,
  contacts,
  inbox,
  kb,
  notifications,
  onboarding,
  reports,
  settings,
  tickets,
  workflow,
};
