import common from "./pt-BR/common.json";
import app from "./pt-BR/app.json";
import account from "./pt-BR/account.json";
import ai from "./pt-BR/ai.json";
import assistant from "./pt-BR/assistant.json";
import audit from "./pt-BR/audit.json";
import contacts from "./pt-BR/contacts.json";
import inbox from "./pt-BR/inbox.json";
import kb from "./pt-BR/kb.json";
import notifications from "./pt-BR/notifications.json";
import onboarding from "./pt-BR/onboarding.json";
import reports from "./pt-BR/reports.json";
import settings from "./pt-BR/settings.json";
import tickets from "./pt-BR/tickets.json";
import workflow from "./pt-BR/workflow.json";

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
