import { type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { preparedFor } from "../db/sqlite/prepared";
import { tickets, type ActivityRow, type TicketRow } from "./tickets.table";

/**
 * The statements of the ticket write path (creation, replies), prepared once per connection:
 * drizzle builds each query's SQL text in JS on every call, which costs more than running these.
 * Parameters are written `+?` where a bound value could otherwise make bun's SQLite re-plan
 * (see src/labels/prepared.ts).
 */

/** tickets as SQLite returns it: JSON as text, flags as 0/1. */
type RawTicket = Omit<TicketRow, "csat" | "custom" | "sla" | "spam"> & {
  csat: string | null;
  custom: string;
  sla: string | null;
  spam: number;
};
const TICKET = `id, workspace_id AS workspaceId, number, subject, status, priority, severity, channel, mailbox_id AS mailboxId,
  contact_id AS contactId, assignee_id AS assigneeId, team_id AS teamId, spam, snoozed_until AS snoozedUntil, solved_at AS solvedAt,
  first_responded_at AS firstRespondedAt, last_message_at AS lastMessageAt, last_customer_message_at AS lastCustomerMessageAt,
  last_message_preview AS lastMessagePreview, message_count AS messageCount, csat, custom, sla, merged_into_id AS mergedIntoId,
  deleted_at AS deletedAt, created_at AS createdAt, updated_at AS updatedAt, priority_rank AS priorityRank, severity_rank AS severityRank,
  due_at AS dueAt`;

const ticketOf = (raw: RawTicket): TicketRow => ({
  ...raw,
  spam: raw.spam === 1,
  csat: raw.csat === null ? null : (JSON.parse(raw.csat) as TicketRow["csat"]),
  custom: JSON.parse(raw.custom) as TicketRow["custom"],
  sla: raw.sla === null ? null : (JSON.parse(raw.sla) as TicketRow["sla"]),
});

const statements = preparedFor((sqlite) => ({
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
  /** A live (not deleted) ticket of a workspace by id or number, outside the hidden teams (a JSON list). */
  visibleById: sqlite.query<RawTicket, [string, string, string]>(
    `SELECT ${TICKET} FROM tickets WHERE workspace_id = +? AND id = +? AND deleted_at IS NULL
       AND (team_id IS NULL OR team_id NOT IN (SELECT value FROM json_each(+?)))`,
  ),
  visibleByNumber: sqlite.query<RawTicket, [string, number, string]>(
    `SELECT ${TICKET} FROM tickets WHERE workspace_id = +? AND number = +? AND deleted_at IS NULL
       AND (team_id IS NULL OR team_id NOT IN (SELECT value FROM json_each(+?)))`,
  ),
  insertActivity: sqlite.query<
    unknown,
    [string, string, string, string, string, string, string | null, string | null, string]
  >(
    "INSERT INTO activities (id, workspace_id, ticket_id, type, data, actor_type, actor_user_id, actor_automation, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ),
  undeletedAmong: sqlite.query<{ id: string }, [string, string]>(
    `SELECT id FROM tickets WHERE workspace_id = +? AND ${inListSql("id")} AND deleted_at IS NULL`,
  ),
  byNumber: sqlite.query<{ id: string; contactId: string | null }, [string, number]>(
    "SELECT id, contact_id AS contactId FROM tickets WHERE workspace_id = +? AND number = +? AND deleted_at IS NULL",
  ),
  spam: sqlite.query<{ spam: number }, [string]>("SELECT spam FROM tickets WHERE id = +?"),
  /** A live ticket (neither deleted nor merged away) of a workspace by id. */
  liveById: sqlite.query<RawTicket, [string, string]>(
    `SELECT ${TICKET} FROM tickets WHERE workspace_id = +? AND id = +? AND deleted_at IS NULL AND merged_into_id IS NULL`,
  ),
  setSla: sqlite.query<unknown, [string | null, string, string]>(
    "UPDATE tickets SET sla = ?, updated_at = ? WHERE id = +?",
  ),
}));

const PRIORITY_RANK: Record<TicketRow["priority"], number> = { urgent: 4, high: 3, normal: 2, low: 1 };
const SEVERITY_RANK: Record<string, number> = { sev1: 1, sev2: 2, sev3: 3, sev4: 4 };

/** The generated sort columns as SQLite computes them (tickets.table.ts), for a row built in JS. */
export function derivedTicketColumns(
  row: Pick<TicketRow, "priority" | "severity" | "sla" | "firstRespondedAt">,
): Pick<TicketRow, "priorityRank" | "severityRank" | "dueAt"> {
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
export async function insertTicketRow(db: Queryable, row: TicketRow): Promise<void> {
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

/** A live ticket (neither deleted nor merged away) of a workspace by id, read through a prepared statement. */
export async function liveTicketRow(db: Queryable, workspaceId: string, id: string): Promise<TicketRow | undefined> {
  const raw = statements(db).liveById.get(workspaceId, id);
  return raw ? ticketOf(raw) : undefined;
}

/** Writes a ticket's SLA state (JSON) and updated_at. */
export async function writeTicketSla(
  db: Queryable,
  id: string,
  sla: TicketRow["sla"],
  updatedAt: string,
): Promise<void> {
  statements(db).setSla.run(sla === null ? null : JSON.stringify(sla), updatedAt, id);
}

/** Writes the message counters of `next` (a copy of the stored row with new counter values). */
export async function updateTicketCounters(db: Queryable, next: TicketRow): Promise<void> {
  statements(db).counters.run(
    next.messageCount,
    next.updatedAt,
    next.lastMessageAt,
    next.lastMessagePreview,
    next.lastCustomerMessageAt,
    next.firstRespondedAt,
    next.id,
  );
}

/** A ticket of the workspace by id or number (not deleted, not in a hidden team), as the query builder would read it. */
export async function visibleTicketRow(
  db: Queryable,
  workspaceId: string,
  ref: { id: string } | { number: number },
  hiddenTeamIds: string[],
): Promise<TicketRow | undefined> {
  const s = statements(db);
  const hidden = listParam(hiddenTeamIds);
  const raw =
    "id" in ref
      ? s.visibleById.get(workspaceId, ref.id, hidden)
      : s.visibleByNumber.get(workspaceId, ref.number, hidden);
  return raw ? ticketOf(raw) : undefined;
}

/** Inserts a complete activity row (the row in hand is exactly what is stored). */
export async function insertActivityRow(db: Queryable, row: ActivityRow): Promise<void> {
  statements(db).insertActivity.run(
    row.id,
    row.workspaceId,
    row.ticketId,
    row.type,
    JSON.stringify(row.data),
    row.actorType,
    row.actorUserId,
    row.actorAutomation ? JSON.stringify(row.actorAutomation) : null,
    row.createdAt,
  );
}

/** Which of these tickets of the workspace are not deleted (merged-away ones count: replies forward). */
export const undeletedTicketIds = async (db: Queryable, workspaceId: string, ids: string[]): Promise<Set<string>> =>
  new Set(
    ids.length
      ? statements(db)
          .undeletedAmong.all(workspaceId, listParam(ids))
          .map((r) => r.id)
      : [],
  );

/** A ticket that is not deleted, by its number, with its contact. */
export const ticketByNumberRow = async (
  db: Queryable,
  workspaceId: string,
  number: number,
): Promise<{ id: string; contactId: string | null } | undefined> =>
  statements(db).byNumber.get(workspaceId, number) ?? undefined;

export const isSpamTicket = async (db: Queryable, id: string): Promise<boolean> =>
  statements(db).spam.get(id)?.spam === 1;

/**
 * The ticket counts others ask of tickets, where the engines' SQL differs in how a list is bound
 * (SQLite: `IN (SELECT value FROM json_each(?))`). A PostgreSQL twin binds the ids as an array
 * (`= ANY($1)`); the inbox's `ticket_counts` buckets, kept by SQLite triggers, become PL/pgSQL
 * triggers or the same `UPDATE … RETURNING` counters.
 */
export type TicketCountStatements = {
  /** Unsolved (open, pending, on hold) live tickets assigned to each of these members; the unassigned-to are absent. */
  openTicketsOfAssignees(workspaceId: string, userIds: readonly string[]): Promise<Map<string, number>>;
  /** Live (not deleted) tickets of each of these contacts; contacts without tickets are absent. */
  liveTicketsOfContacts(
    workspaceId: string,
    contactIds: readonly string[],
  ): Promise<Array<{ contactId: string; n: number }>>;
};

/** Live tickets per contact; workspace_id first so tickets_ws_contact_idx answers it. */
const CONTACT_COUNT =
  "SELECT contact_id AS contactId, count(*) AS n FROM tickets WHERE workspace_id = +? AND deleted_at IS NULL";

const countStatements = preparedFor((sqlite) => ({
  openOfAssignees: sqlite.query<{ assignee_id: string; n: number }, [string, string]>(
    "SELECT assignee_id, count(*) AS n FROM tickets WHERE workspace_id = ? AND assignee_id IN (SELECT value FROM json_each(?)) AND status IN ('open', 'pending', 'on_hold') AND deleted_at IS NULL AND merged_into_id IS NULL GROUP BY assignee_id",
  ),
  ofContact: sqlite.query<{ contactId: string; n: number }, [string, string]>(
    `${CONTACT_COUNT} AND contact_id = +? GROUP BY contact_id`,
  ),
  ofContacts: sqlite.query<{ contactId: string; n: number }, [string, string]>(
    `${CONTACT_COUNT} AND contact_id IN (SELECT value FROM json_each(+?)) GROUP BY contact_id`,
  ),
}));

/** Statements of the connection, taken while `db` is live: the handle may be a transaction that ends. */
const sqliteTicketCounts = (db: Queryable): TicketCountStatements => {
  const s = countStatements(db);
  return {
    openTicketsOfAssignees: async (workspaceId, userIds) => {
      const rows = s.openOfAssignees.all(workspaceId, listParam(userIds));
      return new Map(rows.map((r) => [r.assignee_id, r.n]));
    },
    // One contact (a contact's page) has a statement of its own: an equality the planner needs not re-plan.
    liveTicketsOfContacts: async (workspaceId, contactIds) =>
      contactIds.length === 1
        ? s.ofContact.all(workspaceId, contactIds[0]!)
        : s.ofContacts.all(workspaceId, listParam(contactIds)),
  };
};

export const ticketCountStatements = dialectStatements<TicketCountStatements>({ sqlite: sqliteTicketCounts });

/**
 * Reads of one ticket by key that every change, mailed reply, agent reply and socket asks, prepared
 * once per connection: building a drizzle query cost more than running it. Their SQL is portable: a
 * PostgreSQL twin prepares the same queries as named statements and reads `spam`, `csat`, `custom`
 * and `sla` as the driver gives them (boolean, jsonb) rather than parsing text and 0/1.
 */
export type TicketReadStatements = {
  /** A ticket's whole row by id, whatever its state. */
  byId(id: string): Promise<TicketRow | undefined>;
  /** A ticket of the workspace by id, whatever its state (deleted and merged ones too). */
  ofWorkspace(workspaceId: string, id: string): Promise<TicketRow | undefined>;
  /** The contact of a live chat ticket of the workspace (null for one without), undefined for any other ticket. */
  chatContact(workspaceId: string, ticketId: string): Promise<{ contactId: string | null } | undefined>;
  /** The team of a ticket of the workspace that is not deleted, or undefined when there is none. */
  undeletedTeam(workspaceId: string, ticketId: string): Promise<{ teamId: string | null } | undefined>;
  /** One ticket's followers, in the order they followed. */
  followersOf(ticketId: string): Promise<Array<{ ticketId: string; userId: string }>>;
};

// Written as the query builder wrote them (the same predicates, indexes and order), prepared on the connection.
const readStatements = preparedFor((sqlite) => ({
  byId: sqlite.query<RawTicket, [string]>(`SELECT ${TICKET} FROM tickets WHERE id = +?`),
  ofWorkspace: sqlite.query<RawTicket, [string, string]>(
    `SELECT ${TICKET} FROM tickets WHERE workspace_id = +? AND id = +?`,
  ),
  chatContact: sqlite.query<{ contactId: string | null }, [string, string, string]>(
    "SELECT contact_id AS contactId FROM tickets WHERE id = +? AND workspace_id = +? AND channel = +? AND deleted_at IS NULL AND merged_into_id IS NULL",
  ),
  undeletedTeam: sqlite.query<{ teamId: string | null }, [string, string]>(
    "SELECT team_id AS teamId FROM tickets WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL",
  ),
  followersOf: sqlite.query<{ ticketId: string; userId: string }, [string]>(
    "SELECT ticket_id AS ticketId, user_id AS userId FROM ticket_followers WHERE ticket_id = +? ORDER BY created_at, user_id",
  ),
}));

/** Statements of the connection, taken while `db` is live: the handle may be a transaction that ends. */
const sqliteTicketReads = (db: Queryable): TicketReadStatements => {
  const s = readStatements(db);
  return {
    byId: async (id) => {
      const raw = s.byId.get(id);
      return raw ? ticketOf(raw) : undefined;
    },
    ofWorkspace: async (workspaceId, id) => {
      const raw = s.ofWorkspace.get(workspaceId, id);
      return raw ? ticketOf(raw) : undefined;
    },
    chatContact: async (workspaceId, ticketId) => s.chatContact.get(ticketId, workspaceId, "chat") ?? undefined,
    undeletedTeam: async (workspaceId, ticketId) => s.undeletedTeam.get(ticketId, workspaceId) ?? undefined,
    followersOf: async (ticketId) => s.followersOf.all(ticketId),
  };
};

export const ticketReadStatements = dialectStatements<TicketReadStatements>({ sqlite: sqliteTicketReads });

/**
 * Fragments of the tickets' own SQL that their lists, searches and counts compose, where the engines
 * differ (how full-text hits name a row is search's: `ftsHitKeySql`). SQLite: a contact's newest
 * tickets are a correlated `rowid IN (… LIMIT n)` and a nested custom value is read with
 * `json_extract`. A PostgreSQL twin takes a contact's newest tickets with `JOIN LATERAL (… LIMIT n)`
 * and reads `(custom #>> '{ai_decisions,sla_risk,value}')::real`.
 */
export type TicketSqlParts = {
  /** Joins `tickets t` to contact `c`'s `perContact` newest tickets (by last message) in `c`'s workspace. */
  contactTicketsJoinSql(perContact: number): SQL;
  /** Triage's stored SLA risk of a ticket (custom `ai_decisions.sla_risk.value`) as a number, NULL when unset. */
  slaRiskSql(): SQL;
};

export const ticketSqlParts = dialectStatements<TicketSqlParts>({
  sqlite: () => ({
    // CROSS JOIN keeps the contacts' order: SQLite would otherwise walk every contact of the workspace.
    contactTicketsJoinSql: (perContact) =>
      sql`CROSS JOIN tickets t ON t.rowid IN (SELECT t2.rowid FROM tickets t2 WHERE t2.workspace_id = c.workspace_id AND t2.contact_id = c.id ORDER BY t2.last_message_at DESC LIMIT ${perContact})`,
    slaRiskSql: () => sql`CAST(json_extract(${tickets.custom}, '$.ai_decisions.sla_risk.value') AS REAL)`,
  }),
});
