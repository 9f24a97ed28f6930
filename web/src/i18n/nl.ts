import common from "./nl/common.json";
import app from "./nl/app.json";
import account from "./nl/account.json";
import ai from "./nl/ai.json";
import assistant from "./nl/assistant.json";
import audit from "./nl/audit.json";
import contacts from "./nl/contacts.json";
import inbox from "./nl/inbox.json";
import kb from "./nl/kb.json";
import notifications from "./nl/notifications.json";
import onboarding from "./nl/onboarding.json";
import reports from "./nl/reports.json";
import settings from "./nl/settings.json";
import tickets from "./nl/tickets.json";
import workflow from "./nl/workflow.json";

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
