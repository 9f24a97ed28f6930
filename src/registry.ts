import { aiModule } from "./ai/ai.module";
import { assistantModule } from "./assistant/assistant.module";
import { semanticSearchModule } from "./semantic-search/semantic-search.module";
import { widgetAnswersModule } from "./widget-answers/widget-answers.module";
import { apiKeysModule } from "./api-keys/api-keys.module";
import { assignmentModule } from "./assignment/assignment.module";
import { billingModule } from "./billing/billing.module";
import { attachmentsModule } from "./attachments/attachments.module";
import { auditModule } from "./audit/audit.module";
import { backupsModule } from "./backups/backups.module";
import { companiesModule } from "./contacts/companies.module";
import { contactsModule } from "./contacts/contacts.module";
import { csatModule } from "./csat/csat.module";
import { portalModule } from "./portal/portal.module";
import { fieldsModule } from "./custom-fields/fields.module";
import { helpCenterModule } from "./help-center/help-center.module";
import { inboundModule } from "./inbound/inbound.module";
import { importsModule } from "./imports/imports.module";
import { kbModule } from "./kb/kb.module";
import { invitationsModule } from "./invitations/invitations.module";
import { lifecycleModule } from "./lifecycle/lifecycle.module";
import { labelsModule } from "./labels/labels.module";
import { authModule, eventsModule, maintenanceModule, realtimeModule } from "./machinery.modules";
import { macrosModule } from "./macros/macros.module";
import { mailboxesModule } from "./mailboxes/mailboxes.module";
import { identityModule } from "./identity/identity.module";
import { picturesModule } from "./pictures/pictures.module";
import { membersModule } from "./members/members.module";
import { notificationsModule } from "./notifications/notifications.module";
import type { FeatureModule } from "./module";
import { outboundModule } from "./outbound/outbound.module";
import { reportsModule } from "./reports/reports.module";
import { savedRepliesModule } from "./saved-replies/saved-replies.module";
import { ticketReadsModule } from "./ticket-reads/ticket-reads.module";
import { searchModule } from "./search/search.module";
import { slaModule } from "./sla/sla.module";
import { globalSearchModule } from "./global-search/global-search.module";
import { systemModule } from "./system/system.module";
import { automationsModule } from "./automations/automations.module";
import { triageModule } from "./triage/triage.module";
import { onboardingModule } from "./onboarding/onboarding.module";
import { teamsModule } from "./teams/teams.module";
import { ticketsModule } from "./tickets/tickets.module";
import { viewsModule } from "./views/views.module";
import { webhooksModule } from "./webhooks/webhooks.module";
import { workspacesModule } from "./workspaces/workspaces.module";
import { widgetModule } from "./widget/widget.module";

/**
 * Every module of Desk, one per line. Routes mount under /v1 in this order; subsystems start in
 * this order and stop in reverse. Adding a feature: its folder and one line here.
 */
export const modules: FeatureModule[] = [
  maintenanceModule,
  workspacesModule,
  apiKeysModule,
  authModule,
  identityModule,
  picturesModule,
  membersModule,
  invitationsModule,
  teamsModule,
  auditModule,
  eventsModule,
  webhooksModule,
  realtimeModule,
  mailboxesModule,
  inboundModule,
  outboundModule,
  ticketsModule,
  attachmentsModule,
  searchModule,
  globalSearchModule,
  reportsModule,
  labelsModule,
  fieldsModule,
  contactsModule,
  companiesModule,
  viewsModule,
  savedRepliesModule,
  macrosModule,
  ticketReadsModule,
  automationsModule,
  kbModule,
  helpCenterModule,
  notificationsModule,
  backupsModule,
  systemModule,
  slaModule,
  widgetModule,
  assignmentModule,
  aiModule,
  assistantModule,
  semanticSearchModule,
  widgetAnswersModule,
  billingModule,
  csatModule,
  lifecycleModule,
  triageModule,
  onboardingModule,
  portalModule,
  importsModule,
];
