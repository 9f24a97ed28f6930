/** Wire shapes from SPEC.md (only the members the web app reads). */
export type Role = "owner" | "admin" | "agent" | "viewer";
export type TicketStatus = "open" | "pending" | "on_hold" | "solved" | "closed";
export type Priority = "low" | "normal" | "high" | "urgent";
export type Severity = "sev1" | "sev2" | "sev3" | "sev4";
export type Channel = "email" | "chat" | "api" | "portal";
export type LabelColor =
  | "gray"
  | "red"
  | "orange"
  | "amber"
  | "yellow"
  | "lime"
  | "green"
  | "teal"
  | "cyan"
  | "blue"
  | "indigo"
  | "violet"
  | "purple"
  | "pink"
  | "rose";

export const STATUSES: TicketStatus[] = ["open", "pending", "on_hold", "solved", "closed"];
export const PRIORITIES: Priority[] = ["low", "normal", "high", "urgent"];
export const SEVERITIES: Severity[] = ["sev1", "sev2", "sev3", "sev4"];
export const CHANNELS: Channel[] = ["email", "chat", "api", "portal"];
export const LABEL_COLORS: LabelColor[] = [
  "gray",
  "red",
  "orange",
  "amber",
  "yellow",
  "lime",
  "green",
  "teal",
  "cyan",
  "blue",
  "indigo",
  "violet",
  "purple",
  "pink",
  "rose",
];

export type UserRef = { id: string; name: string; email: string; avatar_url: string | null };
export type ContactRef = { id: string; email: string | null; name: string; avatar_url: string | null };
export type TagRef = { id: string; name: string; color: LabelColor; group_id: string | null };
export type Page<T> = { data: T[]; next_cursor: string | null };

export type Ticket = {
  id: string;
  number: number;
  subject: string;
  status: TicketStatus;
  priority: Priority;
  severity: Severity | null;
  channel: Channel;
  mailbox_id: string | null;
  contact: ContactRef | null;
  assignee: UserRef | null;
  team_id: string | null;
  tags: TagRef[];
  snoozed_until: string | null;
  solved_at: string | null;
  last_message_at: string;
  last_message_preview: string;
  message_count: number;
  spam: boolean;
  fields: Record<string, unknown>;
  custom: Record<string, unknown>;
  created_at: string;
  updated_at: string;
};

export type Attachment = {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  inline: boolean;
  url: string;
};

export type Message = {
  id: string;
  ticket_id: string;
  kind: "reply" | "note";
  direction: "inbound" | "outbound";
  author: { type: "contact" | "user" | "system" | "api"; user: UserRef | null; contact: ContactRef | null };
  body_html: string;
  body_text: string;
  from_email: string;
  from_name: string;
  to: string[];
  cc: string[];
  attachments: Attachment[];
  delivery_status: "none" | "pending" | "sent" | "failed" | "bounced";
  delivery_error: string;
  /** `outbox`: "sent" only into the server's outbox folder (no relay configured); it reached no one. */
  delivery_via?: "smtp" | "outbox" | null;
  auth_failed?: boolean;
  has_quoted?: boolean;
  created_at: string;
};

export type Activity = {
  id: string;
  type: string;
  data: Record<string, unknown>;
  actor?: { type?: string; user?: UserRef | null } | null;
  actor_type?: string;
  created_at: string;
};

export type TicketCounts = {
  unassigned: number;
  mine: number;
  open: number;
  pending: number;
  on_hold: number;
  solved: number;
  snoozed: number;
  spam: number;
  views: Record<string, number>;
};

export type Contact = {
  id: string;
  email: string | null;
  name: string;
  phone: string;
  notes: string;
  avatar_url: string | null;
  company: { id: string; name: string; domain: string } | null;
  tags: TagRef[];
  fields: Record<string, unknown>;
  blocked: boolean;
  ticket_count: number;
  created_at: string;
  updated_at: string;
};

export type Company = {
  id: string;
  name: string;
  domain: string | null;
  notes: string;
  tags: TagRef[];
  fields: Record<string, unknown>;
  contact_count: number;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
};

export type Tag = {
  id: string;
  name: string;
  color: LabelColor;
  description: string;
  group_id: string | null;
  position: number;
  archived: boolean;
  applies_to: Array<"tickets" | "contacts" | "companies">;
  usage: { tickets: number; contacts: number; companies: number };
};
export type TagGroup = {
  id: string;
  name: string;
  color: LabelColor | null;
  exclusive: boolean;
  position: number;
  tag_count: number;
};

export type FieldType =
  | "text"
  | "long_text"
  | "number"
  | "select"
  | "multi_select"
  | "date"
  | "checkbox"
  | "url"
  | "email"
  | "user";
export const FIELD_TYPES: FieldType[] = [
  "text",
  "long_text",
  "number",
  "select",
  "multi_select",
  "date",
  "checkbox",
  "url",
  "email",
  "user",
];
export type FieldEntity = "ticket" | "contact" | "company";
export type CustomField = {
  id: string;
  entity: FieldEntity;
  key: string;
  name: string;
  type: FieldType;
  options: Array<{ id: string; label: string; color: LabelColor }>;
  required_on_solve: boolean;
  description: string;
  position: number;
  archived: boolean;
};

export type Workspace = {
  id: string;
  name: string;
  slug: string;
  settings: Record<string, unknown>;
  avatar_url: string | null;
  created_at: string;
};
export type WorkspaceRef = { id: string; name: string; slug: string; role: Role };
export type Me = { user: UserRef; workspaces: WorkspaceRef[] };
export type Member = {
  user: UserRef;
  role: Role;
  availability: string;
  presence: string;
  open_tickets: number;
  last_seen_at: string | null;
  created_at: string;
};
export type Invitation = {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
  created_at: string;
  invited_by: UserRef | null;
  url?: string;
};
export type Team = { id: string; name: string; member_ids: string[]; private?: boolean; created_at: string };
export type ViewFilters = {
  status?: TicketStatus[];
  priority?: Priority[];
  assignee?: string;
  team_id?: string;
  mailbox_id?: string;
  tag?: string;
  channel?: Channel;
  q?: string;
  fields?: Array<{ key: string; op: string; value: string }>;
};
export type View = { id: string; name: string; shared: boolean; position: number; filters: ViewFilters };
export type SavedReply = { id: string; title: string; shortcut: string; body_html: string };
export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
  created_by: UserRef | null;
  secret?: string;
};
export type Webhook = {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  created_at: string;
  secret?: string;
};
export type WebhookDelivery = {
  id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  response_code: number | null;
  duration_ms: number | null;
  created_at: string;
};
export type Mailbox = {
  id: string;
  name: string;
  email: string;
  display_name: string;
  inbound_kind: "forwarding" | "imap" | "provider_a" | "provider_b";
  outbound_kind: "smtp" | "provider_a" | "provider_b" | "system";
  outbound_via?: "smtp" | "outbox";
  forwarding_address: string;
  config: Record<string, unknown>;
  team_id: string | null;
  status: "active" | "error" | "disabled";
  last_error: string;
  last_synced_at: string | null;
  created_at: string;
};
export type Session = { access_token: string; expires_in: number; user: UserRef };
export type MfaChallenge = { mfa_required: true; mfa_token: string };
export type Envelope = {
  id: string;
  seq: number;
  workspace_id: string;
  type: string;
  data: Record<string, unknown>;
  occurred_at: string;
};
export const SCOPES = [
  "tickets:read",
  "tickets:write",
  "contacts:read",
  "contacts:write",
  "kb:read",
  "kb:write",
  "settings:read",
  "settings:write",
  "realtime",
];
