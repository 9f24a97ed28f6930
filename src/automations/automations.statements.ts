import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import type { RawLoaded } from "./automations.facts";

/** An automation as the run-AI job reads it again: its rule, trigger and whether it is still on. */
export type StoredAutomation = RawLoaded & { trigger: string; enabled: number };

/** One automation_runs row of an event rule. */
export type EventRun = {
  id: string;
  workspaceId: string;
  automationId: string;
  eventId: string;
  ticketId: string;
  outcome: "applied" | "stopped";
  depth: number;
  notesJson: string;
  at: string;
};

/** One applied run of a time rule: its run row (notes and matched times as JSON) and its mark on the ticket. */
export type TimeRun = {
  id: string;
  workspaceId: string;
  automationId: string;
  eventId: string;
  ticketId: string;
  notesJson: string;
  matchedJson: string;
  at: string;
};

/**
 * The automations engine's and time rules' statements, prepared once per connection (they run in
 * every ticket and message event's consumer pass). PostgreSQL's twin reads the id lists from the
 * same JSON text with `jsonb_array_elements_text`, compares the flags with `true`, answers the JSON
 * columns as their text and the flags as 0/1 (the rows' shapes are the SQLite side's), writes a time
 * rule's mark with `INSERT … ON CONFLICT (automation_id, ticket_id) DO UPDATE` instead of `INSERT OR
 * REPLACE`, and finds text with `strpos` for `instr`.
 */
export interface AutomationStatements {
  /** The workspace's enabled automations of a trigger, in their order. */
  enabledFor(workspaceId: string, trigger: string): Promise<RawLoaded[]>;
  /** One automation of the workspace, enabled or not; undefined when gone. */
  automation(workspaceId: string, automationId: string): Promise<StoredAutomation | undefined>;
  /** Whether the automation already ran on this event (a run row exists). */
  ranOn(automationId: string, eventId: string): Promise<boolean>;
  /** Stores an event rule's run row. */
  recordRun(run: EventRun): Promise<void>;
  /** Counts one applied run of the automation at `at`. */
  countRun(automationId: string, at: string): Promise<void>;
  /** Workspaces after `afterWorkspaceId` with enabled time rules, in id order, a page. */
  timeRuleWorkspaces(afterWorkspaceId: string, limit: number): Promise<string[]>;
  /** The workspace's enabled time rules, in their order. */
  timeRules(workspaceId: string): Promise<RawLoaded[]>;
  /** Those of `ticketIds` the time rule has acted on since they last changed. */
  markedAmong(automationId: string, ticketIds: readonly string[]): Promise<string[]>;
  /** Whether the time rule has acted on the ticket since it last changed. */
  isMarked(automationId: string, ticketId: string): Promise<boolean>;
  /** Stores a time rule's applied run, counts it and marks the ticket as acted on at `at`. */
  recordTimeRun(run: TimeRun): Promise<void>;
  /** Re-arms the time rules (except `chain`'s) that acted on the ticket before `occurredAt`. */
  rearm(ticketId: string, occurredAt: string, chain: readonly string[]): Promise<void>;
  /** A condition true for automations whose JSON may name a label (a `tag` condition or a `*_tag` action). */
  mayNameTagsSql(conditions: SQLWrapper, actions: SQLWrapper): SQL;
}

// The SQL both engines share; where they differ, the SQLite text is written first and PostgreSQL's
// beside it (flags are booleans there, JSON columns jsonb).
const LOADED = "id, name, conditions, actions, allow_customer_reply_on_ai_decision AS allow_ai_reply";
/** The same row on PostgreSQL: the JSON columns as their JSON text, the flag as 0/1 (what `RawLoaded` holds). */
const PG_LOADED = `id, name, conditions #>> '{}' AS conditions, actions #>> '{}' AS actions,
  allow_customer_reply_on_ai_decision::int AS allow_ai_reply`;
const ENABLED = (loaded: string, on: string) =>
  `SELECT ${loaded} FROM automations WHERE workspace_id = +? AND trigger = +? AND enabled = ${on} ORDER BY position, created_at, id`;
const ONE = (loaded: string, enabled: string) =>
  `SELECT ${loaded}, trigger, ${enabled} FROM automations WHERE workspace_id = +? AND id = +?`;
const RAN = "SELECT id FROM automation_runs WHERE automation_id = +? AND event_id = +?";
const RECORD = (json: string) =>
  `INSERT INTO automation_runs (id, workspace_id, automation_id, event_id, ticket_id, outcome, depth, notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ${json}, ?)`;
