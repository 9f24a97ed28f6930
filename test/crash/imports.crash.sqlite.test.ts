import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../peers/dovecot";
import { startFakeZendesk } from "../peers/fake-zendesk";

/**
 * An import survives a SIGKILL: Desk runs as a real process (from source: the import is newer than
 * any built executable), is killed in the middle of the ticket pages, started again, and the import
 * goes on from its last committed page to the end with every ticket and message once. Then the
 * `desk import` command re-runs it (nothing changed: nothing written) and imports a CSV.
 */

type Job = { status: string; progress: { phase: string }; counts: Record<string, number> };
const ROOT = join(import.meta.dir, "..", "..");
const work = mkdtempSync(join(tmpdir(), "desk-import-crash-"));
const TICKETS = 300;
const COMMENTS = 3;
const zd = startFakeZendesk({ generated: { tickets: TICKETS, commentsPerTicket: COMMENTS } });
zd.users.push(
  {
    id: 1,
    name: "Agent",
    email: "agent@vendor.test",
    role: "agent",
    organization_id: null,
    phone: null,
    updated_at: "2020-01-01T00:00:00Z",
  },
  ...Array.from({ length: 50 }, (_, i) => ({
    id: 1000 + i,
    name: `Customer ${i}`,
    email: `customer${i}@example.test`,
    role: "end-user" as const,
    organization_id: null,
    phone: null,
    updated_at: "2020-01-01T00:00:00Z",
  })),
);
// Slow enough that the kill lands in the middle of the ticket pages.
zd.delayMs = 4;
let child: ReturnType<typeof Bun.spawn> | null = null;
afterAll(() => {
  child?.kill("SIGKILL");
  zd.stop();
  rmSync(work, { recursive: true, force: true });
});

function envFor(port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? work,
    DESK_DATA_DIR: join(work, "data"),
    DESK_HOST: "127.0.0.1",
    DESK_PORT: String(port),
    DESK_SMTP_PORT: "0",
    DESK_SECRET: "import-crash-test-secret-that-is-long-enough",
    DESK_JOBS: "on",
    DESK_LOG_LEVEL: "error",
    DESK_BACKUP_INTERVAL: "off",
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  };
}

async function start(port: number): Promise<void> {
  child = Bun.spawn(["bun", join(ROOT, "src", "main.ts"), "serve"], {
    cwd: work,
    env: envFor(port),
    stdout: "ignore",
    stderr: "inherit",
  });
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await Bun.sleep(50);
  }
  throw new Error("desk did not start");
}

test("a SIGKILL in the middle of an import: it resumes from its last page with nothing lost or duplicated; desk import re-runs it", async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await start(port);
  const json = { "content-type": "application/json" };
  const session = (await (
    await fetch(`${base}/v1/auth/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "owner@import.test", password: "correct horse battery", name: "Owner" }),
    })
  ).json()) as { access_token: string };
  const user = { ...json, authorization: `Bearer ${session.access_token}` };
  const workspace = (await (
    await fetch(`${base}/v1/workspaces`, { method: "POST", headers: user, body: JSON.stringify({ name: "Imported" }) })
  ).json()) as { id: string; slug: string };
  const headers = { ...user, "DESK-Workspace": workspace.id };
  const options = {
    subdomain: "acme",
    email: zd.email,
    api_token: zd.token,
    base_url: zd.url,
    requests_per_minute: 100_000,
    export_requests_per_minute: 100_000,
  };
  const started = await fetch(`${base}/v1/imports`, {
    method: "POST",
    headers,
    body: JSON.stringify({ source: "zendesk", options }),
  });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  const read = async () => (await (await fetch(`${base}/v1/imports/${id}`, { headers })).json()) as Job;

  // Killed once tickets of the page (1000 a page: the only one) are stored but its cursor is not yet committed.
  const written = async () => {
    const counts = (await (await fetch(`${base}/v1/tickets/counts`, { headers })).json()) as Record<string, number>;
    return (counts.open ?? 0) + (counts.solved ?? 0);
  };
  let before = {} as Job;
  let stored = 0;
  for (let i = 0; i < 2000; i++) {
    before = await read();
    if (before.progress.phase === "tickets") {
      stored = await written();
      if (stored > before.counts.tickets + 5) break;
    }
    await Bun.sleep(5);
  }
  expect(before.status).toBe("running");
  expect(stored).toBeGreaterThan(before.counts.tickets);
  child!.kill("SIGKILL");
  await child!.exited;

  await start(port);
  let after = {} as Job;
  for (let i = 0; i < 600; i++) {
    after = await read();
    if (after.status !== "running" && after.status !== "queued") break;
    await Bun.sleep(100);
  }
  expect(after.status).toBe("succeeded");
  expect(after.counts.failed).toBe(0);
  child!.kill("SIGTERM");
  await child!.exited;
  child = null;

  const db = new Database(join(work, "data", "desk.db"), { readonly: true });
  const one = async (sql: string) => (db.query(sql).get() as { n: number }).n;
  expect(await one("SELECT count(*) AS n FROM tickets")).toBe(TICKETS);
  expect(await one("SELECT count(*) AS n FROM messages")).toBe(TICKETS * COMMENTS);
  expect(await one("SELECT count(*) AS n FROM tickets WHERE message_count != 3")).toBe(0);
  expect(await one("SELECT count(*) AS n FROM import_mappings WHERE kind = 'message'")).toBe(TICKETS * COMMENTS);
  expect(await one("SELECT count(DISTINCT subject) AS n FROM tickets")).toBe(TICKETS);
  db.close();

  // desk import beside no server: a re-run finds nothing changed and says so; exit 0.
  const cli = Bun.spawn(
    [
      "bun",
      join(ROOT, "src", "main.ts"),
      "import",
      "zendesk",
      "--workspace",
      workspace.slug,
      "--subdomain",
      "acme",
      "--email",
      zd.email,
      "--api-token",
      zd.token,
      "--base-url",
      zd.url,
      "--requests-per-minute",
      "100000",
      "--export-requests-per-minute",
      "100000",
    ],
    { cwd: work, env: envFor(port), stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([
    new Response(cli.stdout).text(),
    new Response(cli.stderr).text(),
    cli.exited,
  ]);
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(out).toContain(": succeeded");
  expect(out).toContain("tickets 0, messages 0");

  const file = join(work, "people.csv");
  writeFileSync(file, '\uFEFFemail,name,company\r\nana@example.test,"Ana, from ""Sales""",Initech\r\n');
  const csv = Bun.spawn(
    [
      "bun",
      join(ROOT, "src", "main.ts"),
      "import",
      "csv",
      "--workspace",
      workspace.id,
      "--kind",
      "contacts",
      "--file",
      file,
    ],
    { cwd: work, env: envFor(port), stdout: "pipe", stderr: "pipe" },
  );
  const [csvOut, , csvCode] = await Promise.all([
    new Response(csv.stdout).text(),
    new Response(csv.stderr).text(),
    csv.exited,
  ]);
  expect(csvOut).toContain("contacts 1, companies 1");
  expect(csvCode).toBe(0);
  const bad = Bun.spawn(
    ["bun", join(ROOT, "src", "main.ts"), "import", "zendesk", "--workspace", workspace.id, "--subdomain", "x y"],
    {
      cwd: work,
      env: envFor(port),
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [, badErr, badCode] = await Promise.all([
    new Response(bad.stdout).text(),
    new Response(bad.stderr).text(),
    bad.exited,
  ]);
  expect(badCode).toBe(2);
  expect(badErr).toContain("--subdomain");
}, 120_000);
