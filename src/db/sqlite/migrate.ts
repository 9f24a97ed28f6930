import type { Database } from "bun:sqlite";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { systemClock, type Clock } from "../../lib/clock";

export type Migration = { tag: string; sql: string };

/** Raised, before anything is changed, when the database was migrated by a newer Desk than this one. */
export class NewerDatabaseError extends Error {
  constructor(readonly unknownTags: string[]) {
    super(
      `the database holds migrations this Desk does not know (${unknownTags.join(", ")}): it was written by a newer release; run that release or a newer one, or restore a backup taken before the upgrade`,
    );
    this.name = "NewerDatabaseError";
  }
}

/** How many pre-migration snapshots are kept; older ones are deleted after a new one is taken. */
export const KEPT_SNAPSHOTS = 3;

/** Tags recorded as applied; none when the bookkeeping table does not exist yet (a new database). */
export function appliedMigrationTags(sqlite: Database): string[] {
  const table = sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__desk_migrations'")
    .get();
  if (!table) return [];
  return sqlite
    .query<{ tag: string }, []>("SELECT tag FROM __desk_migrations ORDER BY tag")
    .all()
    .map((r) => r.tag);
}

/** Applied tags this binary has no migration for: a newer release wrote the database. */
export function unknownMigrationTags(applied: readonly string[], migrations: readonly Migration[]): string[] {
  const known = new Set(migrations.map((m) => m.tag));
  return applied.filter((tag) => !known.has(tag));
}

/**
 * Applies the embedded drizzle-kit migrations in order, each in its own transaction.
 * Applied tags are kept in `__desk_migrations`; a migration is never applied twice.
 * A database holding tags this binary does not know is refused before anything is written: running
 * older code over a newer schema could lose data. With `snapshotDir`, a database that already held
 * migrations and has some to apply is first copied (`VACUUM INTO`) so an upgrade can be undone.
 */
export function migrate(
  sqlite: Database,
  migrations: Migration[],
  options: { snapshotDir?: string; clock?: Clock } = {},
): string[] {
  const clock = options.clock ?? systemClock;
  const appliedTags = appliedMigrationTags(sqlite);
  const unknown = unknownMigrationTags(appliedTags, migrations);
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  const applied = new Set(appliedTags);
  const pending = migrations.filter((m) => !applied.has(m.tag));
  if (pending.length > 0 && applied.size > 0 && options.snapshotDir)
    snapshotBeforeMigrating(sqlite, options.snapshotDir, clock);
  sqlite.exec("CREATE TABLE IF NOT EXISTS __desk_migrations (tag TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  const done: string[] = [];
  for (const migration of pending) {
    const statements = migration.sql
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    sqlite.transaction(() => {
      for (const statement of statements) sqlite.exec(statement);
      sqlite
        .query("INSERT INTO __desk_migrations (tag, applied_at) VALUES (?, ?)")
        .run(migration.tag, clock.now().toISOString());
    })();
    done.push(migration.tag);
  }
  return done;
}

/** `pre-migrate-<ISO time>.db`; the time's colons and dots become dashes so the name sorts and is portable. */
function snapshotBeforeMigrating(sqlite: Database, dir: string, clock: Clock): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = clock.now().toISOString().replace(/[:.]/g, "-");
  sqlite.query("VACUUM INTO ?").run(join(dir, `pre-migrate-${stamp}.db`));
  const snapshots = readdirSync(dir)
    .filter((name) => /^pre-migrate-.*\.db$/.test(name))
    .sort();
  for (const old of snapshots.slice(0, Math.max(0, snapshots.length - KEPT_SNAPSHOTS))) rmSync(join(dir, old));
}