const COUNTED = "UPDATE automations SET run_count = run_count + 1, last_run_at = ? WHERE id = +?";
const WORKSPACES = (on: string) =>
  `SELECT DISTINCT workspace_id FROM automations WHERE trigger = 'time' AND enabled = ${on} AND workspace_id > ? ORDER BY workspace_id LIMIT ?`;
const RULES = (loaded: string, on: string) =>
  `SELECT ${loaded} FROM automations WHERE workspace_id = +? AND trigger = 'time' AND enabled = ${on} ORDER BY position, created_at, id`;
const IS_MARKED = "SELECT acted_at FROM automation_time_marks WHERE automation_id = ? AND ticket_id = ?";
const RECORD_TIME = (json: string) =>
  `INSERT INTO automation_runs (id, workspace_id, automation_id, event_id, ticket_id, outcome, depth, notes, matched, created_at) VALUES (?, ?, ?, ?, ?, 'applied', 0, ${json}, ${json}, ?)`;

function prepareAutomationQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  return {
    enabled: sqlite.query<RawLoaded, [string, string]>(ENABLED(LOADED, "1")),
    one: sqlite.query<StoredAutomation, [string, string]>(ONE(LOADED, "enabled")),
    ran: sqlite.query<{ id: string }, [string, string]>(RAN),
    record: sqlite.query<unknown, [string, string, string, string, string, string, number, string, string]>(
      RECORD("?"),
    ),
    counted: sqlite.query<unknown, [string, string]>(COUNTED),
    workspaces: sqlite.query<{ workspace_id: string }, [string, number]>(WORKSPACES("1")),
    rules: sqlite.query<RawLoaded, [string]>(RULES(LOADED, "1")),
    marked: sqlite.query<{ ticket_id: string }, [string, string]>(
      "SELECT ticket_id FROM automation_time_marks WHERE automation_id = ? AND ticket_id IN (SELECT value FROM json_each(?))",
    ),
    mark: sqlite.query<unknown, [string, string, string, string]>(
      "INSERT OR REPLACE INTO automation_time_marks (automation_id, ticket_id, workspace_id, acted_at) VALUES (?, ?, ?, ?)",
    ),
    isMarked: sqlite.query<{ acted_at: string }, [string, string]>(IS_MARKED),
    rearm: sqlite.query<unknown, [string, string, string]>(
      "DELETE FROM automation_time_marks WHERE ticket_id = ? AND acted_at < ? AND automation_id NOT IN (SELECT value FROM json_each(?))",
    ),
    recordTime: sqlite.query<unknown, [string, string, string, string, string, string, string, string]>(
      RECORD_TIME("?"),
    ),
  };
}

const sqliteAutomationStatements = (db: Queryable): AutomationStatements => {
  const q = prepareAutomationQueries(db);
  return {
    enabledFor: async (workspaceId, trigger) => q.enabled.all(workspaceId, trigger),
    automation: async (workspaceId, automationId) => q.one.get(workspaceId, automationId) ?? undefined,
    ranOn: async (automationId, eventId) => q.ran.get(automationId, eventId) !== null,
    recordRun: async (run) => {
      q.record.run(
        run.id,
        run.workspaceId,
        run.automationId,
        run.eventId,
        run.ticketId,
        run.outcome,
        run.depth,
        run.notesJson,
        run.at,
      );
    },
    countRun: async (automationId, at) => {
      q.counted.run(at, automationId);
    },
    timeRuleWorkspaces: async (afterWorkspaceId, limit) =>
      q.workspaces.all(afterWorkspaceId, limit).map((row) => row.workspace_id),
    timeRules: async (workspaceId) => q.rules.all(workspaceId),
    markedAmong: async (automationId, ticketIds) =>
      q.marked.all(automationId, JSON.stringify(ticketIds)).map((row) => row.ticket_id),
    isMarked: async (automationId, ticketId) => q.isMarked.get(automationId, ticketId) !== null,
    recordTimeRun: async (run) => {
      q.recordTime.run(
        run.id,
        run.workspaceId,
        run.automationId,
        run.eventId,
        run.ticketId,
        run.notesJson,
        run.matchedJson,
        run.at,
      );
      q.counted.run(run.at, run.automationId);
      q.mark.run(run.automationId, run.ticketId, run.workspaceId, run.at);
    },
    rearm: async (ticketId, occurredAt, chain) => {
      q.rearm.run(ticketId, occurredAt, JSON.stringify(chain));
    },
    mayNameTagsSql: (conditions, actions) =>
      sql`(instr(lower(${conditions}), '"tag"') > 0 OR instr(${actions}, '_tag"') > 0)`,
  };
};

