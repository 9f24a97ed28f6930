import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { manualClock } from "../lib/clock";
import { createWorkspaceWithOwner } from "../../test/factories";
import { recordMailboxHealth } from "../mailboxes/mailboxes.public";
import { READINESS_LIMITS } from "./readiness";
import { sql } from "drizzle-orm";
import { execute } from "../db/store";

// GET /readyz reports a stuck job queue or a database that refuses writes with 503; /healthz stays
// the cheap liveness answer whatever the state.
const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });

/** A job of a kind no runner claims, so it stays where the test puts it. */
async function insertJob(id: string, state: "queued" | "running", runAt: Date, leaseUntil: Date | null) {
  const at = clock.now().toISOString();
  await execute(
    desk.deps.db,
    sql`INSERT INTO jobs (id, kind, workspace_id, payload, state, run_at, attempts, max_attempts, lease_until, created_at, updated_at)
     VALUES (${id}, 'test.unclaimed', NULL, '{}', ${state}, ${runAt.toISOString()}, 0, 3, ${leaseUntil?.toISOString() ?? null}, ${at}, ${at})`,
  );
}

describe("GET /readyz", () => {
  test("a mailbox whose connection fails makes it 503, naming the mailbox and its error", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { name: "Support", email: "ready@acme.test" },
    });
    expect(created.status).toBe(201);
    expect((await desk.api("GET", "/readyz")).status).toBe(200);
    await recordMailboxHealth(
      desk.deps.db,
      created.body.id,
      { ok: false, error: "IMAP: authentication failed" },
      false,
      clock,
    );
    const res = await desk.api("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.body.checks.mailboxes).toEqual({
      ok: false,
      failing: 1,
      detail: "1 mailbox(es) failing: ready@acme.test: IMAP: authentication failed",
    });
    await execute(desk.deps.db, sql`DELETE FROM mailboxes WHERE id = ${created.body.id}`);
  });

  test("ready: 200 with every check", async () => {
    const res = await desk.api("GET", "/readyz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      checks: {
        database: { ok: true },
        jobs: { ok: true, oldest_due_seconds: 0, overdue_running: 0 },
        mailboxes: { ok: true, failing: 0 },
      },
    });
  });

  test("a due job waiting past the limit makes it 503; /healthz still answers 200", async () => {
    await insertJob("job-stuck-queued", "queued", clock.now(), null);
    expect((await desk.api("GET", "/readyz")).status).toBe(200);
    clock.advance(READINESS_LIMITS.queuedMs + 1_000);
    // Recurring jobs of the features fall due as the clock jumps; the runner takes them, not this one.
    await desk.jobs.drain();
    const res = await desk.api("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.body.ok).toBe(false);
    expect(res.body.checks.jobs).toMatchObject({ ok: false, oldest_due_seconds: READINESS_LIMITS.queuedMs / 1000 + 1 });
    expect(res.body.checks.jobs.detail).toContain("due job has waited");
    expect(res.body.checks.database).toEqual({ ok: true });
    expect((await desk.api("GET", "/healthz")).status).toBe(200);
    await execute(desk.deps.db, sql`DELETE FROM jobs WHERE id = 'job-stuck-queued'`);
    expect((await desk.api("GET", "/readyz")).status).toBe(200);
  });

  test("a running job past its lease (beyond the grace) makes it 503", async () => {
    await insertJob("job-stuck-running", "running", clock.now(), new Date(clock.now().getTime() + 5 * 60_000));
    clock.advance(5 * 60_000 + READINESS_LIMITS.leaseGraceMs - 1_000);
    await desk.jobs.drain();
    expect((await desk.api("GET", "/readyz")).status).toBe(200);
    clock.advance(2_000);
    const res = await desk.api("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.body.checks.jobs).toMatchObject({ ok: false, overdue_running: 1 });
    await execute(desk.deps.db, sql`DELETE FROM jobs WHERE id = 'job-stuck-running'`);
  });
});
