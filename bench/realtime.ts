/**
 * Realtime gateway benchmark: 1,000 WebSockets on loopback; time from an API write (POST /v1/webhooks,
 * which appends webhook.created) to the event reaching every socket, p50/p99; memory per idle socket.
 * Run: bun bench/realtime.ts [sockets=1000] [writes=200]
 * Clients live in this same process, so the memory figure is an upper bound (server + client side).
 */
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner } from "../test/factories";

const SOCKETS = Number(process.argv[2] ?? 1000);
const WRITES = Number(process.argv[3] ?? 200);
const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", DESK_LOG_LEVEL: "silent" }, keepAlive: true });
const { owner } = await createWorkspaceWithOwner(desk);
const wsBase = desk.url.replace(/^http/, "ws");

const mem = () => {
  Bun.gc(true);
  return process.memoryUsage();
};
const before = mem();
let pending = new Map<string, { left: number; resolve: () => void }>();
const sockets: WebSocket[] = [];
for (let i = 0; i < SOCKETS; i += 100) {
  await Promise.all(
    Array.from({ length: Math.min(100, SOCKETS - i) }, async () => {
      const { token } = (await desk.api("POST", "/v1/realtime/token", { headers: owner.headers })).body as { token: string };
      const ws = new WebSocket(`${wsBase}/v1/realtime?token=${token}`);
      ws.addEventListener("message", (event) => {
        const frame = JSON.parse(String(event.data)) as { type: string; data?: { webhook?: { description?: string } } };
        const tag = frame.data?.webhook?.description;
        if (frame.type !== "webhook.created" || !tag) return;
        const entry = pending.get(tag);
        if (entry && --entry.left === 0) entry.resolve();
      });
      await new Promise((resolve, reject) => {
        ws.addEventListener("open", resolve, { once: true });
        ws.addEventListener("error", reject, { once: true });
      });
      sockets.push(ws);
    }),
  );
}
await Bun.sleep(300);
const after = mem();
console.log(`sockets connected: ${sockets.length}`);
console.log(`memory per idle socket (server+client, this process): rss ${((after.rss - before.rss) / sockets.length / 1024).toFixed(1)} KiB, heap ${((after.heapUsed - before.heapUsed) / sockets.length / 1024).toFixed(1)} KiB`);

const latencies: number[] = [];
for (let i = 0; i < WRITES; i++) {
  const tag = `w${i}`;
  const arrived = new Promise<void>((resolve) => pending.set(tag, { left: sockets.length, resolve }));
  const started = performance.now();
  const res = await fetch(`${desk.url}/v1/webhooks`, {
    method: "POST",
    headers: { ...owner.headers, "content-type": "application/json" },
    body: JSON.stringify({ url: "http://127.0.0.1:9/x", events: ["*"], enabled: false, description: tag }),
  });
  if (res.status !== 201) throw new Error(`write failed: ${res.status}`);
  await arrived;
  latencies.push(performance.now() - started);
  pending.delete(tag);
}
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
console.log(`API write -> event on all ${sockets.length} sockets over ${WRITES} writes: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`);
pending = new Map();
for (const ws of sockets) ws.close();
await desk.stop();
process.exit(0);
