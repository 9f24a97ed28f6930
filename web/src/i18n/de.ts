import common from "./de/common.json";
import app from "./de/app.json";
import account from "./de/account.json";
import ai from "./de/ai.json";
import assistant from "./de/assistant.json";
import audit from "./de/audit.json";
import contacts from "./de/contacts.json";
import inbox from "./de/inbox.json";
import kb from "./de/kb.json";
import notifications from "./de/notifications.json";
import onboarding from "./de/onboarding.json";
import reports from "./de/reports.json";
import settings from "./de/settings.json";
import tickets from "./de/tickets.json";
import workflow from "./de/workflow.json";

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
