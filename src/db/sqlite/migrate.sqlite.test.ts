import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../../migrations/index";
import { startTestDesk } from "../../../test/harness";
import { manualClock } from "../../lib/clock";
import { appliedMigrationTags, KEPT_SNAPSHOTS, migrate, NewerDatabaseError } from "./migrate";

const scratch = () => mkdtempSync(join(tmpdir(), "desk-migrate-test-"));
const sha = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

/** A data dir whose database an earlier release left: every migration but the last, and some data. */
function olderDataDir(): string {
  const dir = scratch();
  const db = new Database(join(dir, "desk.db"), { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  migrate(db, migrations.slice(0, -1));
  db.run(
    "INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('u1', 'kept@example.test', 'Kept', '2026-01-01', '2026-01-01')",
  );
  db.close();
  return dir;
}

test("starting on a database with pending migrations snapshots it first, then migrates", async () => {
  const dir = olderDataDir();
  const desk = await startTestDesk({ config: { dataDir: dir, databasePath: join(dir, "desk.db") } });
  expect(appliedMigrationTags(desk.deps.db.$client)).toContain(migrations.at(-1)!.tag);
  const snapshots = readdirSync(join(dir, "snapshots"));
  expect(snapshots).toHaveLength(1);
  expect(snapshots[0]).toMatch(/^pre-migrate-\d{4}-\d\d-\d\dT[\d-]+Z\.db$/);
  const snapshot = new Database(join(dir, "snapshots", snapshots[0]!), { readonly: true });
  expect(appliedMigrationTags(snapshot)).toEqual(
    migrations
      .slice(0, -1)
      .map((m) => m.tag)
      .sort(),
  );
  expect(snapshot.query("SELECT email FROM users WHERE id = 'u1'").get()).toEqual({ email: "kept@example.test" });
  snapshot.close();
});

test("no snapshot for a new database or one already up to date", () => {
  const dir = scratch();
  const db = new Database(join(dir, "desk.db"), { create: true, strict: true });
  migrate(db, migrations, { snapshotDir: join(dir, "snapshots") });
  migrate(db, migrations, { snapshotDir: join(dir, "snapshots") });
  db.close();
  expect(readdirSync(dir)).not.toContain("snapshots");
});

test(`only the last ${KEPT_SNAPSHOTS} pre-migration snapshots are kept`, () => {
  const dir = scratch();
  const clock = manualClock();
  const db = new Database(join(dir, "desk.db"), { create: true, strict: true });
  const steps = [0, 1, 2, 3, 4].map((n) => ({ tag: `step_${n}`, sql: `CREATE TABLE t${n} (x INTEGER)` }));
  migrate(db, steps.slice(0, 1), { snapshotDir: join(dir, "snapshots"), clock });
  for (let n = 2; n <= steps.length; n++) {
    clock.advance(60_000);
    migrate(db, steps.slice(0, n), { snapshotDir: join(dir, "snapshots"), clock });
  }
  db.close();
  const kept = readdirSync(join(dir, "snapshots")).sort();
  // Four upgrades, a minute apart, after the first (new, so not snapshotted): the oldest is gone.
  expect(kept).toEqual([
    "pre-migrate-2026-01-01T00-02-00-000Z.db",
    "pre-migrate-2026-01-01T00-03-00-000Z.db",
    "pre-migrate-2026-01-01T00-04-00-000Z.db",
  ]);
});

test("a database holding a migration this binary does not know is refused before anything changes", () => {
  const dir = olderDataDir();
  const path = join(dir, "desk.db");
  const db = new Database(path, { strict: true });
  db.run("INSERT INTO __desk_migrations (tag, applied_at) VALUES ('9999_from_the_future', '2030-01-01')");
  const before = appliedMigrationTags(db);
  expect(() => migrate(db, migrations, { snapshotDir: join(dir, "snapshots") })).toThrow(NewerDatabaseError);
  expect(() => migrate(db, migrations)).toThrow(/9999_from_the_future.*newer release/);
  expect(appliedMigrationTags(db)).toEqual(before);
  db.close();
  expect(readdirSync(dir)).not.toContain("snapshots");
});

test("desk serve refuses to start on a newer database, with a clear message and the file untouched", async () => {
  const dir = olderDataDir();
  const path = join(dir, "desk.db");
  const db = new Database(path, { strict: true });
  db.run("INSERT INTO __desk_migrations (tag, applied_at) VALUES ('9999_from_the_future', '2030-01-01')");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  const before = sha(path);
  const run = Bun.spawn(["bun", join(import.meta.dir, "..", "..", "main.ts"), "serve"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      DESK_DATA_DIR: dir,
      DESK_PORT: "0",
      DESK_SMTP_PORT: "0",
      DESK_SECRET: "test-secret-that-is-long-enough-0123456789",
      DESK_LOG_LEVEL: "silent",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const code = await run.exited;
  const err = await new Response(run.stderr).text();
  expect(code).toBe(1);
  expect(err).toContain("refusing to start");
  expect(err).toContain("9999_from_the_future");
  expect(sha(path)).toBe(before);
  expect(readdirSync(dir)).not.toContain("snapshots");
});
