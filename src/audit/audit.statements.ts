import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";

/** One audit row to store; `dataJson` already JSON. */
export type AuditInsert = {
  id: string;
  workspaceId: string;
  actorType: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  dataJson: string;
  ip: string | null;
  createdAt: string;
};

/**
 * The audit log's write, prepared once per connection: drizzle would build this insert's SQL text on
 * every call. The SQL is portable; the PostgreSQL twin runs it with `$n` parameters (and `data` as jsonb).
 */
export interface AuditStatements {
  /** Stores one audit row in the caller's transaction. */
  insert(row: AuditInsert): Promise<void>;
}

type InsertParams = [
  string,
  string,
  string,
  string | null,
  string | null,
  string,
  string,
  string | null,
  string,
  string | null,
  string,
];

const insertParams = (row: AuditInsert): InsertParams => [
  row.id,
  row.workspaceId,
  row.actorType,
  row.actorUserId,
  row.actorApiKeyId,
  row.action,
  row.entityType,
  row.entityId,
  row.dataJson,
  row.ip,
  row.createdAt,
];

export const auditStatements = dialectStatements<AuditStatements>({
  sqlite: (db: Queryable) => {
    const insert = sqliteOf(db).query<unknown, InsertParams>(
      "INSERT INTO audit_logs (id, workspace_id, actor_type, actor_user_id, actor_api_key_id, action, entity_type, entity_id, data, ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    return {
      insert: async (row) => {
        insert.run(
          row.id,
          row.workspaceId,
          row.actorType,
          row.actorUserId,
          row.actorApiKeyId,
          row.action,
          row.entityType,
          row.entityId,
          row.dataJson,
          row.ip,
          row.createdAt,
        );
      },
    };
  },
  postgres: (db: Queryable) => {
    // `data` arrives as JSON text: `::text::jsonb` parses it (a bare jsonb parameter would store the
    // text as a JSON string).
    const insert = postgresQuery<unknown, InsertParams>(
      db,
      "INSERT INTO audit_logs (id, workspace_id, actor_type, actor_user_id, actor_api_key_id, action, entity_type, entity_id, data, ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::text::jsonb, ?, ?)",
    );
    return {
      insert: (row) => insert.run(...insertParams(row)),
    };
  },
});
