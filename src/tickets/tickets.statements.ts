import { asc, desc, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql, listParam } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
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
// Aliases are quoted: PostgreSQL folds unquoted names to lower case (SQLite reads them the same).
const TICKET = `id, workspace_id AS "workspaceId", number, subject, status, priority, severity, channel, mailbox_id AS "mailboxId",
  contact_id AS "contactId", assignee_id AS "assigneeId", team_id AS "teamId", spam, snoozed_until AS "snoozedUntil", solved_at AS "solvedAt",
  first_responded_at AS "firstRespondedAt", last_message_at AS "lastMessageAt", last_customer_message_at AS "lastCustomerMessageAt",
  last_message_preview AS "lastMessagePreview", message_count AS "messageCount", csat, custom, sla, merged_into_id AS "mergedIntoId",
  deleted_at AS "deletedAt", created_at AS "createdAt", updated_at AS "updatedAt", priority_rank AS "priorityRank", severity_rank AS "severityRank",
  due_at AS "dueAt"`;

const ticketOf = (raw: RawTicket): TicketRow => ({
  ...raw,
  spam: raw.spam === 1,
  csat: raw.csat === null ? null : (JSON.parse(raw.csat) as TicketRow["csat"]),
  custom: JSON.parse(raw.custom) as TicketRow["custom"],
  sla: raw.sla === null ? null : (JSON.parse(raw.sla) as TicketRow["sla"]),
});

/** The columns of a ticket insert, in the order both engines bind them. */
const INSERT_TICKET_COLUMNS = `INSERT INTO tickets (id, workspace_id, number, subject, status, priority, severity, channel, mailbox_id, contact_id, assignee_id, team_id,
       spam, snoozed_until, solved_at, first_responded_at, last_message_at, last_customer_message_at, last_message_preview, message_count,
       csat, custom, sla, merged_into_id, deleted_at, created_at, updated_at)`;
/** A message's moves on its ticket: the columns no index-count trigger or FTS trigger watches. */
const COUNTERS = `UPDATE tickets SET message_count = ?, updated_at = ?, last_message_at = ?, last_message_preview = ?, last_customer_message_at = ?,
       first_responded_at = ? WHERE id = +?`;
const BY_NUMBER =
  'SELECT id, contact_id AS "contactId" FROM tickets WHERE workspace_id = +? AND number = +? AND deleted_at IS NULL';
const SPAM = "SELECT spam FROM tickets WHERE id = +?";
/** A live ticket (neither deleted nor merged away) of a workspace by id. */
const LIVE_BY_ID = `SELECT ${TICKET} FROM tickets WHERE workspace_id = +? AND id = +? AND deleted_at IS NULL AND merged_into_id IS NULL`;

