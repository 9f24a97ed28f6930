/**
 * Realtime gateway benchmark: 1,000 WebSockets on loopback; time from a ticket write (POST /v1/tickets,
 * which appends ticket.created) to that event reaching every socket, p50/p99; memory per idle socket.
 *
 * The server runs in this process; the sockets and the writer run in a child process, so the server's
 * memory figure is its own and the latency includes real cross-process delivery (both share 2 cores).
 * Run: bun bench/realtime.ts [sockets=1000] [writes=200]
 */
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner } from "../test/factories";

const SOCKETS = Number(process.argv[2] ?? 1000);
const WRITES = Number(process.argv[3] ?? 200);

if (process.env.BENCH_ROLE === "clients") await runClients();
else await runServer();

async function runServer() {
  const desk = await startTestDesk({ env: { DESK_LOG_LEVEL: "silent" }, keepAlive: true });
  const { owner } = await createWorkspaceWithOwner(desk);
  const rss = () => {
    Bun.gc(true);
    return process.memoryUsage().rss;
  };
  const before = rss();
  const child = Bun.spawn(["bun", import.meta.path, String(SOCKETS), String(WRITES)], {
    env: { ...process.env, BENCH_ROLE: "clients", BENCH_URL: desk.url, BENCH_HEADERS: JSON.stringify(owner.headers) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value);
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line === "CONNECTED") {
        await Bun.sleep(300);
        const after = rss();
        console.log(`server memory per idle socket: ${((after - before) / SOCKETS / 1024).toFixed(1)} KiB RSS`);
      } else console.log(line);
    }
  }
  await child.exited;
  await desk.stop();
  process.exit(child.exitCode ?? 0);
}

async function runClients() {
  const url = process.env.BENCH_URL!;
  const headers = JSON.parse(process.env.BENCH_HEADERS!) as Record<string, string>;
  const wsBase = url.replace(/^http/, "ws");
  const pending = new Map<string, { left: number; resolve: () => void }>();
  const sockets: WebSocket[] = [];
  for (let i = 0; i < SOCKETS; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, SOCKETS - i) }, async () => {
        const res = await fetch(`${url}/v1/realtime/token`, { method: "POST", headers });
        const { token } = (await res.json()) as { token: string };
        const ws = new WebSocket(`${wsBase}/v1/realtime?token=${token}`);
        ws.addEventListener("message", (event) => {
          const text = String(event.data);
          if (!text.includes('"ticket.created"')) return;
          const frame = JSON.parse(text) as { type: string; data?: { ticket?: { subject?: string } } };
          const entry = pending.get(frame.data?.ticket?.subject ?? "");
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
  console.log(`sockets connected: ${sockets.length}`);
  console.log("CONNECTED");
  await Bun.sleep(600);
  const latencies: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const subject = `bench-${i}-${Math.random().toString(36).slice(2)}`;
    const arrived = new Promise<void>((resolve) => pending.set(subject, { left: sockets.length, resolve }));
    const started = performance.now();
    const res = await fetch(`${url}/v1/tickets`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ subject, contact: { email: `c${i}@bench.test` }, body_html: "<p>hello</p>" }),
    });
    if (res.status !== 201) throw new Error(`write failed: ${res.status} ${await res.text()}`);
    await arrived;
    latencies.push(performance.now() - started);
    pending.delete(subject);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  console.log(`ticket write -> ticket.created on all ${sockets.length} sockets over ${WRITES} writes: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`);
  for (const ws of sockets) ws.close();
  process.exit(0);
}
