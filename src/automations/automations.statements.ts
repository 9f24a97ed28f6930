import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
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
 * every ticket and message event's consumer pass). PostgreSQL's twin binds the id lists as arrays
 * (`= ANY($1)`, `<> ALL($1)`), writes a time rule's mark with `INSERT … ON CONFLICT (automation_id,
 * ticket_id) DO UPDATE` instead of `INSERT OR REPLACE`, and finds text with `strpos` for `instr`.
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

function prepareAutomationQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  return {
    enabled: sqlite.query<RawLoaded, [string, string]>(
      "SELECT id, name, conditions, actions, allow_customer_reply_on_ai_decision AS allow_ai_reply FROM automations WHERE workspace_id = +? AND trigger = +? AND enabled = 1 ORDER BY position, created_at, id",
    ),
    one: sqlite.query<StoredAutomation, [string, string]>(
      "SELECT id, name, conditions, actions, allow_customer_reply_on_ai_decision AS allow_ai_reply, trigger, enabled FROM automations WHERE workspace_id = +? AND id = +?",
    ),
    ran: sqlite.query<{ id: string }, [string, string]>(
      "SELECT id FROM automation_runs WHERE automation_id = +? AND event_id = +?",
    ),
    record: sqlite.query<unknown, [string, string, string, string, string, string, number, string, string]>(
      "INSERT INTO automation_runs (id, workspace_id, automation_id, event_id, ticket_id, outcome, depth, notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    counted: sqlite.query<unknown, [string, string]>(
      "UPDATE automations SET run_count = run_count + 1, last_run_at = ? WHERE id = +?",
    ),
    workspaces: sqlite.query<{ workspace_id: string }, [string, number]>(
      "SELECT DISTINCT workspace_id FROM automations WHERE trigger = 'time' AND enabled = 1 AND workspace_id > ? ORDER BY workspace_id LIMIT ?",
    ),
    rules: sqlite.query<RawLoaded, [string]>(
      "SELECT id, name, conditions, actions, allow_customer_reply_on_ai_decision AS allow_ai_reply FROM automations WHERE workspace_id = +? AND trigger = 'time' AND enabled = 1 ORDER BY position, created_at, id",
    ),
    marked: sqlite.query<{ ticket_id: string }, [string, string]>(
      "SELECT ticket_id FROM automation_time_marks WHERE automation_id = ? AND ticket_id IN (SELECT value FROM json_each(?))",
    ),
    mark: sqlite.query<unknown, [string, string, string, string]>(
      "INSERT OR REPLACE INTO automation_time_marks (automation_id, ticket_id, workspace_id, acted_at) VALUES (?, ?, ?, ?)",
    ),
    isMarked: sqlite.query<{ acted_at: string }, [string, string]>(
      "SELECT acted_at FROM automation_time_marks WHERE automation_id = ? AND ticket_id = ?",
    ),
    rearm: sqlite.query<unknown, [string, string, string]>(
      "DELETE FROM automation_time_marks WHERE ticket_id = ? AND acted_at < ? AND automation_id NOT IN (SELECT value FROM json_each(?))",
    ),
    recordTime: sqlite.query<unknown, [string, string, string, string, string, string, string, string]>(
      "INSERT INTO automation_runs (id, workspace_id, automation_id, event_id, ticket_id, outcome, depth, notes, matched, created_at) VALUES (?, ?, ?, ?, ?, 'applied', 0, ?, ?, ?)",
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

export const automationStatements = dialectStatements<AutomationStatements>({ sqlite: sqliteAutomationStatements });
