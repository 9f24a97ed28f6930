import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { first } from "../db/store";
import { assistantSessions } from "./assistant.table";

/**
 * The assistant's reads whose SQL differs by engine. `transcript` is JSON text on SQLite
 * (`json_array_length`) and jsonb on PostgreSQL (`jsonb_array_length`).
 */
export interface AssistantStatements {
  /** Whether someone in the workspace has sent the assistant a message (a session with a turn). */
  tried(workspaceId: string): Promise<boolean>;
}

const triedWith =
  (db: Queryable, arrayLength: string) =>
  async (workspaceId: string): Promise<boolean> =>
    !!first(
      await db
        .select({ id: assistantSessions.id })
        .from(assistantSessions)
        .where(
          and(
            eq(assistantSessions.workspaceId, workspaceId),
            sql`${sql.raw(arrayLength)}(${assistantSessions.transcript}) > 0`,
          ),
        )
        .limit(1),
    );

export const assistantStatements = dialectStatements<AssistantStatements>({
  sqlite: (db) => ({ tried: triedWith(db, "json_array_length") }),
  postgres: (db) => ({ tried: triedWith(db, "jsonb_array_length") }),
});
