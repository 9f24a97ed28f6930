import { first } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { transact } from "../db/tx";
import { enqueueByName } from "../jobs/enqueue";
import { anyEvent } from "../../test/kit/events";
import { appendEvent } from "../events/append";
import { manualClock } from "../lib/clock";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { teams } from "../teams/teams.table";
import { retryDelayMs, MAX_DELIVERY_ATTEMPTS } from "./webhooks.post";
import { CIRCUIT_BASE_PAUSE_MS, CIRCUIT_THRESHOLD, circuitPauseMs, ENDPOINT_SLOTS } from "./webhooks.worker";
import { startReceiver } from "../../test/kit/webhooks-receiver";
import { webhookDeliveries, webhooks } from "./webhooks.table";

const clock = manualClock(new Date());
const receiver = startReceiver({ now: () => clock.now() });
afterAll(() => receiver.stop());
const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }, clock });

let counter = 0;
async function endpoint(
  target: TestDesk,
  owner: { headers: Record<string, string> },
  input: Record<string, unknown> = {},
) {
  const path = `hook${counter++}`;
  const res = await target.api("POST", "/v1/webhooks", {
    headers: owner.headers,
    body: { url: receiver.url(path), events: ["ticket.created"], ...input },
  });
  expect(res.status).toBe(201);
  receiver.secrets.set(path, res.body.secret);
  return { id: res.body.id as string, path };
}

const emit = async (
  target: TestDesk,
  workspaceId: string,
  type = "ticket.created",
  privateTeamId: string | null = null,
) =>
  await transact(
    target.deps.db,
    async (tx) =>
      await appendEvent(tx, anyEvent(type), {
        workspaceId,
        data: { ticket: { id: "t1", subject: "Printer on fire" } },
        privateTeamId,
      }),
  );

const deliveriesOf = async (target: TestDesk, webhookId: string) =>
  await target.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
const receivedBy = (path: string) => receiver.received.filter((d) => d.path === path);