const postgresAutomationStatements = (db: Queryable): AutomationStatements => {
  // JSON parameters arrive as JSON text: `::text::jsonb` parses it (a parameter typed jsonb would
  // be JSON-encoded again by Bun's client).
  const json = "?::text::jsonb";
  const enabled = postgresQuery<RawLoaded, [string, string]>(db, ENABLED(PG_LOADED, "true"));
  const one = postgresQuery<StoredAutomation, [string, string]>(db, ONE(PG_LOADED, "enabled::int AS enabled"));
  const ran = postgresQuery<{ id: string }, [string, string]>(db, RAN);
  const record = postgresQuery<unknown, [string, string, string, string, string, string, number, string, string]>(
    db,
    RECORD(json),
  );
  const counted = postgresQuery<unknown, [string, string]>(db, COUNTED);
  const workspaces = postgresQuery<{ workspace_id: string }, [string, number]>(db, WORKSPACES("true"));
  const rules = postgresQuery<RawLoaded, [string]>(db, RULES(PG_LOADED, "true"));
  const marked = postgresQuery<{ ticket_id: string }, [string, string]>(
    db,
    `SELECT ticket_id FROM automation_time_marks WHERE automation_id = ? AND ${inListSql("ticket_id", "postgres")}`,
  );
  const mark = postgresQuery<unknown, [string, string, string, string]>(
    db,
    `INSERT INTO automation_time_marks (automation_id, ticket_id, workspace_id, acted_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (automation_id, ticket_id) DO UPDATE SET workspace_id = excluded.workspace_id, acted_at = excluded.acted_at`,
  );
  const isMarked = postgresQuery<{ acted_at: string }, [string, string]>(db, IS_MARKED);
  const rearm = postgresQuery<unknown, [string, string, string]>(
    db,
    `DELETE FROM automation_time_marks WHERE ticket_id = ? AND acted_at < ? AND NOT (${inListSql("automation_id", "postgres")})`,
  );
  const recordTime = postgresQuery<unknown, [string, string, string, string, string, string, string, string]>(
    db,
    RECORD_TIME(json),
  );
  return {
    enabledFor: (workspaceId, trigger) => enabled.all(workspaceId, trigger),
    automation: async (workspaceId, automationId) => (await one.get(workspaceId, automationId)) ?? undefined,
    ranOn: async (automationId, eventId) => (await ran.get(automationId, eventId)) !== null,
    recordRun: (run) =>
      record.run(
        run.id,
        run.workspaceId,
        run.automationId,
        run.eventId,
        run.ticketId,
        run.outcome,
        run.depth,
        run.notesJson,
        run.at,
      ),
    countRun: (automationId, at) => counted.run(at, automationId),
    timeRuleWorkspaces: async (afterWorkspaceId, limit) =>
      (await workspaces.all(afterWorkspaceId, limit)).map((row) => row.workspace_id),
    timeRules: (workspaceId) => rules.all(workspaceId),
    markedAmong: async (automationId, ticketIds) =>
      (await marked.all(automationId, JSON.stringify(ticketIds))).map((row) => row.ticket_id),
    isMarked: async (automationId, ticketId) => (await isMarked.get(automationId, ticketId)) !== null,
    recordTimeRun: async (run) => {
      await recordTime.run(
        run.id,
        run.workspaceId,
        run.automationId,
        run.eventId,
        run.ticketId,
        run.notesJson,
        run.matchedJson,
        run.at,
      );
      await counted.run(run.at, run.automationId);
      await mark.run(run.automationId, run.ticketId, run.workspaceId, run.at);
    },
    rearm: (ticketId, occurredAt, chain) => rearm.run(ticketId, occurredAt, JSON.stringify(chain)),
    // The columns' JSON text (`#>> '{}'`), searched as SQLite searches its stored text.
    mayNameTagsSql: (conditions, actions) =>
      sql`(strpos(lower(${conditions} #>> '{}'), '"tag"') > 0 OR strpos(${actions} #>> '{}', '_tag"') > 0)`,
  };
};

export const automationStatements = dialectStatements<AutomationStatements>({
  sqlite: sqliteAutomationStatements,
  postgres: postgresAutomationStatements,
});
