import type { Role } from "../auth/context";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { eventSeqsSql as S } from "../events/events.sql";
import { membersSql as m } from "../members/members.public";

/** A workspace a person belongs to, with their role in it. */
export type Membership = { id: string; name: string; slug: string; role: Role };

/**
 * The workspaces' statements, prepared once per connection: the membership reads of every request
 * (GET /v1/me, the credential resolver, the realtime gateway), ticket numbers, settings read on
 * writes, the gateway's seqs, and the purge of a deleted workspace's rows. The role and SSO reads
 * answer synchronously on SQLite (`T | Promise<T>`, as the resolver's slots take them). The
 * PostgreSQL twin answers Promises, reads `settings` as jsonb (`(w.settings ->> 'sso_only')::boolean`),
 * finds the purged tables in `information_schema.columns`, and batches a purge by `ctid` where SQLite
 * batches by `rowid`.
 */
export interface WorkspaceStatements {
  /** The workspaces a person belongs to (live ones), oldest membership first. */
  memberships(userId: string): Membership[] | Promise<Membership[]>;
  /** A person's role in a workspace not deleted, or null when they are no member. */
  memberRole(workspaceId: string, userId: string): Role | null | Promise<Role | null>;
  /** Names of the live workspaces with `settings.sso_only` on where the person is a member but not the owner, by name. */
  ssoOnlyWorkspaces(userId: string): string[] | Promise<string[]>;
  /** Each workspace's last stored event seq (0 when none), only live workspaces when `live`. */
  storedSeqs(live: boolean): Promise<Array<{ id: string; event_seq: number }>>;
  /** The workspace's settings as stored (JSON text), or undefined when no such workspace. */
  settingsText(workspaceId: string): Promise<string | undefined>;
  /** Takes the workspace's next ticket number (its row holds the count until commit), undefined when no such workspace. */
  nextTicketNumber(workspaceId: string): Promise<number | undefined>;
  /** Every ordinary table with a `workspace_id` column (virtual and the engine's own tables left out). */
  tablesWithWorkspaceId(): Promise<string[]>;
  /** Deletes a workspace's rows of one table, `batch` rows per statement; answers how many went. */
  purgeTable(table: string, workspaceId: string, batch: number): Promise<number>;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

const MEMBERSHIPS = `SELECT w.id, w.name, w.slug, m.${m.role} FROM ${m.table} m JOIN workspaces w ON w.id = m.${m.workspaceId} AND w.deleted_at IS NULL WHERE m.${m.userId} = ? ORDER BY m.${m.createdAt}, w.id`;
const MEMBER_ROLE = `SELECT m.${m.role} FROM ${m.table} m JOIN workspaces w ON w.id = m.${m.workspaceId} AND w.deleted_at IS NULL WHERE m.${m.workspaceId} = ? AND m.${m.userId} = ?`;
const ssoOnlySql = (ssoOnly: string) =>
  `SELECT w.name FROM ${m.table} m JOIN workspaces w ON w.id = m.${m.workspaceId} AND w.deleted_at IS NULL WHERE m.${m.userId} = ? AND m.${m.role} != 'owner' AND ${ssoOnly} ORDER BY w.name`;
const SEQS = `SELECT w.id, coalesce(s.${S.lastSeq}, 0) AS event_seq FROM workspaces w LEFT JOIN ${S.table} s ON s.${S.workspaceId} = w.id`;
const NEXT_NUMBER =
  "UPDATE workspaces SET ticket_number_seq = ticket_number_seq + 1 WHERE id = +? RETURNING ticket_number_seq AS n";

export const workspaceStatements = dialectStatements<WorkspaceStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    // Memberships: members' rows (their own column names, `membersSql`) joined to this folder's workspaces.
    const memberships = sqlite.query<Membership, [string]>(MEMBERSHIPS);
    const memberRole = sqlite.query<{ role: Role }, [string, string]>(MEMBER_ROLE);
    const ssoOnly = sqlite.query<{ name: string }, [string]>(ssoOnlySql("json_extract(w.settings, '$.sso_only') = 1"));
    const allSeqs = sqlite.query<{ id: string; event_seq: number }, []>(SEQS);
    const liveSeqs = sqlite.query<{ id: string; event_seq: number }, []>(`${SEQS} WHERE w.deleted_at IS NULL`);
    const settings = sqlite.query<{ settings: string }, [string]>("SELECT settings FROM workspaces WHERE id = +?");
    const nextNumber = sqlite.query<{ n: number }, [string]>(NEXT_NUMBER);
    const withoutRowid = (table: string): boolean =>
      /\bWITHOUT\s+ROWID\s*;?\s*$/i.test(
        sqlite
          .query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
          .get(table)?.sql ?? "",
      );
    return {
      memberships: (userId) => memberships.all(userId),
      memberRole: (workspaceId, userId) => memberRole.get(workspaceId, userId)?.role ?? null,
      ssoOnlyWorkspaces: (userId) => ssoOnly.all(userId).map((r) => r.name),
      storedSeqs: async (live) => (live ? liveSeqs : allSeqs).all(),
      settingsText: async (workspaceId) => settings.get(workspaceId)?.settings,
      nextTicketNumber: async (workspaceId) => nextNumber.get(workspaceId)?.n,
      tablesWithWorkspaceId: async () =>
        sqlite
          .query<{ name: string; sql: string | null }, []>(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
          )
          .all()
          .filter((t) => !/^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? ""))
          .filter((t) =>
            sqlite
              .query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${t.name.replaceAll("'", "''")}')`)
              .all()
              .some((c) => c.name === "workspace_id"),
          )
          .map((t) => t.name),
      purgeTable: async (table, workspaceId, batch) => {
        if (withoutRowid(table)) {
          // Small keyed tables (per-workspace counters): no rowid to batch by, and no need to.
          return sqlite.query<unknown, [string]>(`DELETE FROM ${quoted(table)} WHERE workspace_id = ?`).run(workspaceId)
            .changes;
        }
        const statement = sqlite.query<unknown, [string, number]>(
          `DELETE FROM ${quoted(table)} WHERE rowid IN (SELECT rowid FROM ${quoted(table)} WHERE workspace_id = ? LIMIT ?)`,
        );
        let removed = 0;
        for (;;) {
          const { changes } = statement.run(workspaceId, batch);
          removed += changes;
          if (changes < batch) return removed;
        }
      },
    };
  },
  postgres: (db: Queryable) => {
    const memberships = postgresQuery<Membership, [string]>(db, MEMBERSHIPS);
    const memberRole = postgresQuery<{ role: Role }, [string, string]>(db, MEMBER_ROLE);
    const ssoOnly = postgresQuery<{ name: string }, [string]>(
      db,
      ssoOnlySql("(w.settings -> 'sso_only') = 'true'::jsonb"),
    );
    const allSeqs = postgresQuery<{ id: string; event_seq: number }, []>(
      db,
      SEQS.replace("AS event_seq", "::int8::float8 AS event_seq"),
    );
    const liveSeqs = postgresQuery<{ id: string; event_seq: number }, []>(
      db,
      `${SEQS.replace("AS event_seq", "::int8::float8 AS event_seq")} WHERE w.deleted_at IS NULL`,
    );
    const settings = postgresQuery<{ settings: string }, [string]>(
      db,
      "SELECT settings::text AS settings FROM workspaces WHERE id = ?",
    );
    const nextNumber = postgresQuery<{ n: number }, [string]>(db, NEXT_NUMBER);
    const tables = postgresQuery<{ name: string }, []>(
      db,
      `SELECT c.table_name AS name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = current_schema() AND c.column_name = 'workspace_id' ORDER BY c.table_name`,
    );
    return {
      memberships: (userId) => memberships.all(userId),
      memberRole: async (workspaceId, userId) => (await memberRole.get(workspaceId, userId))?.role ?? null,
      ssoOnlyWorkspaces: async (userId) => (await ssoOnly.all(userId)).map((r) => r.name),
      storedSeqs: (live) => (live ? liveSeqs : allSeqs).all(),
      settingsText: async (workspaceId) => (await settings.get(workspaceId))?.settings,
      nextTicketNumber: async (workspaceId) => (await nextNumber.get(workspaceId))?.n,
      tablesWithWorkspaceId: async () => (await tables.all()).map((t) => t.name),
      purgeTable: async (table, workspaceId, batch) => {
        // No rowid on PostgreSQL: a batch is chosen by the rows' physical address (ctid).
        const statement = postgresQuery<{ n: number }, [string, number]>(
          db,
          `WITH gone AS (DELETE FROM ${quoted(table)} WHERE ctid IN (SELECT ctid FROM ${quoted(table)} WHERE workspace_id = ? LIMIT ?) RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
        );
        let removed = 0;
        for (;;) {
          const changes = (await statement.get(workspaceId, batch))?.n ?? 0;
          removed += changes;
          if (changes < batch) return removed;
        }
      },
    };
  },
});
