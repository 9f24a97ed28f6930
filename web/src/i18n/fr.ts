import common from "./fr/common.json";
import app from "./fr/app.json";
import account from "./fr/account.json";
import ai from "./fr/ai.json";
import assistant from "./fr/assistant.json";
import audit from "./fr/audit.json";
import contacts from "./fr/contacts.json";
import inbox from "./fr/inbox.json";
import kb from "./fr/kb.json";
import notifications from "./fr/notifications.json";
import onboarding from "./fr/onboarding.json";
import reports from "./fr/reports.json";
import settings from "./fr/settings.json";
import tickets from "./fr/tickets.json";
import workflow from "./fr/workflow.json";

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
