import type { Channel, Priority, Severity, TicketStatus, ViewFilters } from "../lib/api/types";
import { fieldParams, type FieldCondition } from "./field-filters";
import { type MessageKey, t } from "../lib/i18n/i18n";

/** What the person picked in the filter bar; combined with the folder's own filters. */
export type TicketFilters = {
  status: TicketStatus[];
  priority: Priority[];
  severity: Array<Severity | "none">;
  assignee: string;
  team_id: string;
  tag: string;
  channel: Channel | "";
  q: string;
  sort: "last_message_at" | "created_at" | "priority" | "severity" | "due" | string;
  order: "asc" | "desc";
  fields: FieldCondition[];
};

export const EMPTY_FILTERS: TicketFilters = {
  status: [],
  priority: [],
  severity: [],
  assignee: "",
  team_id: "",
  tag: "",
  channel: "",
  q: "",
  sort: "last_message_at",
  order: "desc",
  fields: [],
};

const ACTIVE = "open,pending,on_hold";
/** Folders people work from: a snoozed ticket leaves them until it wakes (it is in Snoozed meanwhile). */
const WORKING = ["unassigned", "mine", "open", "pending", "on_hold"];

/** The list query for a folder (`unassigned`, `mine`, a status, `snoozed`, `all`, `spam`, `view:<id>`) plus filters. */
export function ticketQuery(folder: string, f: TicketFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (folder === "unassigned") Object.assign(params, { assignee: "none", status: ACTIVE });
  else if (folder === "mine") Object.assign(params, { assignee: "me", status: ACTIVE });
  else if (folder === "following") params.follower = "me";
  else if (folder === "spam") params.spam = "true";
  else if (folder === "snoozed") params.snoozed = "true";
  else if (folder.startsWith("view:")) params.view_id = folder.slice(5);
  else if (folder !== "all") params.status = folder;
  if (folder !== "spam" && !folder.startsWith("view:")) params.spam = "false";
  if (WORKING.includes(folder)) params.snoozed = "false";
  if (f.status.length) params.status = f.status.join(",");
  if (f.priority.length) params.priority = f.priority.join(",");
  if (f.severity.length) params.severity = f.severity.join(",");
  if (f.assignee) params.assignee = f.assignee;
  if (f.team_id) params.team_id = f.team_id;
  if (f.tag) params.tag = f.tag;
  if (f.channel) params.channel = f.channel;
  if (f.q.trim()) params.q = f.q.trim();
  Object.assign(params, fieldParams(f.fields));
  params.sort = f.sort;
  params.order = f.order;
  return params;
}

const FOLDER_TITLES: Record<string, MessageKey> = {
  unassigned: "inbox.folderUnassigned",
  mine: "inbox.folderMine",
  following: "inbox.folderFollowing",
  open: "inbox.folderOpen",
  pending: "inbox.folderPending",
  on_hold: "inbox.folderOnHold",
  solved: "inbox.folderSolved",
  closed: "inbox.folderClosed",
  snoozed: "inbox.folderSnoozed",
  all: "inbox.folderAll",
  spam: "inbox.folderSpam",
};

export const folderTitle = (folder: string) => t(FOLDER_TITLES[folder] ?? "inbox.viewFallback");

/** How many filters the person has picked (for "Clear n"). */
export const activeFilterCount = (f: TicketFilters) =>
  f.status.length +
  f.priority.length +
  f.severity.length +
  [f.assignee, f.team_id, f.tag, f.channel].filter(Boolean).length +
  f.fields.length;

/** The picked filters with search and sort kept: what "Clear" leaves. */
export const clearedFilters = (f: TicketFilters): TicketFilters => ({
  ...EMPTY_FILTERS,
  q: f.q,
  sort: f.sort,
  order: f.order,
});

const ACTIVE_STATUSES: TicketStatus[] = ["open", "pending", "on_hold"];

/**
 * A View's filters for what the inbox shows now: the folder's own conditions (or the open
 * view's), overridden member by member by the filter bar. Severity, spam and sort have no View
 * member in SPEC.md, so they are left out (the caller says so).
 */
export function viewFiltersFor(folder: string, f: TicketFilters, base: ViewFilters | undefined): ViewFilters {
  const out: ViewFilters = {};
  if (folder === "unassigned") Object.assign(out, { assignee: "none", status: ACTIVE_STATUSES });
  else if (folder === "mine") Object.assign(out, { assignee: "me", status: ACTIVE_STATUSES });
  else if (folder.startsWith("view:") && base) Object.assign(out, base);
  // Views have no follower member: a view saved from Following keeps only the filter bar's choices.
  else if (folder !== "all" && folder !== "spam" && folder !== "snoozed" && folder !== "following")
    out.status = [folder as TicketStatus];
  if (f.status.length) out.status = f.status;
  if (f.priority.length) out.priority = f.priority;
  if (f.assignee) out.assignee = f.assignee;
  if (f.team_id) out.team_id = f.team_id;
  if (f.tag) out.tag = f.tag;
  if (f.channel) out.channel = f.channel;
  if (f.q.trim()) out.q = f.q.trim();
  if (f.fields.length)
    out.fields = [
      ...(out.fields ?? []).filter((c) => !f.fields.some((n) => n.key === c.key && n.op === c.op)),
      ...f.fields,
    ];
  return out;
}
