import { SQL } from "bun";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { onPostgres } from "../../test/kit/postgres";
import { SourceRunningError } from "./migrate-to.sql";
import {
  MigrateToError,
  type MigrateToReport,
  migratePostgresToSqlite,
  migrateSqliteToPostgres,
} from "./migrate-to.service";

// `desk migrate-to` reads a SQLite desk (this test process runs on SQLite) and writes a PostgreSQL
// database, so these tests need a PostgreSQL server besides: DESK_TEST_POSTGRES_URL names one
// (`postgres://user@host:port/postgres`, a user that may create databases). Without it they skip.
const SERVER = process.env.DESK_TEST_POSTGRES_URL;

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

describe.skipIf(!SERVER || onPostgres)("desk migrate-to postgres://…", () => {
  const server = new SQL(SERVER ?? "postgres://unused", { max: 1 });
  const databases: string[] = [];
  const emptyDatabase = async () => {
    const name = `desk_migrate_to_${randomUUID().replaceAll("-", "")}`;
    await server.unsafe(`CREATE DATABASE "${name}"`);
    databases.push(name);
    return withDatabase(SERVER ?? "", name);
  };
  let desk: TestDesk;
  let owner: Member;
  let workspaceId: string;
  let target: string;
  let report: MigrateToReport;
  const tickets: Array<{ id: string; number: number }> = [];
  const gets: string[] = [];
  const sourceAnswers: Record<string, string> = {};

  beforeAll(async () => {
    desk = await startTestDesk({ keepAlive: true });
    const made = await createWorkspaceWithOwner(desk);
    owner = made.owner;
    workspaceId = made.workspace.id;
    for (let i = 0; i < 12; i++) {
      const created = await desk.api("POST", "/v1/tickets", {
        headers: owner.headers,
        body: { subject: `Order ${i} is late`, contact: { email: `customer${i % 4}@example.test` }, tags: ["vip"] },
      });
      expect(created.status).toBe(201);
      tickets.push({ id: created.body.id, number: created.body.number });
      const reply = await desk.api("POST", `/v1/tickets/${created.body.id}/messages`, {
        headers: owner.headers,
        body: { kind: "reply", body_html: `<p>On its way, ${i}</p>`, ...(i % 3 === 0 ? { status: "solved" } : {}) },
      });
      expect(reply.status).toBe(201);
    }
    const first = tickets[0]?.id ?? "";
    gets.push(
      `/v1/tickets/${first}`,
      `/v1/tickets/${first}/messages`,
      "/v1/tickets?limit=5",
      "/v1/contacts",
      "/v1/tags",
      "/v1/search?q=late",
    );
    for (const path of gets) sourceAnswers[path] = (await desk.api("GET", path, { headers: owner.headers })).text;
  }, 60_000);

  afterAll(async () => {
    await desk?.stop().catch(() => {});
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    for (const name of databases) await server.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await server.close();
  });

  const databasePath = () => join(desk.dataDir, "desk.db");
  // A desk stopped inside this process keeps its file open (its connection outlives stop()), so each
  // migration below reads a data dir of its own holding the stopped desk's files, as a desk that
  // exited leaves them.
  const dirs: string[] = [];
  const stoppedDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "desk-migrate-to-"));
    dirs.push(dir);
    for (const file of ["desk.db", "desk.db-wal"])
      if (existsSync(join(desk.dataDir, file))) copyFileSync(join(desk.dataDir, file), join(dir, file));
    return dir;
  };
  let stopped: string;

  test("refuses a running source, and writes nothing to the target", async () => {
    const url = await emptyDatabase();
    await expect(migrateSqliteToPostgres({ databasePath: databasePath(), targetUrl: url })).rejects.toBeInstanceOf(
      SourceRunningError,
    );
    const client = new SQL(url, { max: 1 });
    const tables = await client.unsafe(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    await client.close();
    expect(tables[0].n).toBe(0);
  }, 60_000);

  test("copies a stopped desk and verifies it; the SQLite file's content is never modified", async () => {
    await desk.stop();
    stopped = stoppedDataDir();
    const file = join(stopped, "desk.db");
    target = await emptyDatabase();
    const lines: string[] = [];
    report = await migrateSqliteToPostgres({ databasePath: file, targetUrl: target, log: (l) => lines.push(l) });
    // Closing the file folds what its WAL held into it (as a desk's own stop does); from then on a
    // copy leaves the file byte for byte as it was, and copies the same rows again.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const bytes = Bun.hash(readFileSync(file)).toString();
    const again = await migrateSqliteToPostgres({ databasePath: file, targetUrl: await emptyDatabase() });
    expect(Bun.hash(readFileSync(file)).toString()).toBe(bytes);
    expect(again.copied).toEqual(report.copied);
    const rowsOf = (table: string) => report.copied.find((t) => t.table === table)?.rows;
    expect(rowsOf("tickets")).toBe(12);
    expect(rowsOf("messages")).toBeGreaterThanOrEqual(12);
    expect(rowsOf("contacts")).toBe(4);
    expect(rowsOf("record_tags")).toBe(12);
    expect(rowsOf("events")).toBeGreaterThan(24);
    expect(report.rebuilt.find((t) => t.table === "ticket_search")?.rows).toBe(12);
    expect(report.rebuilt.find((t) => t.table === "ticket_counts")?.rows).toBeGreaterThan(0);
    expect(report.workspaces).toBe(1);
    expect(lines).toContain("copied tickets: 12 rows");
  }, 60_000);

  test("a desk started on the target answers as the source did, and numbers and seqs continue", async () => {
    const client = new SQL(target, { max: 1 });
    const before = await client.unsafe(
      "SELECT max(seq)::int AS high, count(*)::int AS n FROM events WHERE workspace_id = $1",
      [workspaceId],
    );
    await client.close();
    const child = Bun.spawn(["bun", join(import.meta.dir, "migrate-to.target-fixture.ts")], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        DESK_DATA_DIR: stopped,
        DESK_DATABASE_URL: target,
        DESK_SECRET: desk.deps.config.secret,
        DESK_INBOUND_SECRET: desk.deps.config.inboundSecret,
        MIGRATE_TO_FIXTURE: JSON.stringify({
          headers: owner.headers,
          gets,
          create: { subject: "After the move", contact: { email: "new@example.test" } },
        }),
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect({ code, err }).toEqual({ code: 0, err: "" });
    const result = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
      answers: Record<string, { status: number; text: string }>;
      created: { status: number; text: string };
    };
    for (const path of gets) {
      expect(result.answers[path]?.status).toBe(200);
      expect(result.answers[path]?.text).toBe(sourceAnswers[path] ?? "");
    }
    expect(result.created.status).toBe(201);
    const last = Math.max(...tickets.map((t) => t.number));
    expect(JSON.parse(result.created.text).number).toBe(last + 1);
    const after = new SQL(target, { max: 1 });
    const seqs = await after.unsafe(
      "SELECT min(seq)::int AS low, max(seq)::int AS high, count(*)::int AS n FROM events WHERE workspace_id = $1",
      [workspaceId],
    );
    await after.close();
    expect(seqs[0].high).toBeGreaterThan(before[0].high);
    expect(seqs[0].high - seqs[0].low + 1).toBe(seqs[0].n);
    expect(seqs[0].n).toBeGreaterThan(before[0].n);
  }, 60_000);

  test("refuses a target that is not empty", async () => {
    const file = join(stoppedDataDir(), "desk.db");
    const refused = migrateSqliteToPostgres({ databasePath: file, targetUrl: target });
    await expect(refused).rejects.toBeInstanceOf(MigrateToError);
    await expect(refused).rejects.toThrow(/not empty/);
  }, 60_000);

  test("the command prints the verification and the cut-over steps, and refuses a target in use", async () => {
    const url = await emptyDatabase();
    const dataDir = stoppedDataDir();
    const run = async (targetUrl: string) => {
      const child = Bun.spawn(["bun", join(import.meta.dir, "..", "main.ts"), "migrate-to", targetUrl], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DESK_DATA_DIR: dataDir },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      return { out, err, code };
    };
    const holder = new SQL(url, { max: 1 });
    await holder.unsafe("SELECT 1");
    const refused = await run(url);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("other connection");
    await holder.close();
    const done = await run(url);
    expect(done.err).toBe("");
    expect(done.code).toBe(0);
    expect(done.out).toContain("row counts and checksums equal");
    expect(done.out).toContain("event seqs contiguous");
    expect(done.out).toContain("Cut-over:");
    expect(done.out).toContain(`DESK_DATA_DIR=${dataDir}`);
  }, 60_000);

  test("the way back: the PostgreSQL database copied into a new SQLite file serves the same answers", async () => {
    const holder = new SQL(target, { max: 1 });
    await holder.unsafe("SELECT 1");
    const dir = mkdtempSync(join(tmpdir(), "desk-migrate-back-"));
    dirs.push(dir);
    await expect(migratePostgresToSqlite({ sourceUrl: target, databasePath: join(dir, "desk.db") })).rejects.toThrow(
      /other connection/,
    );
    await holder.close();
    const back = await migratePostgresToSqlite({ sourceUrl: target, databasePath: join(dir, "desk.db") });
    expect(back.copied.find((t) => t.table === "tickets")?.rows).toBe(13);
    expect(back.rebuilt.find((t) => t.table === "ticket_search")?.rows).toBe(13);
    expect(back.workspaces).toBe(1);
    const restored = await startTestDesk({ config: { dataDir: dir, databasePath: join(dir, "desk.db") } });
    const first = tickets[0]?.id ?? "";
    for (const path of [`/v1/tickets/${first}`, `/v1/tickets/${first}/messages`, "/v1/tags"])
      expect((await restored.api("GET", path, { headers: owner.headers })).text).toBe(sourceAnswers[path] ?? "");
    // The full-text indexes were rebuilt: the same hits as on the source.
    const found = await restored.api("GET", "/v1/search?q=late", { headers: owner.headers });
    expect(found.text).toBe(sourceAnswers["/v1/search?q=late"] ?? "");
    const created = await restored.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Back home", contact: { email: "back@example.test" } },
    });
    expect(created.status).toBe(201);
    expect(created.body.number).toBe(Math.max(...tickets.map((t) => t.number)) + 2);
  }, 60_000);

  test("the way back refuses a dir that is not empty and wrong usage", async () => {
    const run = async (args: string[]) => {
      const child = Bun.spawn(["bun", join(import.meta.dir, "..", "main.ts"), "migrate-to", ...args], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [err, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
      return { err, code };
    };
    const full = stoppedDataDir();
    const refused = await run([`sqlite://${full}`, "--from", target]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("is not empty");
    expect((await run([`sqlite://${full}`])).code).toBe(2);
    expect((await run(["mysql://x"])).code).toBe(2);
  }, 60_000);
});
