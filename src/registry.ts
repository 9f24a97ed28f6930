import { aiModule } from "./ai/ai.module";
import { semanticSearchModule } from "./semantic-search/semantic-search.module";
import { widgetAnswersModule } from "./widget-answers/widget-answers.module";
import { apiKeysModule } from "./api-keys/api-keys.module";
import { billingModule } from "./billing/billing.module";
import { attachmentsModule } from "./attachments/attachments.module";
import { auditModule } from "./audit/audit.module";
import { companiesModule } from "./contacts/companies.module";
import { contactsModule } from "./contacts/contacts.module";
import { fieldsModule } from "./custom-fields/fields.module";
import { inboundModule } from "./inbound/inbound.module";
import { invitationsModule } from "./invitations/invitations.module";
import { labelsModule } from "./labels/labels.module";
import { authModule, eventsModule, maintenanceModule, realtimeModule } from "./machinery.modules";
import { mailboxesModule } from "./mailboxes/mailboxes.module";
import { meModule } from "./me/me.module";
import { picturesModule } from "./pictures/pictures.module";
import { membersModule } from "./members/members.module";
import { notificationsModule } from "./notifications/notifications.module";
import type { FeatureModule } from "./module";
import { outboundModule } from "./outbound/outbound.module";
import { reportsModule } from "./reports/reports.module";
import { savedRepliesModule } from "./saved-replies/saved-replies.module";
import { searchModule } from "./search/search.module";
import { globalSearchModule } from "./global-search/global-search.module";
import { leaveWorkspaceTeams } from "./teams/teams.public";
import { renameTagInViews } from "./views/views.public";
import { teamsModule } from "./teams/teams.module";
import { ticketsModule } from "./tickets/tickets.module";
import { usersModule } from "./users/users.module";
import { viewsModule } from "./views/views.module";
import { webhooksModule } from "./webhooks/webhooks.module";
import { workspacesModule } from "./workspaces/workspaces.module";

/**
 * Every module of Desk, one per line. Routes mount under /v1 in this order; subsystems start in
 * this order and stop in reverse. Adding a feature: its folder and one line here.
 */
export const modules: FeatureModule[] = [
  maintenanceModule,
  workspacesModule,
  apiKeysModule,
  authModule,
  meModule,
  picturesModule,
  usersModule,
  membersModule({ memberLeft: leaveWorkspaceTeams }),
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
  labelsModule({ tagRenamed: renameTagInViews }),
  fieldsModule,
  contactsModule,
  companiesModule,
  viewsModule,
  savedRepliesModule,
  notificationsModule,
  aiModule(),
  semanticSearchModule(),
  widgetAnswersModule(),
  billingModule,
];
