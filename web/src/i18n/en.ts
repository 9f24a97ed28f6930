import common from "./en/common.json";
import app from "./en/app.json";
import account from "./en/account.json";
import ai from "./en/ai.json";
import assistant from "./en/assistant.json";
import audit from "./en/audit.json";
import contacts from "./en/contacts.json";
import inbox from "./en/inbox.json";
import kb from "./en/kb.json";
import notifications from "./en/notifications.json";
import onboarding from "./en/onboarding.json";
import reports from "./en/reports.json";
import settings from "./en/settings.json";
import tickets from "./en/tickets.json";
import workflow from "./en/workflow.json";

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