const statements = preparedFor((sqlite) => ({
  insertTicket: sqlite.query<unknown, Array<string | number | null>>(
    `${INSERT_TICKET_COLUMNS}
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  counters: sqlite.query<unknown, [number, string, string, string, string | null, string | null, string]>(COUNTERS),
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
  byNumber: sqlite.query<{ id: string; contactId: string | null }, [string, number]>(BY_NUMBER),
  spam: sqlite.query<{ spam: number }, [string]>(SPAM),
  liveById: sqlite.query<RawTicket, [string, string]>(LIVE_BY_ID),
  setSla: sqlite.query<unknown, [string | null, string, string]>(
    "UPDATE tickets SET sla = ?, updated_at = ? WHERE id = +?",
  ),
}));

/**
 * The write path's statements (above) behind one interface. SQLite runs them prepared on the
 * connection; the PostgreSQL twin runs the same SQL with JSON bound as text cast to jsonb
 * (`?::text::jsonb`: Bun's client would encode a string bound as jsonb a second time), flags as
 * booleans, and a list as a jsonb array.
 */
type TicketWriteStatements = {
  insertTicket(row: TicketRow): Promise<void>;
  liveById(workspaceId: string, id: string): Promise<TicketRow | undefined>;
  setSla(id: string, sla: TicketRow["sla"], updatedAt: string): Promise<void>;
  counters(next: TicketRow): Promise<void>;
  visible(
    workspaceId: string,
    ref: { id: string } | { number: number },
    hiddenTeamIds: string[],
  ): Promise<TicketRow | undefined>;
  insertActivity(row: ActivityRow): Promise<void>;
  /** `ids` is never empty. */
  undeletedAmong(workspaceId: string, ids: string[]): Promise<Set<string>>;
  byNumber(workspaceId: string, number: number): Promise<{ id: string; contactId: string | null } | undefined>;
  isSpam(id: string): Promise<boolean>;
};

const counterParams = (next: TicketRow) =>
  [
    next.messageCount,
    next.updatedAt,
    next.lastMessageAt,
    next.lastMessagePreview,
    next.lastCustomerMessageAt,
    next.firstRespondedAt,
    next.id,
  ] as [number, string, string, string, string | null, string | null, string];

/** A ticket's columns in INSERT_TICKET_COLUMNS order; the flag as each engine binds it (0/1 or a boolean). */
const ticketParams = <Flag extends number | boolean>(row: TicketRow, spam: Flag) =>
  [
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
    spam,
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
  ] as const;

const sqliteTicketWrites = (db: Queryable): TicketWriteStatements => {
  const s = statements(db);
  return {
    insertTicket: async (row) => {
      s.insertTicket.run(...ticketParams(row, row.spam ? 1 : 0));
    },
    liveById: async (workspaceId, id) => {
      const raw = s.liveById.get(workspaceId, id);
      return raw ? ticketOf(raw) : undefined;
    },
    setSla: async (id, sla, updatedAt) => {
      s.setSla.run(sla === null ? null : JSON.stringify(sla), updatedAt, id);
    },
    counters: async (next) => {
      s.counters.run(...counterParams(next));
    },
    visible: async (workspaceId, ref, hiddenTeamIds) => {
      const hidden = listParam(hiddenTeamIds);
      const raw =
        "id" in ref
          ? s.visibleById.get(workspaceId, ref.id, hidden)
          : s.visibleByNumber.get(workspaceId, ref.number, hidden);
      return raw ? ticketOf(raw) : undefined;
    },
    insertActivity: async (row) => {
      s.insertActivity.run(
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
    },
    undeletedAmong: async (workspaceId, ids) =>
      new Set(s.undeletedAmong.all(workspaceId, listParam(ids)).map((r) => r.id)),
    byNumber: async (workspaceId, number) => s.byNumber.get(workspaceId, number) ?? undefined,
    isSpam: async (id) => s.spam.get(id)?.spam === 1,
  };
};

/** The hidden teams on PostgreSQL: `inListSql`'s list (JSON text bound as text, cast to jsonb), negated. */
const PG_NOT_HIDDEN = `(team_id IS NULL OR NOT ${inListSql("team_id", "postgres")})`;

const postgresTicketWrites = (db: Queryable): TicketWriteStatements => {
  // Rows come back with booleans and parsed jsonb: already the row's types.
  const insertTicket = postgresQuery<unknown, unknown[]>(
    db,
    `${INSERT_TICKET_COLUMNS}
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text::jsonb, ?::text::jsonb, ?::text::jsonb, ?, ?, ?, ?)`,
  );
  const counters = postgresQuery<unknown, ReturnType<typeof counterParams>>(db, COUNTERS);
  const visibleById = postgresQuery<TicketRow, [string, string, string]>(
    db,
    `SELECT ${TICKET} FROM tickets WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL
       AND ${PG_NOT_HIDDEN}`,
  );
  const visibleByNumber = postgresQuery<TicketRow, [string, number, string]>(
    db,
    `SELECT ${TICKET} FROM tickets WHERE workspace_id = ? AND number = ? AND deleted_at IS NULL
       AND ${PG_NOT_HIDDEN}`,
  );
  const insertActivity = postgresQuery<unknown, unknown[]>(
    db,
    "INSERT INTO activities (id, workspace_id, ticket_id, type, data, actor_type, actor_user_id, actor_automation, created_at) VALUES (?, ?, ?, ?, ?::text::jsonb, ?, ?, ?::text::jsonb, ?)",
  );
  const undeletedAmong = postgresQuery<{ id: string }, [string, string]>(
    db,
    `SELECT id FROM tickets WHERE workspace_id = ? AND ${inListSql("id", "postgres")} AND deleted_at IS NULL`,
  );
  const byNumber = postgresQuery<{ id: string; contactId: string | null }, [string, number]>(db, BY_NUMBER);
  const spam = postgresQuery<{ spam: boolean }, [string]>(db, SPAM);
  const liveById = postgresQuery<TicketRow, [string, string]>(db, LIVE_BY_ID);
  const setSla = postgresQuery<unknown, [string | null, string, string]>(
    db,
    "UPDATE tickets SET sla = ?::text::jsonb, updated_at = ? WHERE id = ?",
  );
  return {
    insertTicket: (row) => insertTicket.run(...ticketParams(row, row.spam)),
    liveById: async (workspaceId, id) => (await liveById.get(workspaceId, id)) ?? undefined,
    setSla: (id, sla, updatedAt) => setSla.run(sla === null ? null : JSON.stringify(sla), updatedAt, id),
    counters: (next) => counters.run(...counterParams(next)),
    visible: async (workspaceId, ref, hiddenTeamIds) => {
      const hidden = listParam(hiddenTeamIds);
      const row =
        "id" in ref
          ? await visibleById.get(workspaceId, ref.id, hidden)
          : await visibleByNumber.get(workspaceId, ref.number, hidden);
      return row ?? undefined;
    },
    insertActivity: (row) =>
      insertActivity.run(
        row.id,
        row.workspaceId,
        row.ticketId,
        row.type,
        JSON.stringify(row.data),
        row.actorType,
        row.actorUserId,
        row.actorAutomation ? JSON.stringify(row.actorAutomation) : null,
        row.createdAt,
      ),
    undeletedAmong: async (workspaceId, ids) =>
      new Set((await undeletedAmong.all(workspaceId, listParam(ids))).map((r) => r.id)),
    byNumber: async (workspaceId, number) => (await byNumber.get(workspaceId, number)) ?? undefined,
    isSpam: async (id) => (await spam.get(id))?.spam === true,
  };
};

const ticketWrites = dialectStatements<TicketWriteStatements>({
  sqlite: sqliteTicketWrites,
  postgres: postgresTicketWrites,
});

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
export const insertTicketRow = (db: Queryable, row: TicketRow): Promise<void> => ticketWrites(db).insertTicket(row);

/** A live ticket (neither deleted nor merged away) of a workspace by id, read through a prepared statement. */
export const liveTicketRow = (db: Queryable, workspaceId: string, id: string): Promise<TicketRow | undefined> =>
  ticketWrites(db).liveById(workspaceId, id);

/** Writes a ticket's SLA state (JSON) and updated_at. */
export const writeTicketSla = (db: Queryable, id: string, sla: TicketRow["sla"], updatedAt: string): Promise<void> =>
  ticketWrites(db).setSla(id, sla, updatedAt);

/** Writes the message counters of `next` (a copy of the stored row with new counter values). */
export const updateTicketCounters = (db: Queryable, next: TicketRow): Promise<void> => ticketWrites(db).counters(next);

/** A ticket of the workspace by id or number (not deleted, not in a hidden team), as the query builder would read it. */
export const visibleTicketRow = (
  db: Queryable,
  workspaceId: string,
  ref: { id: string } | { number: number },
  hiddenTeamIds: string[],
): Promise<TicketRow | undefined> => ticketWrites(db).visible(workspaceId, ref, hiddenTeamIds);

/** Inserts a complete activity row (the row in hand is exactly what is stored). */
export const insertActivityRow = (db: Queryable, row: ActivityRow): Promise<void> =>
  ticketWrites(db).insertActivity(row);

/** Which of these tickets of the workspace are not deleted (merged-away ones count: replies forward). */
export const undeletedTicketIds = async (db: Queryable, workspaceId: string, ids: string[]): Promise<Set<string>> =>
  ids.length ? await ticketWrites(db).undeletedAmong(workspaceId, ids) : new Set();

/** A ticket that is not deleted, by its number, with its contact. */
export const ticketByNumberRow = (
  db: Queryable,
  workspaceId: string,
  number: number,
): Promise<{ id: string; contactId: string | null } | undefined> => ticketWrites(db).byNumber(workspaceId, number);

export const isSpamTicket = (db: Queryable, id: string): Promise<boolean> => ticketWrites(db).isSpam(id);

/**
 * The ticket counts others ask of tickets, where the engines' SQL differs in how a list is bound
 * (SQLite: `IN (SELECT value FROM json_each(?))`). The PostgreSQL twin binds the ids as a jsonb
 * array, casts the counts to int (bigint comes back as a string) and orders the groups by their key
 * (SQLite's GROUP BY gives them so); the inbox's `ticket_counts` buckets are kept by PL/pgSQL
 * triggers there (migrations/postgres/custom/0102_ticket_counts.sql).
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
  'SELECT contact_id AS "contactId", count(*) AS n FROM tickets WHERE workspace_id = +? AND deleted_at IS NULL';

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

const postgresTicketCounts = (db: Queryable): TicketCountStatements => {
  const openOfAssignees = postgresQuery<{ assignee_id: string; n: number }, [string, string]>(
    db,
    `SELECT assignee_id, count(*)::int AS n FROM tickets WHERE workspace_id = ? AND ${inListSql("assignee_id", "postgres")} AND status IN ('open', 'pending', 'on_hold') AND deleted_at IS NULL AND merged_into_id IS NULL GROUP BY assignee_id ORDER BY assignee_id`,
  );
  const PG_CONTACT_COUNT =
    'SELECT contact_id AS "contactId", count(*)::int AS n FROM tickets WHERE workspace_id = ? AND deleted_at IS NULL';
  const ofContact = postgresQuery<{ contactId: string; n: number }, [string, string]>(
    db,
    `${PG_CONTACT_COUNT} AND contact_id = ? GROUP BY contact_id`,
  );
  const ofContacts = postgresQuery<{ contactId: string; n: number }, [string, string]>(
    db,
    `${PG_CONTACT_COUNT} AND ${inListSql("contact_id", "postgres")} GROUP BY contact_id ORDER BY contact_id`,
  );
  return {
    openTicketsOfAssignees: async (workspaceId, userIds) => {
      const rows = await openOfAssignees.all(workspaceId, listParam(userIds));
      return new Map(rows.map((r) => [r.assignee_id, r.n]));
    },
    liveTicketsOfContacts: (workspaceId, contactIds) =>
      contactIds.length === 1
        ? ofContact.all(workspaceId, contactIds[0]!)
        : ofContacts.all(workspaceId, listParam(contactIds)),
  };
};

export const ticketCountStatements = dialectStatements<TicketCountStatements>({
  sqlite: sqliteTicketCounts,
  postgres: postgresTicketCounts,
});

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
const BY_ID = `SELECT ${TICKET} FROM tickets WHERE id = +?`;
const OF_WORKSPACE = `SELECT ${TICKET} FROM tickets WHERE workspace_id = +? AND id = +?`;
const CHAT_CONTACT =
  'SELECT contact_id AS "contactId" FROM tickets WHERE id = +? AND workspace_id = +? AND channel = +? AND deleted_at IS NULL AND merged_into_id IS NULL';
const UNDELETED_TEAM =
  'SELECT team_id AS "teamId" FROM tickets WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL';
const FOLLOWERS_OF =
  'SELECT ticket_id AS "ticketId", user_id AS "userId" FROM ticket_followers WHERE ticket_id = +? ORDER BY created_at, user_id';

const readStatements = preparedFor((sqlite) => ({
  byId: sqlite.query<RawTicket, [string]>(BY_ID),
  ofWorkspace: sqlite.query<RawTicket, [string, string]>(OF_WORKSPACE),
  chatContact: sqlite.query<{ contactId: string | null }, [string, string, string]>(CHAT_CONTACT),
  undeletedTeam: sqlite.query<{ teamId: string | null }, [string, string]>(UNDELETED_TEAM),
  followersOf: sqlite.query<{ ticketId: string; userId: string }, [string]>(FOLLOWERS_OF),
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

const postgresTicketReads = (db: Queryable): TicketReadStatements => {
  const byId = postgresQuery<TicketRow, [string]>(db, BY_ID);
  const ofWorkspace = postgresQuery<TicketRow, [string, string]>(db, OF_WORKSPACE);
  const chatContact = postgresQuery<{ contactId: string | null }, [string, string, string]>(db, CHAT_CONTACT);
  const undeletedTeam = postgresQuery<{ teamId: string | null }, [string, string]>(db, UNDELETED_TEAM);
  const followersOf = postgresQuery<{ ticketId: string; userId: string }, [string]>(db, FOLLOWERS_OF);
  return {
    byId: async (id) => (await byId.get(id)) ?? undefined,
    ofWorkspace: async (workspaceId, id) => (await ofWorkspace.get(workspaceId, id)) ?? undefined,
    chatContact: async (workspaceId, ticketId) => (await chatContact.get(ticketId, workspaceId, "chat")) ?? undefined,
    undeletedTeam: async (workspaceId, ticketId) => (await undeletedTeam.get(ticketId, workspaceId)) ?? undefined,
    followersOf: (ticketId) => followersOf.all(ticketId),
  };
};

export const ticketReadStatements = dialectStatements<TicketReadStatements>({
  sqlite: sqliteTicketReads,
  postgres: postgresTicketReads,
});

/**
 * Fragments of the tickets' own SQL that their lists, searches and counts compose, where the engines
 * differ (how full-text hits name a row is search's: `ftsHitKeySql`). SQLite: a contact's newest
 * tickets are a correlated `rowid IN (… LIMIT n)` and a nested custom value is read with
 * `json_extract`. The PostgreSQL twin takes a contact's newest tickets with `CROSS JOIN LATERAL
 * (… LIMIT n)` and reads the nested number with `#>>` as float8 (SQLite's REAL). The inbox
 * buckets' flags are 0/1 on SQLite and boolean on PostgreSQL.
 */
export type TicketSqlParts = {
  /** Joins `tickets t` to contact `c`'s `perContact` newest tickets (by last message) in `c`'s workspace. */
  contactTicketsJoinSql(perContact: number): SQL;
  /** Triage's stored SLA risk of a ticket (custom `ai_decisions.sla_risk.value`) as a number, NULL when unset. */
  slaRiskSql(): SQL;
  /** A `ticket_counts` bucket's flag (`spam`, `snoozed`) is set (`on`) or not. */
  bucketFlagSql(flag: "spam" | "snoozed", on: boolean): SQL;
  /** A list's sort key in `order`, NULL lowest as SQLite orders it (PostgreSQL sorts NULL highest unless told). */
  orderBySql(key: SQL, order: "asc" | "desc"): SQL;
  /** A condition no row meets (SQLite: `0`; PostgreSQL wants a boolean). */
  noRowSql(): SQL;
  /** `condition`, hinted as usually true where the engine takes hints (SQLite's `likely()`). */
  likelySql(condition: SQL): SQL;
};

export const ticketSqlParts = dialectStatements<TicketSqlParts>({
  sqlite: () => ({
    // CROSS JOIN keeps the contacts' order: SQLite would otherwise walk every contact of the workspace.
    contactTicketsJoinSql: (perContact) =>
      sql`CROSS JOIN tickets t ON t.rowid IN (SELECT t2.rowid FROM tickets t2 WHERE t2.workspace_id = c.workspace_id AND t2.contact_id = c.id ORDER BY t2.last_message_at DESC LIMIT ${perContact})`,
    slaRiskSql: () => sql`CAST(json_extract(${tickets.custom}, '$.ai_decisions.sla_risk.value') AS REAL)`,
    bucketFlagSql: (flag, on) => sql.raw(`${flag} = ${on ? 1 : 0}`),
    orderBySql: (key, order) => (order === "desc" ? desc(key) : asc(key)),
    noRowSql: () => sql`0`,
    likelySql: (condition) => sql`likely(${condition})`,
  }),
  postgres: () => ({
    // The ticket's columns keep their names under the alias `t`; ties on last_message_at are broken by id.
    contactTicketsJoinSql: (perContact) =>
      sql`CROSS JOIN LATERAL (SELECT t2.* FROM tickets t2 WHERE t2.workspace_id = c.workspace_id AND t2.contact_id = c.id ORDER BY t2.last_message_at DESC, t2.id DESC LIMIT ${perContact}) t`,
    // A number only (SQLite's CAST would read other JSON values too; triage stores a number).
    slaRiskSql: () =>
      sql`(CASE WHEN jsonb_typeof(${tickets.custom} #> '{ai_decisions,sla_risk,value}') = 'number' THEN (${tickets.custom} #>> '{ai_decisions,sla_risk,value}')::float8 END)`,
    bucketFlagSql: (flag, on) => sql.raw(on ? flag : `NOT ${flag}`),
    orderBySql: (key, order) => (order === "desc" ? sql`${key} DESC NULLS LAST` : sql`${key} ASC NULLS FIRST`),
    noRowSql: () => sql`false`,
    likelySql: (condition) => sql`(${condition})`,
  }),
});
