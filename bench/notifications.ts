/**
 * Notification fan-out latency to a live socket, p50/p95:
 *  1. end to end: an agent reassigns a ticket over HTTP (PATCH /v1/tickets/{id}); the durable
 *     consumer turns the `assigned` activity into a notification; the assignee's socket receives
 *     `notification.created`. Measured from sending the PATCH to the frame's arrival.
 *  2. gateway only: notify() in a transaction to the frame's arrival (the publish path alone).
 * Other members' sockets are connected meanwhile and receive the `event.hidden` stand-ins.
 * Run: bun bench/notifications.ts [writes=200] [other sockets=100]
 */
import { addMember, createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { transact } from "../src/db/tx";
import { notify } from "../src/notifications/notifications.public";
import { connect } from "../test/kit/realtime-client";

const WRITES = Number(process.argv[2] ?? 200);
const OTHERS = Number(process.argv[3] ?? 100);

// The OTHERS sockets share one sign-in session: lift the per-session cap past them.
const desk = await startTestDesk({
  env: { DESK_LOG_LEVEL: "silent", DESK_REALTIME_SOCKETS_PER_SESSION: String(OTHERS + 1) },
  keepAlive: true,
});
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const assignee = await addMember(desk, workspace.id, "agent");
const other = await addMember(desk, workspace.id, "agent");
await desk.api("PUT", "/v1/notifications/preferences", { headers: assignee.headers, body: { email: "off" } });
const wsBase = desk.url.replace(/^http/, "ws");

async function socketOf(headers: Record<string, string>) {
  const { body } = await desk.api("POST", "/v1/realtime/token", { headers });
  const socket = connect(`${wsBase}/v1/realtime?token=${body.token}`);
  await socket.opened;
  socket.send({ type: "ping" });
  await socket.waitFor((f) => f.type === "pong");
  return socket;
}

const mine = await socketOf(assignee.headers);
const others = await Promise.all(Array.from({ length: OTHERS }, () => socketOf(other.headers)));
const ticket = (await desk.api("POST", "/v1/tickets", { headers: owner.headers, body: { subject: "Bench" } })).body as {
  id: string;
};

let waiting: { id: number; resolve: (at: number) => void } | null = null;
let counter = 0;
mine.ws.addEventListener("message", (event) => {
  const frame = JSON.parse(String(event.data)) as { type: string };
  if (frame.type === "notification.created" && waiting) {
    const w = waiting;
    waiting = null;
    w.resolve(performance.now());
  }
});
const nextFrame = () => new Promise<number>((resolve) => (waiting = { id: ++counter, resolve }));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const report = (name: string, values: number[]) =>
  console.log(
    `${name}: n=${values.length} p50 ${percentile(values, 50).toFixed(2)} ms, p95 ${percentile(values, 95).toFixed(2)} ms, max ${Math.max(...values).toFixed(2)} ms`,
  );

const endToEnd: number[] = [];
for (let i = 0; i < WRITES; i++) {
  // assign away (to the owner, themselves: no notification), then to the assignee (one notification)
  await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { assignee_id: owner.id } });
  const arrived = nextFrame();
  const start = performance.now();
  await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { assignee_id: assignee.id } });
  endToEnd.push((await arrived) - start);
}

const direct: number[] = [];
for (let i = 0; i < WRITES; i++) {
  const arrived = nextFrame();
  const start = performance.now();
  await transact(
    desk.deps.db,
    async (tx) =>
      await notify(
        tx,
        { workspaceId: workspace.id, userId: assignee.id, type: "sla_breached", ticket: null, data: {} },
        desk.deps.clock,
      ),
  );
  direct.push((await arrived) - start);
}

const standIns = others.reduce((n, s) => n + s.frames.filter((f) => f.type === "event.hidden").length, 0);
console.log(`sockets: 1 assignee + ${OTHERS} other members (stand-ins received: ${standIns})`);
report("assignment over HTTP → consumer → notification.created on the socket", endToEnd);
report("notify() → notification.created on the socket (gateway only)", direct);
for (const s of [mine, ...others]) s.ws.close();
await desk.stop();
process.exit(0);
