/**
 * Inbound mail throughput and latency over real SMTP: 4 concurrent clients send 20 KB messages
 * to the embedded receiver; p95 is measured from the end of DATA (the client's final dot) to the
 * ticket's message.created event. Run: bun bench/email.ts [messages=800]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { loadConfig } from "../src/config/config";
import { onEventsCommitted } from "../src/events/bus";
import { startDesk } from "../src/start";
import { createWorkspace } from "../src/workspaces/workspaces.service";
import { createMailbox } from "../src/mailboxes/mailboxes.service";
import { systemContext } from "../src/auth/context";
import { users } from "../src/auth/auth.table";
import { newId } from "../src/lib/ids";
import { freePort } from "../test/peers/dovecot";

const total = Number(process.argv[2] ?? 800);
const dataDir = mkdtempSync(join(tmpdir(), "desk-bench-"));
const smtpPort = await freePort();
const desk = await startDesk(loadConfig({ DESK_PORT: "0", DESK_SMTP_PORT: String(smtpPort), DESK_DATA_DIR: dataDir, DESK_LOG_LEVEL: "warn", DESK_SECRET: "bench-secret-0123456789abcdef" }), { webAssets: null });
const userId = newId();
const now = new Date().toISOString();
desk.deps.db.insert(users).values({ id: userId, email: "bench@example.test", name: "Bench", createdAt: now, updatedAt: now }).run();
const workspace = createWorkspace({ userId }, { name: "Bench" }, desk.deps);
createMailbox(systemContext(workspace.id), { name: "Support", email: "support@bench.test", inbound_kind: "forwarding", outbound_kind: "system", config: {} }, desk.deps);

const sentAt = new Map<string, number>();
const latencies: number[] = [];
onEventsCommitted(desk.deps.db, (events) => {
  for (const event of events) {
    if (event.type !== "message.created") continue;
    const subject = (event.data as { message?: { subject?: string } }).message?.subject ?? "";
    const started = sentAt.get(subject);
    if (started !== undefined) latencies.push(performance.now() - started);
  }
});

const body = "x".repeat(76).concat("\n").repeat(Math.ceil(20_000 / 77)).slice(0, 20_000);
const clients = Array.from({ length: 4 }, () => nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 1, maxMessages: Infinity }));
let next = 0;
const started = performance.now();
await Promise.all(
  clients.map(async (transport) => {
    while (next < total) {
      const n = next++;
      const subject = `bench ${n}`;
      const info = transport.sendMail({ from: `c${n}@customer.test`, to: "support@bench.test", subject, text: body, messageId: `<bench-${n}@customer.test>` });
      // The end of DATA is when the client has written the message; the ingest then runs before the 250.
      sentAt.set(subject, performance.now());
      await info;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
for (const c of clients) c.close();
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
console.log(`messages: ${total}, 20 KB each, 4 SMTP clients`);
console.log(`throughput: ${(total / seconds).toFixed(0)} messages/s (aim 300/s)`);
console.log(`send→message.created ms: p50 ${pct(50)}, p95 ${pct(95)} (aim < 50), p99 ${pct(99)}  [measured from the client's send call, an upper bound on end-of-DATA]`);
await desk.stop();
rmSync(dataDir, { recursive: true, force: true });
