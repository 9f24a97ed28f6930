import type { AnyElysia } from "elysia";
import { labelsRoutes } from "./labels/labels.routes";
import { fieldsRoutes } from "./custom-fields/fields.routes";
import { contactsRoutes } from "./contacts/contacts.routes";
import { companiesRoutes } from "./companies/companies.routes";
import { viewsRoutes } from "./views/views.routes";
import { savedRepliesRoutes } from "./saved-replies/saved-replies.routes";
import { apiKeysRoutes } from "./api-keys/api-keys.routes";
import { authRoutes } from "./auth/auth.routes";
import { instanceRoutes } from "./auth/instance.routes";
import { meRoutes } from "./me/me.routes";
import { passwordResetsRoutes } from "./users/password-resets.routes";
import { passwordResetMailJob } from "./users/password-resets.mail";
import type { Deps } from "./deps";
import { mailboxesRoutes } from "./mailboxes/mailboxes.routes";
import { mailboxSyncJob } from "./mailboxes/mailboxes.sync";
import { inboundRoutes } from "./inbound/inbound.routes";
import { autoReplyJob, registerOutboundMailHook, sendReplyJob } from "./inbound/inbound.outbound";
import type { JobDefinition } from "./jobs/define";
import { workspacesRoutes } from "./workspaces/workspaces.routes";
import { ticketsRoutes } from "./tickets/tickets.routes";
import { searchRoutes } from "./search/search.routes";
import { reportsRoutes } from "./reports/reports.routes";
import { messagesRoutes } from "./messages/messages.routes";
import { attachmentsRoutes } from "./attachments/attachments.routes";
import { wakeSnoozedJob } from "./tickets/tickets.jobs";
import { removeOrphanAttachmentsJob } from "./attachments/attachments.jobs";
import { auditRoutes } from "./audit/audit.routes";
import { eventsRoutes } from "./events/events.routes";
import { invitationsRoutes } from "./invitations/invitations.routes";
import { invitationMailJob } from "./invitations/invitations.mail";
import { registerSearchStaging } from "./search/search.staging";
import { registerMemberOpenTickets, registerUnassignOnMemberRemoval } from "./tickets/tickets.hooks";
import { membersRoutes } from "./members/members.routes";
import { teamsRoutes } from "./teams/teams.routes";
import { purgeWorkspaceJob } from "./workspaces/workspaces.jobs";
import { webhooksRoutes } from "./webhooks/webhooks.routes";
import { realtimeRoutes } from "./realtime/realtime.routes";
import { deliverWebhookJob, registerWebhookFanOut } from "./webhooks/webhooks.delivery";

/**
 * Where features plug in: their route plugins (mounted under /v1), their job kinds and their
 * event hooks. Add one line per feature; nothing else needs to know about it.
 */
export function featureRoutes(deps: Deps): AnyElysia[] {
  return [
    workspacesRoutes(deps),
    apiKeysRoutes(deps),
    authRoutes(deps),
    instanceRoutes(deps),
    meRoutes(deps),
    passwordResetsRoutes(deps),
    membersRoutes(deps),
    invitationsRoutes(deps),
    teamsRoutes(deps),
    auditRoutes(deps),
    eventsRoutes(deps),
    webhooksRoutes(deps),
    realtimeRoutes(deps),
    mailboxesRoutes(deps),
    inboundRoutes(deps),
    ticketsRoutes(deps),
    messagesRoutes(deps),
    attachmentsRoutes(deps),
    searchRoutes(deps),
    reportsRoutes(deps),
    labelsRoutes(deps),
    fieldsRoutes(deps),
    contactsRoutes(deps),
    companiesRoutes(deps),
    viewsRoutes(deps),
    savedRepliesRoutes(deps),
  ];
}

export function featureJobs(deps: Deps): JobDefinition<never>[] {
  return [
    purgeWorkspaceJob(deps),
    deliverWebhookJob(deps),
    wakeSnoozedJob(deps),
    removeOrphanAttachmentsJob(deps),
    mailboxSyncJob(deps),
    sendReplyJob(deps),
    autoReplyJob(deps),
    invitationMailJob(deps),
    passwordResetMailJob(deps),
  ] as unknown as JobDefinition<never>[];
}

/** Runs once at start: features subscribe to events (webhook deliveries, realtime, automations). */
export function registerFeatureHooks(deps: Deps): void {
  registerSearchStaging(deps.db);
  registerUnassignOnMemberRemoval(deps);
  registerMemberOpenTickets(deps);
  registerWebhookFanOut(deps.db);
  registerOutboundMailHook(deps);
}
