import type { SQL } from "bun";
import { systemClock, type Clock } from "../../lib/clock";
import type { PostgresDb } from "./connection";

/**
 * One step of the PostgreSQL lineage (migrations/postgres): its SQL and the tags of the SQLite
 * lineage (migrations/) it stands for. Both engines record the same tags, so a database's schema
 * version reads the same on either and `desk migrate-to` can compare them; a step may stand for
 * several tags (the baseline stands for every migration drizzle-kit generated before PostgreSQL came).
 */
export type PostgresMigration = { tag: string; covers: readonly string[]; sql: string };

/** Any fixed key: the lock only has to be the same for every node of a desk. */
const MIGRATION_LOCK = 0x6465736b; // "desk"

/** Raised, before anything is changed, when the database was migrated by a newer Desk than this one. */
export class NewerPostgresDatabaseError extends Error {
  constructor(readonly unknownTags: string[]) {
    super(
      `the database holds migrations this Desk does not know (${unknownTags.join(", ")}): it was written by a newer release; run that release or a newer one`,
    );
    this.name = "NewerPostgresDatabaseError";
  }
}

/**
 * Applies the steps not applied yet, all in one transaction under an advisory lock: N nodes
 * starting at once migrate once (the others wait for the lock, then find nothing to do), and a step
 * that fails leaves the schema as it was (PostgreSQL's DDL is transactional). Answers the tags applied.
 */
export async function migratePostgres(
  client: SQL,
  migrations: readonly PostgresMigration[],
  options: { clock?: Clock } = {},
): Promise<string[]> {
  const clock = options.clock ?? systemClock;
  return await client.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS __desk_migrations (tag text PRIMARY KEY, applied_at text NOT NULL)`;
    const rows: Array<{ tag: string }> = await tx`SELECT tag FROM __desk_migrations`;
    const applied = new Set(rows.map((r) => r.tag));
    const known = new Set(migrations.flatMap((m) => m.covers));
    const unknown = [...applied].filter((tag) => !known.has(tag)).sort();
    if (unknown.length > 0) throw new NewerPostgresDatabaseError(unknown);
    const done: string[] = [];
    for (const migration of migrations) {
      const pending = migration.covers.filter((tag) => !applied.has(tag));
      if (pending.length === 0) continue;
      for (const statement of statementsOf(migration.sql)) await tx.unsafe(statement);
      const at = clock.now().toISOString();
      for (const tag of pending) await tx`INSERT INTO __desk_migrations (tag, applied_at) VALUES (${tag}, ${at})`;
      done.push(...pending);
    }
    return done;
  });
}

/** migratePostgres on the desk's database (its pool's client). */
export const migratePostgresDb = <R>(
  db: PostgresDb<R>,
  migrations: readonly PostgresMigration[],
  options: { clock?: Clock } = {},
): Promise<string[]> => migratePostgres(db.$client, migrations, options);

/** drizzle-kit separates statements with breakpoints; a hand-written part may hold several (and PL/pgSQL bodies). */
const statementsOf = (sql: string): string[] =>
  sql
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);
