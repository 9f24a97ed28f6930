import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, storeEnvOf, type TestDesk } from "../../test/harness";
import { emptyPostgresDatabase, onPostgres } from "../../test/kit/postgres";

// On PostgreSQL the archive holds a pg_dump of the desk's database (desk.pgdump) beside the data dir's
// files, and a restore loads it into an empty database (SQLite's file archives: backups.sqlite.test.ts).
const MAIN = join(import.meta.dir, "..", "main.ts");
const work = mkdtempSync(join(tmpdir(), "desk-backup-pg-"));
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(work, { recursive: true, force: true });
});

async function deskCli(args: string[], env: Record<string, string>) {
  const run = Bun.spawn(["bun", MAIN, ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DESK_LOG_LEVEL: "silent", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  return { code, out, err };
}

describe.skipIf(!onPostgres)("backups on PostgreSQL", () => {
  let desk: TestDesk;
  test("desk backup dumps the database beside the files; --verify reads the dump; restore loads it into an empty database", async () => {
    desk = await startTestDesk();
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "before the backup", contact: { email: "backup@example.com" } },
    });
    expect(created.status).toBe(201);
    const form = new FormData();
    form.append("file", new File(["quarterly numbers"], "report.txt", { type: "text/plain" }));
    const upload = await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: form });
    expect(upload.status).toBe(201);

    const archive = join(work, "desk-backup.tar.gz");
    const backup = await deskCli(["backup", archive], storeEnvOf(desk));
    expect(backup.err).toBe("");
    expect(backup.code).toBe(0);
    const verify = await deskCli(["backup", "--verify", archive], {});
    expect(verify.err).toBe("");
    expect(verify.out).toContain("database integrity ok");

    const empty = await emptyPostgresDatabase();
    drops.push(empty.drop);
    const target = join(work, "restored");
    const restoreEnv = { DESK_DATABASE_URL: empty.url };
    const restore = await deskCli(["restore", archive, "--data-dir", target], restoreEnv);
    expect(restore.err).toBe("");
    expect(restore.code).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o700);
    expect(existsSync(join(target, "desk.pgdump"))).toBe(false);

    const restored = await startTestDesk({
      config: { dataDir: target },
      env: { DESK_DATABASE_URL: empty.url },
    });
    const ticket = await restored.api("GET", `/v1/tickets/${created.body.id}`, { headers: owner.headers });
    expect(ticket.status).toBe(200);
    expect(ticket.body.subject).toBe("before the backup");
    const url = new URL(upload.body.url, "http://localhost");
    const content = await restored.api("GET", `${url.pathname}${url.search}`);
    expect(content.status).toBe(200);
    expect(content.text).toBe("quarterly numbers");
    await restored.stop();

    // The database now holds the desk: a second restore into it is refused, and nothing is written.
    const again = join(work, "again");
    const refused = await deskCli(["restore", archive, "--data-dir", again], restoreEnv);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("is not empty");
    expect(existsSync(again)).toBe(false);

    // Each engine restores only its own archives.
    const onSqlite = await deskCli(["restore", archive, "--data-dir", join(work, "sqlite")], {});
    expect(onSqlite.code).toBe(1);
    expect(onSqlite.err).toContain("was taken on PostgreSQL");
    expect(readFileSync(archive).byteLength).toBeGreaterThan(0);
  }, 60_000);
});
