import { contactRefsOf } from "../contacts/contacts.public";
import { fieldValuesOf } from "../custom-fields/fields.public";
import type { Queryable } from "../db/database";
import { labelsOf, type TagRef } from "../labels/labels.public";
import { presentUserRef, userRefRows, type UserRefJson } from "../identity/identity.public";
import { followerIdsOf } from "./followers.read";
import type { ActivityRow, TicketRow } from "./tickets.table";

export type ContactRefJson = { id: string; email: string | null; name: string; avatar_url: string | null };

export type TicketJson = {
  id: string;
  number: number;
  subject: string;
  status: TicketRow["status"];
  priority: TicketRow["priority"];
  severity: TicketRow["severity"];
  channel: TicketRow["channel"];
  mailbox_id: string | null;
  contact: ContactRefJson | null;
  assignee: UserRefJson | null;
  followers: UserRefJson[];
  team_id: string | null;
  tags: TagRef[];
  sla: TicketRow["sla"];
  first_responded_at: string | null;
  solved_at: string | null;
  snoozed_until: string | null;
  last_message_at: string;
  last_customer_message_at: string | null;
  last_message_preview: string;
  message_count: number;
  spam: boolean;
  csat: TicketRow["csat"];
  custom: Record<string, unknown>;
  fields: Record<string, unknown>;
  merged_into_id: string | null;
  created_at: string;
  updated_at: string;
};

/** UserRefs of many users in one (prepared) query. */
export async function userRefsOf(db: Queryable, ids: Array<string | null>): Promise<Map<string, UserRefJson>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  return new Map((await userRefRows(db, wanted)).map((row) => [row.id, presentUserRef(row)]));
}

/**
 * What a caller that just wrote a ticket already knows (for a single row): each given member skips
 * its query. A new ticket without tags or fields has none; its contact ref is the one just found.
 */
export type KnownTicketParts = { contact?: ContactRefJson | null; tags?: TagRef[]; fields?: Record<string, unknown> };

/** Presents many tickets with five batched look-ups (contacts, followers, people, tags, fields), never one per row. */
export async function presentTickets(
  db: Queryable,
  rows: TicketRow[],
  known: KnownTicketParts = {},
): Promise<TicketJson[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const single = rows.length === 1 ? rows[0]! : null;
  const knownContact = single?.contactId && known.contact?.id === single.contactId ? known.contact : undefined;
  const contacts = knownContact
    ? new Map([[knownContact.id, knownContact]])
    : await contactRefsOf(db, [...new Set(rows.map((r) => r.contactId).filter((id): id is string => !!id))]);
  const followers = await followerIdsOf(db, ids);
  const assignees = await userRefsOf(db, [...rows.map((r) => r.assigneeId), ...[...followers.values()].flat()]);
  const tags = single && known.tags ? new Map([[single.id, known.tags]]) : await labelsOf(db, "tickets", ids);
  const fields = single && known.fields ? new Map([[single.id, known.fields]]) : await fieldValuesOf(db, "ticket", ids);
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    subject: row.subject,
    status: row.status,
    priority: row.priority,
    severity: row.severity ?? null,
    channel: row.channel,
    mailbox_id: row.mailboxId ?? null,
    contact: row.contactId ? (contacts.get(row.contactId) ?? null) : null,
    assignee: row.assigneeId ? (assignees.get(row.assigneeId) ?? null) : null,
    followers: (followers.get(row.id) ?? []).flatMap((id) => assignees.get(id) ?? []),
    team_id: row.teamId ?? null,
    tags: tags.get(row.id) ?? [],
    sla: row.sla ?? null,
    first_responded_at: row.firstRespondedAt ?? null,
    solved_at: row.solvedAt ?? null,
    snoozed_until: row.snoozedUntil ?? null,
    last_message_at: row.lastMessageAt,
    last_customer_message_at: row.lastCustomerMessageAt ?? null,
    last_message_preview: row.lastMessagePreview,
    message_count: row.messageCount,
    spam: row.spam,
    csat: row.csat ?? null,
    custom: row.custom ?? {},
    fields: fields.get(row.id) ?? {},
    merged_into_id: row.mergedIntoId ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}

/**
 * One row snapshot is presented once: the event written in the transaction and the response of
 * the same request share the JSON (rows are immutable snapshots; a later change is a new row).
 */
const presented = new WeakMap<TicketRow, TicketJson>();

export async function presentTicket(db: Queryable, row: TicketRow, known: KnownTicketParts = {}): Promise<TicketJson> {
  const cached = presented.get(row);
  if (cached) return cached;
  const json = (await presentTickets(db, [row], known))[0]!;
  presented.set(row, json);
  return json;
}

export type ActivityJson = {
  id: string;
  ticket_id: string;
  type: string;
  data: Record<string, unknown>;
  actor_type: ActivityRow["actorType"];
  actor: { type: ActivityRow["actorType"]; user: UserRefJson | null; automation?: { id: string; name: string } };
  created_at: string;
};

export async function presentActivities(db: Queryable, rows: ActivityRow[]): Promise<ActivityJson[]> {
  const refs = await userRefsOf(
    db,
    rows.map((r) => r.actorUserId),
  );
  return rows.map((row) => ({
    id: row.id,
    ticket_id: row.ticketId,
    type: row.type,
    data: row.data ?? {},
    actor_type: row.actorType,
    actor: {
      type: row.actorType,
      user: row.actorUserId ? (refs.get(row.actorUserId) ?? null) : null,
      ...(row.actorAutomation ? { automation: row.actorAutomation } : {}),
    },
    created_at: row.createdAt,
  }));
}