describe("webhook delivery", () => {
  test("a subscribed event arrives signed, as the envelope without topics, and is recorded as succeeded", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    const event = await emit(desk, workspace.id);
    await desk.jobs.drain();
    const [got] = receivedBy(hook.path);
    expect(got!.verified).toBe(true);
    expect(got!.eventId).toBe(event.id);
    expect(got!.eventType).toBe("ticket.created");
    expect(got!.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(got!.body)).toEqual({
      id: event.id,
      seq: event.seq,
      workspace_id: workspace.id,
      type: "ticket.created",
      visibility: "agents",
      data: event.data,
      occurred_at: event.occurred_at,
    });
    const list = await desk.api("GET", `/v1/webhooks/${hook.id}/deliveries`, { headers: owner.headers });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      event_id: event.id,
      event_type: "ticket.created",
      status: "succeeded",
      attempts: 1,
      response_code: 200,
      response_excerpt: "ok",
    });
    expect(typeof list.body.data[0].duration_ms).toBe("number");
  });

  test("routing: types listed or all; paused endpoints get nothing; private-team events only where granted", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const now = new Date().toISOString();
    await desk.deps.db.insert(teams).values({
      id: `team-${workspace.id}`,
      workspaceId: workspace.id,
      name: "VIP",
      private: true,
      createdAt: now,
      updatedAt: now,
    });
    const typed = await endpoint(desk, owner);
    const all = await endpoint(desk, owner, { events: ["*"] });
    const paused = await endpoint(desk, owner, { events: ["*"], enabled: false });
    const granted = await endpoint(desk, owner, { events: ["*"], team_ids: [`team-${workspace.id}`] });
    const before = async (id: string) => (await deliveriesOf(desk, id)).length;
    const baseline = { typed: await before(typed.id), all: await before(all.id), granted: await before(granted.id) };
    await emit(desk, workspace.id, "ticket.created");
    await emit(desk, workspace.id, "contact.created");
    await emit(desk, workspace.id, "ticket.created", `team-${workspace.id}`);
    expect((await before(typed.id)) - baseline.typed).toBe(1);
    expect((await before(all.id)) - baseline.all).toBe(2);
    expect((await before(granted.id)) - baseline.granted).toBe(3);
    expect(await deliveriesOf(desk, paused.id)).toHaveLength(0);
    await desk.jobs.drain();
    expect(receivedBy(paused.path)).toHaveLength(0);
    expect(receivedBy(granted.path).every((d) => d.verified && d.status === 200)).toBe(true);
  });

  test("POST /test reaches only the tested endpoint, even one not subscribed to it", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const tested = await endpoint(desk, owner, { events: ["ticket.created"] });
    const bystander = await endpoint(desk, owner, { events: ["*"] });
    await desk.jobs.drain();
    const bystanderBefore = receivedBy(bystander.path).length;
    const res = await desk.api("POST", `/v1/webhooks/${tested.id}/test`, { headers: owner.headers });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0 });
    await desk.jobs.drain();
    expect(receivedBy(tested.path).map((d) => d.eventType)).toEqual(["webhook.test"]);
    expect(receivedBy(bystander.path).length - bystanderBefore).toBe(0);
  });

  test("a failing endpoint is retried with backoff, keeps a 1 KiB excerpt, then succeeds", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    let fail = true;
    receiver.answers.set(hook.path, () => (fail ? { status: 500, body: "é".repeat(3000) } : { status: 204 }));
    await emit(desk, workspace.id);
    await desk.jobs.drain();
    let [row] = await deliveriesOf(desk, hook.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, responseCode: 500, lastError: "HTTP 500" });
    expect(Buffer.byteLength(row!.responseExcerpt!)).toBeLessThanOrEqual(1024);
    expect(row!.responseExcerpt!.length).toBeGreaterThan(500);
    const wait = new Date(row!.nextAttemptAt!).getTime() - clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(54_000);
    expect(wait).toBeLessThanOrEqual(66_000);
    clock.advance(30_000);
    await desk.jobs.drain();
    expect(receivedBy(hook.path)).toHaveLength(1);
    fail = false;
    clock.advance(40_000);
    await desk.jobs.drain();
    [row] = await deliveriesOf(desk, hook.id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, responseCode: 204 });
  });

  test("a redirect is a failure and is not followed; a refused connection is a failure", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    const target = await endpoint(desk, owner, { events: ["webhook.deleted"] });
    receiver.answers.set(hook.path, () => ({ status: 302, headers: { location: receiver.url(target.path) } }));
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const deadPort = closed.port;
    await closed.stop(true);
    const dead = await desk.api("POST", "/v1/webhooks", {
      headers: owner.headers,
      body: { url: `http://127.0.0.1:${deadPort}/gone`, events: ["ticket.created"] },
    });
    await emit(desk, workspace.id);
    await desk.jobs.drain();
    expect((await deliveriesOf(desk, hook.id))[0]).toMatchObject({ status: "pending", responseCode: 302 });
    expect(receivedBy(target.path)).toHaveLength(0);
    const deadRow = (await deliveriesOf(desk, dead.body.id))[0]!;
    expect(deadRow).toMatchObject({ status: "pending", responseCode: null, attempts: 1 });
    expect(deadRow.lastError).toBeTruthy();
  });

  test("after nine failed attempts over about a day the delivery is failed", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    receiver.answers.set(hook.path, () => ({ status: 503 }));
    await emit(desk, workspace.id);
    const started = clock.now().getTime();
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      await desk.jobs.drain();
      clock.advance(7 * 3_600_000);
    }
    const [row] = await deliveriesOf(desk, hook.id);
    expect(row).toMatchObject({ status: "failed", attempts: 9, responseCode: 503 });
    expect(receivedBy(hook.path)).toHaveLength(9);
    const total = Array.from({ length: 8 }, (_, i) => retryDelayMs(i + 1, () => 0.5)).reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(28);
    expect(clock.now().getTime()).toBeGreaterThan(started);
  });

  test("an endpoint failing in a row is paused (circuit open): its deliveries wait unspent, then resume", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    let failing = true;
    receiver.answers.set(hook.path, () => (failing ? { status: 500 } : { status: 200 }));
    for (let i = 0; i < 12; i++) await emit(desk, workspace.id);
    await desk.jobs.drain();
    // Five failures in a row open the circuit (a send already in flight on the other slot may add one):
    // the rest are not attempted and keep all their attempts.
    const sent = receivedBy(hook.path).length;
    expect(sent).toBeGreaterThanOrEqual(CIRCUIT_THRESHOLD);
    expect(sent).toBeLessThan(CIRCUIT_THRESHOLD + ENDPOINT_SLOTS);
    let rows = await deliveriesOf(desk, hook.id);
    expect(rows.filter((r) => r.attempts === 0)).toHaveLength(12 - sent);
    const shown = await desk.api("GET", `/v1/webhooks/${hook.id}`, { headers: owner.headers });
    expect(shown.body.consecutive_failures).toBe(sent);
    const pausedUntil = new Date(shown.body.paused_until).getTime();
    expect(pausedUntil - clock.now().getTime()).toBe(circuitPauseMs(sent));
    expect(circuitPauseMs(CIRCUIT_THRESHOLD)).toBe(CIRCUIT_BASE_PAUSE_MS);

    // Still paused: nothing is sent, and no worker is left running.
    clock.advance(CIRCUIT_BASE_PAUSE_MS / 2);
    await desk.jobs.drain();
    expect(receivedBy(hook.path)).toHaveLength(sent);
    expect(desk.jobs.stats().running["webhooks.endpoint"] ?? 0).toBe(0);

    // The pause ends: a probe fails, and the next pause is longer.
    clock.advance(pausedUntil - clock.now().getTime() + 1);
    await desk.jobs.drain();
    const probes = receivedBy(hook.path).length - sent;
    expect(probes).toBeGreaterThanOrEqual(1);
    expect(probes).toBeLessThanOrEqual(ENDPOINT_SLOTS);
    const again = await desk.api("GET", `/v1/webhooks/${hook.id}`, { headers: owner.headers });
    expect(new Date(again.body.paused_until).getTime() - clock.now().getTime()).toBe(
      circuitPauseMs(again.body.consecutive_failures),
    );
    expect(circuitPauseMs(CIRCUIT_THRESHOLD + 1)).toBe(2 * CIRCUIT_BASE_PAUSE_MS);

    // The endpoint recovers: one success closes the circuit and every delivery arrives.
    failing = false;
    for (let i = 0; i < 3; i++) {
      clock.advance(30 * 60_000);
      await desk.jobs.drain();
    }
    rows = await deliveriesOf(desk, hook.id);
    expect(rows.filter((r) => r.status !== "succeeded")).toEqual([]);
    // (read from the row: the owner's access token has expired by now)
    const healed = first(await desk.deps.db.select().from(webhooks).where(eq(webhooks.id, hook.id)).limit(1))!;
    expect(healed).toMatchObject({ failureStreak: 0, pausedUntil: null });
  });

  test("a delivery queued by an earlier release (one job per delivery, no due time) is still delivered", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    const event = await transact(
      desk.deps.db,
      async (tx) =>
        await appendEvent(tx, anyEvent("webhook.deleted"), { workspaceId: workspace.id, data: { webhook_id: "old" } }),
    );
    const deliveryId = crypto.randomUUID();
    await transact(desk.deps.db, async (tx) => {
      await tx.insert(webhookDeliveries).values({
        id: deliveryId,
        workspaceId: workspace.id,
        webhookId: hook.id,
        eventId: event.id,
        eventType: event.type,
        status: "pending",
        createdAt: clock.now().toISOString(),
        updatedAt: clock.now().toISOString(),
      });
      await enqueueByName(tx, "webhooks.deliver", { delivery_id: deliveryId }, { workspaceId: workspace.id });
    });
    await desk.jobs.drain();
    expect(receivedBy(hook.path).map((d) => d.eventId)).toEqual([event.id]);
    expect((await deliveriesOf(desk, hook.id))[0]).toMatchObject({ id: deliveryId, status: "succeeded", attempts: 1 });
  });

  test("the address is checked again at connect time", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const hook = await endpoint(desk, owner);
    desk.deps.config.allowedPrivateHosts = [];
    try {
      await emit(desk, workspace.id);
      await desk.jobs.drain();
    } finally {
      desk.deps.config.allowedPrivateHosts = ["127.0.0.1"];
    }
    expect(receivedBy(hook.path)).toHaveLength(0);
    expect((await deliveriesOf(desk, hook.id))[0]!.lastError).toContain("https");
  });
});

