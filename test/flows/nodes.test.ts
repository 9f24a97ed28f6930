import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../src/db/store";
import { transact } from "../../src/db/tx";
import { appendEvent } from "../../src/events/append";
import { type Consumer, defineConsumer, reactionStateChanged } from "../../src/events/consumers";
import type { Deps } from "../../src/deps";
import type { FeatureModule } from "../../src/module";
import { modules as registered } from "../../src/registry";
import { createEffectsTable } from "../kit/consumers";
import { anyEvent } from "../kit/events";
import { onPostgres } from "../kit/postgres";
import { connect, type TestSocket } from "../kit/realtime-client";
import { startTestDesk, type TestDesk } from "../harness";
import { createWorkspaceWithOwner } from "../factories";
import { execute } from "../../src/db/store";

/**
 * Several `desk serve` processes ("nodes") on one PostgreSQL database (DECISIONS.md "Past one
 * machine"): each node hears of the others' commits through the event feed (src/events/feed.ts),
 * and their consumer runners claim a workspace's cursor, so each event is handled once.
 */

/** Handles every `test.once` event by recording it (one row per handling: a repeat shows twice). */
const once = defineConsumer({
  name: "test.nodes.once",
  events: [anyEvent("test.once")],
  from: "beginning",
  async handle(tx, event) {
    await execute(tx, sql`INSERT INTO test_effects (event_id, seq) VALUES (${event.id}, ${event.seq})`);
  },
});

/** Desk 2's alone: quiet for the workspaces not in `active`, an answer its runner caches. */
const active = new Set<string>();
const quietPings: string[] = [];
const quietAsked = { count: 0 };
const quietOne: Consumer<Deps> = defineConsumer({
  name: "test.nodes.quiet",
  events: [anyEvent("test.ping")],
  quiet: {
    when: (_deps: Deps, workspaceId: string) => {
      quietAsked.count++;
      return !active.has(workspaceId);
    },
    changedBy: [],
  },
  async handle(_tx, event) {
    quietPings.push(event.id);
  },
});

const moduleOf = (name: string, consumers: Consumer<Deps>[]): FeatureModule => ({ name, consumers });

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await Bun.sleep(10);
  }
}

const emit = async (desk: TestDesk, workspaceId: string, type: string) =>
  await transact(
    desk.deps.db,
    async (tx) => await appendEvent(tx, anyEvent(type), { workspaceId, data: { note: type } }),
  );

