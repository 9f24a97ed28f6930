import { z } from "zod";
import { AiConfigSchema, AiModelSchema, TriageSchema } from "./ai/ai.schemas";
import { ApiKeySchema } from "./api-keys/api-keys.schemas";
import { AssignmentSchema } from "./assignment/assignment.schemas";
import { BillingSchema, UsageReportSchema } from "./billing/billing.schemas";
import { AuditLogSchema } from "./audit/audit.schemas";
import { AutomationSchema } from "./automations/automations.schemas";
import { SessionSchema, UserSchema } from "./identity/auth.schemas";
import { CompanySchema, ContactSchema } from "./contacts/contacts.schemas";
import { CsatRequestSchema } from "./csat/csat.schemas";
import { CustomFieldSchema } from "./custom-fields/fields.schemas";
import { ErrorBody } from "./http/schemas";
import { ImportSchema } from "./imports/imports.schemas";
import { InvitationSchema } from "./invitations/invitations.schemas";
import { KbArticleSchema, KbCollectionSchema } from "./kb/kb.schemas";
import { TagGroupSchema, TagSchema } from "./labels/labels.schemas";
import { MailboxSchema } from "./mailboxes/mailboxes.schemas";
import { MeSchema } from "./identity/me.schemas";
import { MemberSchema } from "./members/members.schemas";
import { OnboardingSchema } from "./onboarding/onboarding.schemas";
import { NotificationSchema } from "./notifications/notifications.schemas";
import { AttachmentSchema, MessageSchema } from "./tickets/messages.schemas";
import { BusinessHoursSchema } from "./sla/business-hours.schemas";
import { SlaPolicySchema } from "./sla/sla.schemas";
import { TeamSchema } from "./teams/teams.schemas";
import { TriageSettingsSchema } from "./triage/triage.schemas";
import { ActivitySchema, TicketSchema } from "./tickets/tickets.schemas";
import { ViewSchema } from "./views/views.schemas";
import { DeliverySchema, WebhookSchema } from "./webhooks/webhooks.schemas";
import { WorkspaceSchema } from "./workspaces/workspaces.schemas";
import { WidgetConversationSchema, WidgetMessageSchema } from "./widget/widget.schemas";

/**
 * The shapes /v1/openapi.json names as components (`#/components/schemas/Ticket`) instead of
 * repeating them in every operation. Listed here, where features may be imported, so no schema
 * file has to know about the document; a new resource adds one line.
 */
const COMPONENTS: Array<[z.ZodType, string]> = [
  [ErrorBody, "Error"],
  [TicketSchema, "Ticket"],
  [ImportSchema, "Import"],
  [ActivitySchema, "Activity"],
  [MessageSchema, "Message"],
  [AttachmentSchema, "Attachment"],
  [NotificationSchema, "Notification"],
  [AssignmentSchema, "Assignment"],
  [ContactSchema, "Contact"],
  [CompanySchema, "Company"],
  [TagSchema, "Tag"],
  [TagGroupSchema, "TagGroup"],
  [CustomFieldSchema, "CustomField"],
  [ViewSchema, "View"],
  [SlaPolicySchema, "SlaPolicy"],
  [BusinessHoursSchema, "BusinessHours"],
  [AutomationSchema, "Automation"],
  [KbCollectionSchema, "KbCollection"],
  [KbArticleSchema, "KbArticle"],
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
  [WidgetConversationSchema, "WidgetConversation"],
  [WidgetMessageSchema, "WidgetMessage"],
  [AiConfigSchema, "AiConfig"],
  [AiModelSchema, "AiModel"],
  [TriageSchema, "AiTriage"],
  [BillingSchema, "Billing"],
  [UsageReportSchema, "UsageReport"],
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
