import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import type { SlaClockRow, SlaPolicyRow } from "./sla.table";

/**
 * The SLA tracker's and breach job's statements, prepared once per connection (the tracker reads
 * policies and the clock on every ticket change it sees; drizzle builds SQL text on every call).
 * Rows come back with booleans, whatever the engine stores. The SQL is portable: PostgreSQL's twin
 * runs the same text (the upsert `ON CONFLICT (ticket_id) DO UPDATE` included) with numbered
 * parameters and binds and reads the flags as booleans rather than 0/1.
 */
export interface SlaStatements {
  /** The workspace's policies by position. */
  policies(workspaceId: string): Promise<SlaPolicyRow[]>;
  /** The ticket's SLA clock, or undefined when it has none. */
  clock(ticketId: string): Promise<SlaClockRow | undefined>;
  /** Stores the ticket's SLA clock, new or replacing its previous one. */
  saveClock(row: SlaClockRow): Promise<void>;
  /** Tickets whose clock's next deadline is at or before `now`, oldest deadline first, a page. */
  dueClocks(now: string, limit: number): Promise<Array<{ ticketId: string }>>;
}

type RawPolicy = Omit<SlaPolicyRow, "businessHours" | "enabled"> & { businessHours: number; enabled: number };

type RawClock = Omit<SlaClockRow, "solved" | "firstBreached" | "resolutionBreached" | "breached"> & {
  solved: number;
  firstBreached: number;
  resolutionBreached: number;
  breached: number;
};
type PostgresClockParams = [
  string,
  string,
  string | null,
  string,
  boolean,
  string | null,
  string | null,
  boolean,
  boolean,
  boolean,
  string | null,
  string,
];
type ClockParams = [
  string,
  string,
  string | null,
  string,
  number,
  string | null,
  string | null,
  number,
  number,
  number,
  string | null,
  string,
];

// The SQL is shared by both engines; aliases are quoted (PostgreSQL folds unquoted names to lower case).
const POLICIES = `SELECT id, workspace_id AS "workspaceId", name, priority, first_response_minutes AS "firstResponseMinutes",
       resolution_minutes AS "resolutionMinutes", business_hours AS "businessHours", enabled, position,
       created_at AS "createdAt", updated_at AS "updatedAt"
     FROM sla_policies WHERE workspace_id = +? ORDER BY position, created_at, id`;
const CLOCK = `SELECT ticket_id AS "ticketId", workspace_id AS "workspaceId", policy_id AS "policyId", started_at AS "startedAt", solved,
       first_due_at AS "firstDueAt", resolution_due_at AS "resolutionDueAt", first_breached AS "firstBreached",
       resolution_breached AS "resolutionBreached", breached, next_due_at AS "nextDueAt", updated_at AS "updatedAt"
     FROM sla_clocks WHERE ticket_id = +?`;
const SAVE_CLOCK = `INSERT INTO sla_clocks (ticket_id, workspace_id, policy_id, started_at, solved, first_due_at, resolution_due_at,
       first_breached, resolution_breached, breached, next_due_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (ticket_id) DO UPDATE SET workspace_id = excluded.workspace_id, policy_id = excluded.policy_id,
       started_at = excluded.started_at, solved = excluded.solved, first_due_at = excluded.first_due_at,
       resolution_due_at = excluded.resolution_due_at, first_breached = excluded.first_breached,
       resolution_breached = excluded.resolution_breached, breached = excluded.breached, next_due_at = excluded.next_due_at,
       updated_at = excluded.updated_at`;
const DUE_CLOCKS = (order: string) =>
  `SELECT ticket_id AS "ticketId" FROM sla_clocks WHERE next_due_at IS NOT NULL AND next_due_at <= ? ORDER BY ${order} LIMIT ?`;

const sqliteSlaStatements = (db: Queryable): SlaStatements => {
  const sqlite = sqliteOf(db);
  const policies = sqlite.query<RawPolicy, [string]>(POLICIES);
  const clock = sqlite.query<RawClock, [string]>(CLOCK);
  const save = sqlite.query<unknown, ClockParams>(SAVE_CLOCK);
  const due = sqlite.query<{ ticketId: string }, [string, number]>(DUE_CLOCKS("next_due_at"));
  return {
    policies: async (workspaceId) =>
      policies
        .all(workspaceId)
        .map((raw) => ({ ...raw, businessHours: raw.businessHours === 1, enabled: raw.enabled === 1 })),
    clock: async (ticketId) => {
      const raw = clock.get(ticketId);
      if (!raw) return undefined;
      return {
        ...raw,
        solved: raw.solved === 1,
        firstBreached: raw.firstBreached === 1,
        resolutionBreached: raw.resolutionBreached === 1,
        breached: raw.breached === 1,
      };
    },
    saveClock: async (row) => {
      save.run(
        row.ticketId,
        row.workspaceId,
        row.policyId,
        row.startedAt,
        row.solved ? 1 : 0,
        row.firstDueAt,
        row.resolutionDueAt,
        row.firstBreached ? 1 : 0,
        row.resolutionBreached ? 1 : 0,
        row.breached ? 1 : 0,
        row.nextDueAt,
        row.updatedAt,
      );
    },
    dueClocks: async (now, limit) => due.all(now, limit),
  };
};

const postgresSlaStatements = (db: Queryable): SlaStatements => {
  // The flags are booleans in PostgreSQL's rows and parameters.
  const policies = postgresQuery<SlaPolicyRow, [string]>(db, POLICIES);
  const clock = postgresQuery<SlaClockRow, [string]>(db, CLOCK);
  const save = postgresQuery<unknown, PostgresClockParams>(db, SAVE_CLOCK);
  // Clocks due at the same time in the order of their tickets (UUIDv7: creation), near SQLite's
  // order (its index's rowid: the clocks' insertion).
  const due = postgresQuery<{ ticketId: string }, [string, number]>(
    db,
    DUE_CLOCKS(`next_due_at, ticket_id COLLATE "C"`),
  );
  return {
    policies: (workspaceId) => policies.all(workspaceId),
    clock: async (ticketId) => (await clock.get(ticketId)) ?? undefined,
    saveClock: (row) =>
      save.run(
        row.ticketId,
        row.workspaceId,
        row.policyId,
        row.startedAt,
        row.solved,
        row.firstDueAt,
        row.resolutionDueAt,
        row.firstBreached,
        row.resolutionBreached,
        row.breached,
        row.nextDueAt,
        row.updatedAt,
      ),
    dueClocks: (now, limit) => due.all(now, limit),
  };
};

export const slaStatements = dialectStatements<SlaStatements>({
  sqlite: sqliteSlaStatements,
  postgres: postgresSlaStatements,
});
