import { afterAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { appendEvent } from "../events/append";
import { anyEvent } from "../../test/kit/events";
import { transact } from "../db/tx";
import { startReceiver } from "../../test/kit/webhooks-receiver";
import { webhookDeliveries } from "./webhooks.table";
import { ENDPOINT_SLOTS, WORKSPACE_SHARE } from "./webhooks.worker";

// Real time and the background runner: what is measured is how soon a real receiver gets its delivery.
const fast = startReceiver();
/** A receiver that reads each request and never answers until released. */
function hangingReceiver() {
  let open = 0;
  let peak = 0;
  let total = 0;
  const release: Array<() => void> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      await request.text();
      open++;
      total++;
      peak = Math.max(peak, open);
      await new Promise<void>((resolve) => release.push(resolve));
      open--;
      return new Response("late", { status: 200 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hang`,
    stats: () => ({ open, peak, total }),
    releaseAll: () => {
      for (const resolve of release.splice(0)) resolve();
    },
    stop: () => server.stop(true),
  };
}
const hanging = hangingReceiver();
const crowded = hangingReceiver();
afterAll(async () => {
  for (const receiver of [hanging, crowded]) {
    receiver.releaseAll();
    await receiver.stop();
  }
  await fast.stop();
});

const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });

async function hook(owner: { headers: Record<string, string> }, url: string) {
  const res = await desk.api("POST", "/v1/webhooks", {
    headers: owner.headers,
    body: { url, events: ["ticket.created"] },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

const emit = async (workspaceId: string) =>
  await transact(
    desk.deps.db,
    async (tx) =>
      await appendEvent(tx, anyEvent("ticket.created"), {
        workspaceId,
        data: { ticket: { id: "t1", subject: "Flood" } },
      }),
  );

test("a hanging receiver of one workspace does not delay another workspace's delivery", async () => {
  const slow = await createWorkspaceWithOwner(desk);
  const quick = await createWorkspaceWithOwner(desk);
  const stuck = await hook(slow.owner, hanging.url);
  const prompt = await hook(quick.owner, fast.url("prompt"));
  fast.secrets.set("prompt", prompt.secret);
  try {
    // The flood: more deliveries to the hanging endpoint than the runner has slots.
    for (let i = 0; i < 100; i++) await emit(slow.workspace.id);
    for (let i = 0; i < 150 && hanging.stats().open === 0; i++) await Bun.sleep(20);
    expect(hanging.stats().open).toBeGreaterThan(0);

    const event = await emit(quick.workspace.id);
    const started = performance.now();
    while (!fast.received.some((d) => d.eventId === event.id) && performance.now() - started < 3_000)
      await Bun.sleep(20);
    const waited = performance.now() - started;
    expect(fast.received.filter((d) => d.eventId === event.id && d.verified)).toHaveLength(1);
    expect(waited).toBeLessThan(3_000);

    // The hanging endpoint never has more than its slots in flight; its other deliveries wait their turn.
    expect(hanging.stats().peak).toBeLessThanOrEqual(ENDPOINT_SLOTS);
    const rows = await desk.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, stuck.id));
    expect(rows).toHaveLength(100);
    expect(rows.filter((r) => r.status === "pending").length).toBeGreaterThanOrEqual(100 - ENDPOINT_SLOTS);
  } finally {
    hanging.releaseAll();
  }
}, 20_000);

test("one workspace's endpoints together hold at most its share of the sending slots", async () => {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  try {
    for (let i = 0; i < 6; i++) await hook(owner, crowded.url);
    // Six endpoints with two slots each could hold twelve requests; the workspace's share is fewer.
    for (let i = 0; i < 20; i++) await emit(workspace.id);
    const started = performance.now();
    while (crowded.stats().open < WORKSPACE_SHARE && performance.now() - started < 3_000) await Bun.sleep(20);
    await Bun.sleep(300);
    expect(crowded.stats().open).toBe(WORKSPACE_SHARE);
    expect(crowded.stats().peak).toBe(WORKSPACE_SHARE);
  } finally {
    crowded.releaseAll();
  }
}, 20_000);
