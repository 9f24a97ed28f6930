import type { Database } from "bun:sqlite";
import { systemClock } from "../lib/clock";

export type Migration = { tag: string; sql: string };

/**
 * Applies the embedded drizzle-kit migrations in order, each in its own transaction.
 * Applied tags are kept in `__desk_migrations`; a migration is never applied twice.
 */
export function migrate(sqlite: Database, migrations: Migration[]): string[] {
  sqlite.exec("CREATE TABLE IF NOT EXISTS __desk_migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const applied = new Set(
    sqlite
      .query<{ tag: string }, []>("SELECT tag FROM __desk_migrations")
      .all()
      .map((r) => r.tag),
  );
  const done: string[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.tag)) continue;
    const statements = migration.sql
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    sqlite.transaction(() => {
      for (const statement of statements) sqlite.exec(statement);
      sqlite
        .query("INSERT INTO __desk_migrations (tag, applied_at) VALUES (?, ?)")
        .run(migration.tag, systemClock.now().toISOString());
    })();
    done.push(migration.tag);
  }
  return done;
}
