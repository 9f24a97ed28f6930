import type { Queryable } from "../db/database";
import { jsonList, preparedFor } from "../labels/prepared";
import type { UserRefJson } from "../users/users.present";
import type { TicketRow } from "./tickets.table";

/**
 * The statements of the ticket write path (creation, replies), prepared once per connection:
 * drizzle builds each query's SQL text in JS on every call, which costs more than running these.
 * Parameters are written `+?` where a bound value could otherwise make bun's SQLite re-plan
 * (see src/labels/prepared.ts).
 */
type ContactRefRow = { id: string; email: string | null; name: string; avatarUrl: string | null };
type UserRefRow = { id: string; name: string; email: string; avatarUrl: string | null };

const statements = preparedFor((sqlite) => ({
  nextNumber: sqlite.query<{ n: number }, [string]>("UPDATE workspaces SET ticket_number_seq = ticket_number_seq + 1 WHERE id = +? RETURNING ticket_number_seq AS n"),
  liveContactRef: sqlite.query<ContactRefRow, [string, string]>(
    "SELECT id, email, name, avatar_url AS avatarUrl FROM contacts WHERE id = +? AND workspace_id = +? AND deleted_at IS NULL",
  ),
  insertTicket: sqlite.query<unknown, Array<string | number | null>>(
    `INSERT INTO tickets (id, workspace_id, number, subject, status, priority, severity, channel, mailbox_id, contact_id, assignee_id, team_id,
       spam, snoozed_until, solved_at, first_responded_at, last_message_at, last_customer_message_at, last_message_preview, message_count,
       csat, custom, sla, merged_into_id, deleted_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  /** A message's moves on its ticket: the columns no index-count trigger or FTS trigger watches. */
  counters: sqlite.query<unknown, [number, string, string, string, string | null, string | null, string]>(
    `UPDATE tickets SET message_count = ?, updated_at = ?, last_message_at = ?, last_message_preview = ?, last_customer_message_at = ?,
       first_responded_at = ? WHERE id = +?`,
  ),
  privateTeam: sqlite.query<{ id: string }, [string, string]>("SELECT id FROM teams WHERE id = +? AND workspace_id = +? AND private = 1"),
  userRefOne: sqlite.query<UserRefRow, [string]>("SELECT id, name, email, avatar_url AS avatarUrl FROM users WHERE id = +?"),
  userRefMany: sqlite.query<UserRefRow, [string]>("SELECT id, name, email, avatar_url AS avatarUrl FROM users WHERE id IN (SELECT value FROM json_each(+?))"),
}));

export const nextTicketNumberValue = (db: Queryable, workspaceId: string): number | undefined => statements(db).nextNumber.get(workspaceId)?.n;

export const liveContactRefRow = (db: Queryable, workspaceId: string, contactId: string): ContactRefRow | undefined =>
  statements(db).liveContactRef.get(contactId, workspaceId) ?? undefined;

const PRIORITY_RANK: Record<TicketRow["priority"], number> = { urgent: 4, high: 3, normal: 2, low: 1 };
const SEVERITY_RANK: Record<string, number> = { sev1: 1, sev2: 2, sev3: 3, sev4: 4 };

/** The generated sort columns as SQLite computes them (tickets.table.ts), for a row built in JS. */
export function derivedTicketColumns(row: Pick<TicketRow, "priority" | "severity" | "sla" | "firstRespondedAt">): Pick<TicketRow, "priorityRank" | "severityRank" | "dueAt"> {
  const firstDue = row.firstRespondedAt ? null : (row.sla?.first_response_due_at ?? null);
  const resolutionDue = row.sla?.resolution_due_at ?? null;
  const candidates = [firstDue ?? resolutionDue, resolutionDue ?? firstDue].filter((v): v is string => v !== null);
  return {
    priorityRank: PRIORITY_RANK[row.priority] ?? 1,
    severityRank: row.severity ? (SEVERITY_RANK[row.severity] ?? 5) : 5,
    dueAt: candidates.length ? candidates.sort()[0]! : "9999",
  };
}

/** Inserts a complete row (every column given, so the row in hand is exactly what is stored). */
export function insertTicketRow(db: Queryable, row: TicketRow): void {
  statements(db).insertTicket.run(
    row.id,
    row.workspaceId,
    row.number,
    row.subject,
    row.status,
    row.priority,
    row.severity,
    row.channel,
    row.mailboxId,
    row.contactId,
    row.assigneeId,
    row.teamId,
    row.spam ? 1 : 0,
    row.snoozedUntil,
    row.solvedAt,
    row.firstRespondedAt,
    row.lastMessageAt,
    row.lastCustomerMessageAt,
    row.lastMessagePreview,
    row.messageCount,
    row.csat === null ? null : JSON.stringify(row.csat),
    JSON.stringify(row.custom),
    row.sla === null ? null : JSON.stringify(row.sla),
    row.mergedIntoId,
    row.deletedAt,
    row.createdAt,
    row.updatedAt,
  );
}

/** Writes the message counters of `next` (a copy of the stored row with new counter values). */
export function updateTicketCounters(db: Queryable, next: TicketRow): void {
  statements(db).counters.run(next.messageCount, next.updatedAt, next.lastMessageAt, next.lastMessagePreview, next.lastCustomerMessageAt, next.firstRespondedAt, next.id);
}

export const privateTeamRow = (db: Queryable, workspaceId: string, teamId: string): { id: string } | undefined =>
  statements(db).privateTeam.get(teamId, workspaceId) ?? undefined;

export function userRefRows(db: Queryable, ids: string[]): UserRefRow[] {
  const s = statements(db);
  if (ids.length === 1) {
    const row = s.userRefOne.get(ids[0]!);
    return row ? [row] : [];
  }
  return s.userRefMany.all(jsonList(ids));
}

export type { UserRefJson };
