import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { backupDue } from "../backups/backups.runs";
import { manualClock } from "../lib/clock";
import { recordMailboxHealth } from "../mailboxes/mailboxes.public";

const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const backupDir = join(mkdtempSync(join(tmpdir(), "desk-system-backups-")), "archives");
const desk = await startTestDesk({
  clock,
  env: { DESK_BACKUP_KEEP: "2", DESK_BACKUP_DIR: backupDir, DESK_BACKUP_INTERVAL: "1d" },
});
// The first person to register is the operator.
const operatorSide = await createWorkspaceWithOwner(desk);
const tenant = await createWorkspaceWithOwner(desk);

async function mailbox(headers: Record<string, string>, email: string) {
  const res = await desk.api("POST", "/v1/mailboxes", { headers, body: { name: email, email } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("GET /v1/system", () => {
  test("no credential 401; agents, viewers and keys without settings:read 403", async () => {
    expect((await desk.api("GET", "/v1/system")).status).toBe(401);
    const agent = await addMember(desk, tenant.workspace.id, "agent");
    const viewer = await addMember(desk, tenant.workspace.id, "viewer");
    expect((await desk.api("GET", "/v1/system", { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("GET", "/v1/system", { headers: viewer.headers })).status).toBe(403);
    const key = await createKey(desk, tenant.owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/system", { headers: key.headers })).status).toBe(403);
  });

  test("a workspace admin sees its own mailboxes and errors, never the instance or another workspace's mailboxes", async () => {
    const own = await mailbox(tenant.owner.headers, "help@tenant.test");
    await mailbox(operatorSide.owner.headers, "help@operator.test");
    await recordMailboxHealth(desk.deps.db, own, { ok: false, error: "SMTP: 535 authentication failed" }, false, clock);
    const res = await desk.api("GET", "/v1/system", { headers: tenant.owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.operator).toBe(false);
    expect(res.body.instance).toBeNull();
    expect(res.body.mailboxes.map((m: { email: string }) => m.email)).toEqual(["help@tenant.test"]);
    expect(res.body.mailboxes[0]).toMatchObject({ status: "error", last_error: "SMTP: 535 authentication failed" });
    expect(res.body.recent_errors).toContainEqual(
      expect.objectContaining({ source: "mailbox", kind: "help@tenant.test" }),
    );
    const key = await createKey(desk, tenant.owner, ["settings:read"]);
    const viaKey = await desk.api("GET", "/v1/system", { headers: key.headers });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.instance).toBeNull();
  });

  test("the operator sees the instance: uptime, database, job queue and the backup schedule", async () => {
    clock.advance(90_000);
    const res = await desk.api("GET", "/v1/system", { headers: operatorSide.owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.operator).toBe(true);
    expect(res.body.mailboxes.map((m: { email: string }) => m.email)).toEqual(["help@operator.test"]);
    const instance = res.body.instance;
    expect(instance.uptime_seconds).toBeGreaterThanOrEqual(90);
    expect(instance.database_bytes).toBeGreaterThan(0);
    expect(instance.free_disk_bytes).toBeGreaterThan(0);
    expect(instance.jobs).toMatchObject({ running: 0, failed_24h: 0 });
    // Each running consumer's lag, caught up after a drain.
    await desk.consumers.drain();
    const drained = (await desk.api("GET", "/v1/system", { headers: operatorSide.owner.headers })).body.instance;
    expect(drained.consumers).toContainEqual({ name: "sla.tracker", events_behind: 0, seconds_behind: 0 });
    expect(drained.consumers.length).toBeGreaterThan(5);
    expect(instance.backups).toMatchObject({ interval_seconds: 86_400, keep: 2, dir: backupDir });
    // Another admin of the operator's workspace sees the machine too.
    const colleague = await addMember(desk, operatorSide.workspace.id, "admin");
    const theirs = await desk.api("GET", "/v1/system", { headers: colleague.headers });
    expect(theirs.body.operator).toBe(true);
    expect(theirs.body.instance).not.toBeNull();
  });
});

describe("backups Desk takes itself", () => {
  test("only the operator may ask for one; it runs as its own process, is recorded, and retention keeps the newest", async () => {
    expect((await desk.api("POST", "/v1/system/backups", { headers: tenant.owner.headers })).status).toBe(403);
    const files: string[] = [];
    for (let i = 0; i < 3; i++) {
      const asked = await desk.api("POST", "/v1/system/backups", { headers: operatorSide.owner.headers });
      expect(asked.status).toBe(202);
      await desk.jobs.drain();
      clock.advance(60_000);
      const state = await desk.api("GET", "/v1/system", { headers: operatorSide.owner.headers });
      const newest = state.body.instance.backups.runs[0];
      expect(newest).toMatchObject({ trigger: "manual", status: "succeeded", error: null });
      expect(newest.size_bytes).toBeGreaterThan(0);
      expect(newest.file_count).toBeGreaterThan(0);
      files.push(newest.file);
    }
    // Keep 2: the first archive is gone and its run says when; the two newest are on disk.
    expect(files.map((f) => existsSync(f))).toEqual([false, true, true]);
    const runs = (await desk.api("GET", "/v1/system", { headers: operatorSide.owner.headers })).body.instance.backups
      .runs;
    expect(runs.map((r: { pruned_at: string | null }) => r.pruned_at !== null)).toEqual([false, false, true]);
    const verify = Bun.spawnSync(["bun", join(import.meta.dir, "..", "main.ts"), "backup", "--verify", files[2]!]);
    expect(verify.exitCode).toBe(0);
  }, 60_000);

  test("the schedule takes one when the newest good backup is an interval old (checked hourly, half an hour early)", async () => {
    const day = 86_400_000;
    expect(await backupDue(desk.deps.db, clock, null)).toBe(false);
    expect(await backupDue(desk.deps.db, clock, day)).toBe(false);
    clock.advance(day - 32 * 60_000); // the newest backup started a minute before the clock stood
    expect(await backupDue(desk.deps.db, clock, day)).toBe(false);
    clock.advance(2 * 60_000);
    expect(await backupDue(desk.deps.db, clock, day)).toBe(true);
  });

  test("a backup that cannot be written is recorded as failed with the reason", async () => {
    const broken = await startTestDesk({ clock, env: { DESK_BACKUP_DIR: "/proc/desk-cannot-write-here" } });
    const { owner } = await createWorkspaceWithOwner(broken);
    expect((await broken.api("POST", "/v1/system/backups", { headers: owner.headers })).status).toBe(202);
    await broken.jobs.drain();
    const run = (await broken.api("GET", "/v1/system", { headers: owner.headers })).body.instance.backups.runs[0];
    expect(run.status).toBe("failed");
    expect(run.error.length).toBeGreaterThan(0);
  }, 60_000);
});