describe("restart", () => {
  test("with jobs pending and endpoints failing, a new Desk on the same data dir completes every delivery exactly once", async () => {
    const restartClock = clock;
    const first = await startTestDesk({
      env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
      clock: restartClock,
      keepAlive: true,
    });
    const { workspace, owner } = await createWorkspaceWithOwner(first);
    const hooks = [
      await endpoint(first, owner, { events: ["*"] }),
      await endpoint(first, owner, { events: ["ticket.created"] }),
    ];
    let mode: "failing" | "slow" | "ok" = "failing";
    for (const hook of hooks)
      receiver.answers.set(hook.path, () =>
        mode === "failing" ? { status: 503 } : mode === "slow" ? { status: 200, delayMs: 100 } : { status: 200 },
      );
    const emitted = [];
    for (let i = 0; i < 20; i++) emitted.push(await emit(first, workspace.id));
    await first.jobs.drain();
    // Half of the rest are in flight (slow but successful) when the first Desk stops.
    mode = "slow";
    restartClock.advance(2 * 60_000);
    first.jobs.wake();
    await Bun.sleep(20);
    await first.stop();
    mode = "ok";
    // Move time before the second start: its runner signs as soon as it starts.
    restartClock.advance(10 * 60_000);
    const second = await startTestDesk({
      env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
      clock: restartClock,
      config: { dataDir: first.dataDir, databasePath: first.deps.config.databasePath },
    });
    await second.jobs.drain();
    for (const hook of hooks) {
      const rows = await deliveriesOf(second, hook.id);
      expect(rows.length).toBeGreaterThanOrEqual(20);
      expect(rows.filter((r) => r.status !== "succeeded")).toEqual([]);
      const counts = receiver.acknowledgedCounts(hook.path);
      for (const event of emitted) expect(counts.get(event.id), `${hook.path} ${event.seq}`).toBe(1);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    }
  });
});