describe.skipIf(!onPostgres)("several nodes on one database", async () => {
  // SQLite is one process: nothing to start (the body runs even when its tests are skipped).
  if (!onPostgres) return;
  // The other nodes stop before the first one's database is dropped (its own afterAll, registered first).
  let others: TestDesk[] = [];
  afterAll(async () => {
    for (const desk of others) await desk.stop().catch(() => {});
  });
  // Loopback webhook endpoints are allowed (the webhook test's receiver address is never called).
  const first = await startTestDesk({
    env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
    modules: [...registered, moduleOf("test.nodes", [once])],
  });
  const url = first.deps.config.databaseUrl!;
  const second = await startTestDesk({
    env: { DESK_DATABASE_URL: url, DESK_NODE_NAME: "node-2" },
    modules: [...registered, moduleOf("test.nodes", [once, quietOne])],
  });
  const third = await startTestDesk({
    env: { DESK_DATABASE_URL: url, DESK_NODE_NAME: "node-3" },
    modules: [...registered, moduleOf("test.nodes", [once])],
  });
  others = [third, second];
  await createEffectsTable(first.deps.db);
  const sockets: TestSocket[] = [];

  async function socketOn(desk: TestDesk, headers: Record<string, string>) {
    const res = await desk.api("POST", "/v1/realtime/token", { headers });
    expect(res.status).toBe(200);
    const socket = connect(`${desk.url.replace(/^http/, "ws")}/v1/realtime?token=${res.body.token}`);
    sockets.push(socket);
    await socket.opened;
    // A pong proves the gateway admitted the socket.
    socket.send({ type: "ping" });
    await socket.waitFor((f) => f.type === "pong", 2000);
    return socket;
  }

  test("a write on one node reaches a socket on another within 2 s, each event once and in order", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(first);
    const onSecond = await socketOn(second, owner.headers);
    const onThird = await socketOn(third, owner.headers);
    const onFirst = await socketOn(first, owner.headers);
    const created = await first.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Seen everywhere", contact: { email: "carla@customer.test" }, body_text: "Hello" },
    });
    expect(created.status).toBe(201);
    const started = performance.now();
    for (const socket of [onSecond, onThird, onFirst])
      await socket.waitFor((f) => f.type === "ticket.created" && (f.data as any)?.ticket?.id === created.body.id, 2000);
    expect(performance.now() - started).toBeLessThan(2000);
    // Writes from every node, interleaved: every socket gets every seq once, in order.
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10; i++)
      for (const desk of [first, second, third]) writes.push(emit(desk, workspace.id, "test.noise"));
    const stored = (await Promise.all(writes)) as Array<{ seq: number }>;
    const last = Math.max(...stored.map((e) => e.seq));
    for (const socket of [onFirst, onSecond, onThird]) {
      await socket.waitFor((f) => f.seq === last, 2000);
      const seqs = socket.frames.filter((f) => typeof f.seq === "number").map((f) => f.seq as number);
      expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
      expect(seqs.slice(-30)).toEqual(Array.from({ length: 30 }, (_, i) => last - 29 + i));
    }
    for (const socket of sockets.splice(0)) socket.ws.close();
  });

  test("each consumer handles each event once across the nodes, in seq order within a workspace", async () => {
    const workspaces = [
      (await createWorkspaceWithOwner(first)).workspace.id,
      (await createWorkspaceWithOwner(second)).workspace.id,
      (await createWorkspaceWithOwner(third)).workspace.id,
    ];
    const writes: Array<Promise<{ id: string; seq: number; workspace_id: string }>> = [];
    for (let i = 0; i < 20; i++)
      for (const [n, desk] of [first, second, third].entries())
        writes.push(emit(desk, workspaces[(i + n) % workspaces.length]!, "test.once"));
    const stored = await Promise.all(writes);
    const effects = async () =>
      await rowsOf<{ event_id: string; seq: number }>(
        first.deps.db,
        sql`SELECT event_id, seq FROM test_effects WHERE event_id IN (SELECT id FROM events WHERE type = 'test.once')`,
      );
    // The runners are woken by the feed (a commit elsewhere), well before their 5 s poll.
    await waitUntil("every event handled", async () => (await effects()).length >= stored.length, 4000);
    await Bun.sleep(300);
    const handled = await effects();
    expect(handled.length).toBe(stored.length);
    expect(new Set(handled.map((e) => e.event_id))).toEqual(new Set(stored.map((e) => e.id)));
    // Within a workspace in seq order (the effects table only gets inserts: ctid is their order).
    const ordered = await rowsOf<{ workspace_id: string; seq: number }>(
      first.deps.db,
      sql`SELECT e.workspace_id, f.seq FROM test_effects f JOIN events e ON e.id = f.event_id WHERE e.type = 'test.once' ORDER BY f.ctid`,
    );
    for (const workspaceId of workspaces) {
      const seqs = ordered.filter((r) => r.workspace_id === workspaceId).map((r) => r.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });

  test("a label created on one node is in force on another at once (no cache holds labels)", async () => {
    const { owner } = await createWorkspaceWithOwner(first);
    const created = await first.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "Billing" } });
    expect(created.status).toBe(201);
    const listed = await second.api("GET", "/v1/tags", { headers: owner.headers });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { id: string }) => t.id)).toContain(created.body.id);
    // Naming it on a ticket on a third node finds the same label rather than making another.
    const ticket = await third.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Invoice", contact: { email: "dan@customer.test" }, body_text: "Hi", tags: ["Billing"] },
    });
    expect(ticket.status).toBe(201);
    const after = await third.api("GET", "/v1/tags", { headers: owner.headers });
    expect(after.body.data.filter((t: { name: string }) => t.name === "Billing").length).toBe(1);
  });

  test("a quiet answer another node changed without an event (reactionStateChanged) is forgotten within 2 s", async () => {
    const { workspace } = await createWorkspaceWithOwner(first);
    const asked = quietAsked.count;
    const passed = await emit(first, workspace.id, "test.ping");
    // Desk 2's runner answers "quiet" for the workspace and caches it.
    await waitUntil("the quiet answer asked", () => quietAsked.count > asked);
    await waitUntil("the cursor past the ping", async () => {
      const [row] = await rowsOf<{ last_seq: number }>(
        first.deps.db,
        sql`SELECT last_seq::int AS last_seq FROM event_consumer_cursors WHERE consumer = 'test.nodes.quiet' AND workspace_id = ${workspace.id}`,
      );
      return (row?.last_seq ?? 0) >= passed.seq;
    });
    expect(quietPings).not.toContain(passed.id);
    // Desk 1 changes what `when` reads and says so in its change; desk 2 is told once it commits.
    active.add(workspace.id);
    await transact(first.deps.db, async () => reactionStateChanged(first.deps.db, workspace.id));
    const askedBefore = quietAsked.count;
    await waitUntil("desk 2 forgot its answer", async () => {
      // Each ping asks only when the cached answer is gone.
      const ping = await emit(first, workspace.id, "test.ping");
      await Bun.sleep(50);
      return quietPings.includes(ping.id);
    });
    expect(quietAsked.count).toBeGreaterThan(askedBefore);
  });

  // The webhook fan-out caches a workspace's endpoints per node (src/webhooks/webhooks.cache.ts); a
  // change on another node reaches this node's cache through the feed.
  test("a webhook created on one node receives the events another node stores within 2 s", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(first);
    const deliveriesOf = async (eventId: string) =>
      await rowsOf<{ webhook_id: string }>(
        second.deps.db,
        sql`SELECT webhook_id FROM webhook_deliveries WHERE event_id = ${eventId}`,
      );
    // Desk 2 caches the workspace's endpoints: none yet.
    const before = await emit(second, workspace.id, "ticket.created");
    expect(await deliveriesOf(before.id)).toEqual([]);
    const created = await first.api("POST", "/v1/webhooks", {
      headers: owner.headers,
      body: { url: "http://127.0.0.1:9/hook", events: ["*"] },
    });
    expect(created.status).toBe(201);
    await waitUntil("desk 2's fan-out sees the new endpoint", async () => {
      const event = await emit(second, workspace.id, "ticket.created");
      return (await deliveriesOf(event.id)).some((d) => d.webhook_id === created.body.id);
    });
  });
});
