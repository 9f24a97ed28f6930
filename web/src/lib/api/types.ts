/**
 * The wire shapes the web app reads. Resources are aliases of the components generated from
 * /v1/openapi.json (`bun run gen:web-types` writes ./api-schema.ts), so a change to a route's zod
 * schema reaches the web app's typecheck. Only what the document does not name (the realtime
 * envelope, lists that answer a bare array) and UI-only constants are written by hand.
 */
import { type components, enumValues, type operations } from "../api-schema";

type Schemas = components["schemas"];
/** The JSON body of an operation's success answer. */
type Answer<Op extends keyof operations, Status extends number = 200> =
  operations[Op]["responses"] extends Record<Status, { content: { "application/json": infer Body } }> ? Body : never;

/** The ticket schema declares a tag's colour a plain string; it is always one of the label colours. */
export type Ticket = Omit<Schemas["Ticket"], "tags"> & { tags: TagRef[] };
export type Message = Schemas["Message"];
export type Attachment = Schemas["Attachment"];
export type Activity = Schemas["Activity"];
export type Contact = Schemas["Contact"];
export type Company = Schemas["Company"];
export type Tag = Schemas["Tag"];
export type TagGroup = Schemas["TagGroup"];
export type CustomField = Schemas["CustomField"];
export type Workspace = Schemas["Workspace"];
export type Member = Schemas["Member"];
export type Team = Schemas["Team"];
export type View = Schemas["View"];
export type Automation = Schemas["Automation"];
export type KbCollection = Schemas["KbCollection"];
export type KbArticle = Schemas["KbArticle"];
export type Mailbox = Schemas["Mailbox"];
export type SlaPolicy = Schemas["SlaPolicy"];
export type BusinessHours = Schemas["BusinessHours"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type Session = Schemas["Session"];
export type Me = Schemas["Me"];
/** The secret is in the creation answer only. */
export type ApiKey = Schemas["ApiKey"] & { secret?: string };
export type Webhook = Schemas["Webhook"] & { secret?: string };
/** The accept link is in the creation answer only. */
export type Invitation = Schemas["Invitation"] & { url?: string; mail_via?: "relay" | "outbox" };
export type SavedReply = Answer<"getSavedRepliesById">;
export type Macro = Answer<"getMacrosById">;
/** What the chat widget last reported about a contact's visit (the customer card). */
export type VisitorInfo = Answer<"getWidgetVisitorsById">;
export type Notification = Schemas["Notification"];
export type NotificationPage = Answer<"getNotifications">;
export type Assignment = Schemas["Assignment"];
export type Availability = Member["availability"];
export type TicketCounts = Answer<"getTicketsCounts">;
/** A mailbox a ticket can be mailed from (GET /v1/senders; the default first). */
export type Sender = Answer<"getSenders">["data"][number];
export type Overview = Answer<"getReportsOverview">;
export type AuditLog = Answer<"getAuditLogs">["data"][number];
export type SearchResults = Answer<"getSearch">;
export type Onboarding = Answer<"getOnboarding">;
export type TriageSettings = Answer<"getTriage">;
export type MfaChallenge = Exclude<Answer<"postAuthLogin">, Session>;
export type SystemState = Answer<"getSystem">;
export type AiConfig = Schemas["AiConfig"];
export type AiModel = Schemas["AiModel"];
export type AiTriage = Schemas["AiTriage"];
export type UsageReport = Schemas["UsageReport"];
export type AiDraft = Answer<"postTicketsByIdAiDraft">;
export type AiSummary = Answer<"postTicketsByIdAiSummary">;
export type AiAnswer = Answer<"postTicketsByIdAiAsk">;
export type AiRewrite = Answer<"postAiRewrite">;
export type AiTranslation = Answer<"postAiTranslate">;

export type Role = Member["role"];
export type TicketStatus = Ticket["status"];
export type Priority = Ticket["priority"];
export type Severity = NonNullable<Ticket["severity"]>;
export type Channel = Ticket["channel"];
export type LabelColor = Tag["color"];
export type FieldType = CustomField["type"];
export type FieldEntity = CustomField["entity"];
export type ViewFilters = View["filters"];
export type WorkspaceRef = Me["workspaces"][number];
export type UserRef = NonNullable<Ticket["assignee"]>;
export type ContactRef = NonNullable<Ticket["contact"]>;
export type TagRef = Contact["tags"][number];

export type Page<T> = { data: T[]; next_cursor: string | null };
/** One event as the realtime socket sends it (the socket is not in the OpenAPI document). */
export type Envelope = {
  id: string;
  seq: number;
  workspace_id: string;
  type: string;
  data: Record<string, unknown>;
  occurred_at: string;
};

// Wire enums come from the document (`enumValues` in ./api-schema.ts), never hand copies.
export const STATUSES = enumValues.Ticket.status;
export const PRIORITIES = enumValues.Ticket.priority;
export const SEVERITIES = enumValues.Ticket.severity;
export const CHANNELS = enumValues.Ticket.channel;
export const LABEL_COLORS = enumValues.Tag.color;
export const FIELD_TYPES = enumValues.CustomField.type;
export const FIELD_ENTITIES = enumValues.CustomField.entity;
/** The roles an invitation may give: every one but owner. */
export const INVITABLE_ROLES = enumValues.Invitation.role;
export const SCOPES = enumValues.Scope;
