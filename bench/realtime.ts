/**
 * Realtime gateway benchmark: 1,000 WebSockets on loopback; time from a ticket write (POST /v1/tickets,
 * which appends ticket.created) to that event reaching every socket, p50/p99; memory per idle socket.
 *
 * The server and the writer run in this process; the sockets are spread over client processes (as
 * browsers would be), each reporting on the wall clock when its last socket got each event. All share
 * the machine's 2 cores, so the figures include the clients' own work.
 * Run: bun bench/realtime.ts [sockets=1000] [writes=200] [client processes=4]
 */
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner } from "../test/factories";

const SOCKETS = Number(process.argv[2] ?? 1000);
const WRITES = Number(process.argv[3] ?? 200);
const PROCESSES = Number(process.argv[4] ?? 4);
const wallClock = () => performance.timeOrigin + performance.now();

if (process.env.BENCH_ROLE === "clients") await runClients(Number(process.env.BENCH_SOCKETS));
else await runServer();

async function runServer() {
  // Every client socket is the owner's one session: lift the per-session cap past them.
  const desk = await startTestDesk({
    env: { DESK_LOG_LEVEL: "silent", DESK_REALTIME_SOCKETS_PER_SESSION: String(SOCKETS) },
    keepAlive: true,
  });
  const { owner } = await createWorkspaceWithOwner(desk);
  const rss = () => {
    Bun.gc(true);
    return process.memoryUsage().rss;
  };
  const before = rss();
  const arrivals = new Map<string, number[]>();
  let connected = 0;
  const children = Array.from({ length: PROCESSES }, (_, i) => {
    const share = Math.floor(SOCKETS / PROCESSES) + (i < SOCKETS % PROCESSES ? 1 : 0);
    const child = Bun.spawn(["bun", import.meta.path], {
      env: {
        ...process.env,
        BENCH_ROLE: "clients",
        BENCH_SOCKETS: String(share),
        BENCH_URL: desk.url,
        BENCH_HEADERS: JSON.stringify(owner.headers),
      },
      stdout: "pipe",
      stderr: "inherit",
    });
    void readLines(child.stdout, (line) => {
      if (line === "CONNECTED") connected++;
      else {
        const [subject, at] = line.split(" ");
        const list = arrivals.get(subject!) ?? [];
        list.push(Number(at));
        arrivals.set(subject!, list);
      }
    });
    return child;
  });
  while (connected < PROCESSES) await Bun.sleep(50);
  await Bun.sleep(300);
  console.log(`sockets connected: ${SOCKETS} over ${PROCESSES} client processes`);
  console.log(`server memory per idle socket: ${((rss() - before) / SOCKETS / 1024).toFixed(1)} KiB RSS`);

  const latencies: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const subject = `bench-${i}-${Math.random().toString(36).slice(2)}`;
    const started = wallClock();
    const res = await fetch(`${desk.url}/v1/tickets`, {
      method: "POST",
      headers: { ...owner.headers, "content-type": "application/json" },
      body: JSON.stringify({ subject, contact: { email: `c${i}@bench.test` }, body_html: "<p>hello</p>" }),
    });
    if (res.status !== 201) throw new Error(`write failed: ${res.status} ${await res.text()}`);
    while ((arrivals.get(subject)?.length ?? 0) < PROCESSES) await Bun.sleep(1);
    latencies.push(Math.max(...arrivals.get(subject)!) - started);
    arrivals.delete(subject);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  console.log(
    `ticket write -> ticket.created on all ${SOCKETS} sockets over ${WRITES} writes: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`,
  );
  for (const child of children) child.kill();
  await desk.stop();
  process.exit(0);
}

async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value);
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      onLine(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
  }
}

async function runClients(count: number) {
  const url = process.env.BENCH_URL!;
  const headers = JSON.parse(process.env.BENCH_HEADERS!) as Record<string, string>;
  const wsBase = url.replace(/^http/, "ws");
  const remaining = new Map<string, number>();
  const sockets: WebSocket[] = [];
  const onFrame = (text: string) => {
    if (!text.includes('"ticket.created"')) return;
    const subject = /"subject":"(bench-[^"]+)"/.exec(text)?.[1];
    if (!subject) return;
    const left = (remaining.get(subject) ?? count) - 1;
    if (left === 0) {
      remaining.delete(subject);
      process.stdout.write(`${subject} ${wallClock()}\n`);
    } else remaining.set(subject, left);
  };
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, async () => {
        const res = await fetch(`${url}/v1/realtime/token`, { method: "POST", headers });
        const { token } = (await res.json()) as { token: string };
        const ws = new WebSocket(`${wsBase}/v1/realtime?token=${token}`);
        ws.addEventListener("message", (event) => onFrame(String(event.data)));
        await new Promise((resolve, reject) => {
          ws.addEventListener("open", resolve, { once: true });
          ws.addEventListener("error", reject, { once: true });
        });
        sockets.push(ws);
      }),
    );
  }
  process.stdout.write("CONNECTED\n");
  await new Promise(() => {});
}
