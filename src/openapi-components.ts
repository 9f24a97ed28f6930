import { z } from "zod";
import { ApiKeySchema } from "./api-keys/api-keys.schemas";
import { AuditLogSchema } from "./audit/audit.schemas";
import { SessionSchema, UserSchema } from "./auth/auth.schemas";
import { CompanySchema, ContactSchema } from "./contacts/contacts.schemas";
import { CsatRequestSchema } from "./csat/csat.schemas";
import { CustomFieldSchema } from "./custom-fields/fields.schemas";
import { ErrorBody } from "./http/schemas";
import { InvitationSchema } from "./invitations/invitations.schemas";
import { TagGroupSchema, TagSchema } from "./labels/labels.schemas";
import { MailboxSchema } from "./mailboxes/mailboxes.schemas";
import { MeSchema } from "./me/me.schemas";
import { MemberSchema } from "./members/members.schemas";
import { OnboardingSchema } from "./onboarding/onboarding.schemas";
import { NotificationSchema } from "./notifications/notifications.schemas";
import { AttachmentSchema, MessageSchema } from "./tickets/messages.schemas";
import { TeamSchema } from "./teams/teams.schemas";
import { TriageSettingsSchema } from "./triage/triage.schemas";
import { ActivitySchema, TicketSchema } from "./tickets/tickets.schemas";
import { ViewSchema } from "./views/views.schemas";
import { DeliverySchema, WebhookSchema } from "./webhooks/webhooks.schemas";
import { WorkspaceSchema } from "./workspaces/workspaces.schemas";

/**
 * The shapes /v1/openapi.json names as components (`#/components/schemas/Ticket`) instead of
 * repeating them in every operation. Listed here, where features may be imported, so no schema
 * file has to know about the document; a new resource adds one line.
 */
const COMPONENTS: Array<[z.ZodType, string]> = [
  [ErrorBody, "Error"],
  [TicketSchema, "Ticket"],
  [ActivitySchema, "Activity"],
  [MessageSchema, "Message"],
  [AttachmentSchema, "Attachment"],
  [NotificationSchema, "Notification"],
  [ContactSchema, "Contact"],
  [CompanySchema, "Company"],
  [TagSchema, "Tag"],
  [TagGroupSchema, "TagGroup"],
  [CustomFieldSchema, "CustomField"],
  [ViewSchema, "View"],
  [TeamSchema, "Team"],
  [MemberSchema, "Member"],
  [InvitationSchema, "Invitation"],
  [ApiKeySchema, "ApiKey"],
  [WebhookSchema, "Webhook"],
  [DeliverySchema, "WebhookDelivery"],
  [MailboxSchema, "Mailbox"],
  [WorkspaceSchema, "Workspace"],
  [UserSchema, "User"],
  [MeSchema, "Me"],
  [SessionSchema, "Session"],
  [AuditLogSchema, "AuditLogEntry"],
  [CsatRequestSchema, "CsatRequest"],
  [TriageSettingsSchema, "TriageSettings"],
  [OnboardingSchema, "Onboarding"],
];

let registered = false;

/** Gives each component its id in zod's registry (kept with any description the schema has). */
export function registerApiComponents(): void {
  if (registered) return;
  registered = true;
  for (const [schema, id] of COMPONENTS) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
}
