import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { preparedFor } from "../db/sqlite/prepared";
import type { TicketStatus } from "./tickets.table";

/**
 * The times time rules compare, kept per live ticket in `ticket_times` by triggers
 * (migrations/custom/0130_ticket_times.sql): every writer keeps them without knowing of them.
 * `customer_message` and `agent_message` are the ticket's creation until someone of that side writes
 * a reply; `status_changed` its creation until the status first changes; `sla_due` is Ticket.due_at
 * ('9999' when no deadline is pending).
 */
export const TICKET_TIME_COLUMNS = [
  "created",
  "status_changed",
  "customer_message",
  "agent_message",
  "sla_due",
] as const;
export type TicketTimeColumn = (typeof TICKET_TIME_COLUMNS)[number];

export type TicketTimes = {
  ticketId: string;
  status: TicketStatus;
  created: string;
  status_changed: string;
  customer_message: string;
  agent_message: string;
  sla_due: string;
  slaBreached: boolean;
};

/** A page position: the last (time, ticket id) read, walking newest time first. */
export type TimeCursor = { at: string; id: string };

/** One ticket's times and `at`, the value its page was walked by. */
export type PagedTicketTimes = TicketTimes & { at: string };

/**
 * The pages time rules walk over `ticket_times`. Their SQL is portable; what the PostgreSQL twin does
 * differently is keeping the table: PL/pgSQL triggers in place of SQLite's (the same columns, so the
 * same indexes on (workspace, status, time) answer each range;
 * migrations/postgres/custom/0130_ticket_times.sql), `sla_breached` a boolean, and a `?` per
 * parameter where SQLite numbers them.
 */
export type TicketTimeStatements = {
  /** A page of live tickets in `status` whose `column` time is in [from, to), newest first, after (at, id). */
  inRange(
    workspaceId: string,
    input: {
      status: TicketStatus;
      column: TicketTimeColumn;
      from: string;
      to: string;
      cursor: TimeCursor;
      limit: number;
    },
  ): Promise<PagedTicketTimes[]>;
  /** A page of live tickets in `status` whose SLA was breached, by id descending, below `beforeId`. */
  breached(
    workspaceId: string,
    input: { status: TicketStatus; beforeId: string; limit: number },
  ): Promise<PagedTicketTimes[]>;
};

const COLUMN: Record<TicketTimeColumn, string> = {
  created: "created_at",
  status_changed: "status_changed_at",
  customer_message: "customer_message_at",
  agent_message: "agent_message_at",
  sla_due: "sla_due_at",
};

type Raw<Flag = number> = {
  ticket_id: string;
  status: TicketStatus;
  created_at: string;
  status_changed_at: string;
  customer_message_at: string;
  agent_message_at: string;
  sla_due_at: string;
  sla_breached: Flag;
};
const ALL =
  "ticket_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached";

// One statement per time column, so each range walks its own index (workspace, status, time) newest first.
const statements = preparedFor((sqlite) => {
  const range = (column: string) =>
    sqlite.query<Raw, [string, string, string, string, string, string, number]>(
      `SELECT ${ALL} FROM ticket_times WHERE workspace_id = ?1 AND status = ?2 AND ${column} >= ?3 AND ${column} < ?4
         AND (${column} < ?5 OR (${column} = ?5 AND ticket_id < ?6)) ORDER BY ${column} DESC, ticket_id DESC LIMIT ?7`,
    );
  return {
    created: range(COLUMN.created),
    status_changed: range(COLUMN.status_changed),
    customer_message: range(COLUMN.customer_message),
    agent_message: range(COLUMN.agent_message),
    sla_due: range(COLUMN.sla_due),
    breached: sqlite.query<Raw, [string, string, string, number]>(
      `SELECT ${ALL} FROM ticket_times WHERE workspace_id = ?1 AND status = ?2 AND sla_breached = 1 AND ticket_id < ?3
         ORDER BY ticket_id DESC LIMIT ?4`,
    ),
  };
});

const timesOf = (raw: Raw<number | boolean>, at: string): PagedTicketTimes => ({
  ticketId: raw.ticket_id,
  status: raw.status,
  created: raw.created_at,
  status_changed: raw.status_changed_at,
  customer_message: raw.customer_message_at,
  agent_message: raw.agent_message_at,
  sla_due: raw.sla_due_at,
  slaBreached: raw.sla_breached === 1 || raw.sla_breached === true,
  at,
});

const sqliteTicketTimes = (db: Queryable): TicketTimeStatements => {
  const s = statements(db);
  return {
    inRange: async (workspaceId, input) => {
      const key = COLUMN[input.column] as keyof Raw;
      return s[input.column]
        .all(workspaceId, input.status, input.from, input.to, input.cursor.at, input.cursor.id, input.limit)
        .map((raw) => timesOf(raw, String(raw[key])));
    },
    breached: async (workspaceId, input) =>
      s.breached.all(workspaceId, input.status, input.beforeId, input.limit).map((raw) => timesOf(raw, raw.ticket_id)),
  };
};

const postgresTicketTimes = (db: Queryable): TicketTimeStatements => {
  const range = (column: string) =>
    postgresQuery<Raw<boolean>, [string, string, string, string, string, string, string, number]>(
      db,
      `SELECT ${ALL} FROM ticket_times WHERE workspace_id = ? AND status = ? AND ${column} >= ? AND ${column} < ?
         AND (${column} < ? OR (${column} = ? AND ticket_id < ?)) ORDER BY ${column} DESC, ticket_id DESC LIMIT ?`,
    );
  const ranges: Record<TicketTimeColumn, ReturnType<typeof range>> = {
    created: range(COLUMN.created),
    status_changed: range(COLUMN.status_changed),
    customer_message: range(COLUMN.customer_message),
    agent_message: range(COLUMN.agent_message),
    sla_due: range(COLUMN.sla_due),
  };
  const breached = postgresQuery<Raw<boolean>, [string, string, string, number]>(
    db,
    `SELECT ${ALL} FROM ticket_times WHERE workspace_id = ? AND status = ? AND sla_breached AND ticket_id < ?
         ORDER BY ticket_id DESC LIMIT ?`,
  );
  return {
    inRange: async (workspaceId, input) => {
      const key = COLUMN[input.column] as keyof Raw;
      const { from, to, cursor } = input;
      const rows = await ranges[input.column].all(
        workspaceId,
        input.status,
        from,
        to,
        cursor.at,
        cursor.at,
        cursor.id,
        input.limit,
      );
      return rows.map((raw) => timesOf(raw, String(raw[key])));
    },
    breached: async (workspaceId, input) =>
      (await breached.all(workspaceId, input.status, input.beforeId, input.limit)).map((raw) =>
        timesOf(raw, raw.ticket_id),
      ),
  };
};

export const ticketTimeStatements = dialectStatements<TicketTimeStatements>({
  sqlite: sqliteTicketTimes,
  postgres: postgresTicketTimes,
});
