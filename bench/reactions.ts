/**
 * Reactions under load, side by side in one run: two Desk processes on fresh data dirs, one with
 * jobs and consumers off (DESK_JOBS=off, how the other benches used to run) and one as shipped.
 * Each takes a burst of POST /v1/tickets (email tickets from a mailbox whose outbound SMTP is a
 * real smtp-sink, so every create is also one customer mail) from BENCH_CLIENTS concurrent
 * connections for BENCH_SECONDS. Prints creates per second and their ratio, how long after the
 * burst every consumer caught up (cursors read from the database file), when the last mail of the
 * burst reached the sink, RSS after the burst and after catching up, and the bytes per ticket
 * (database file and the event log's share).
 *
 *   bun bench/reactions.ts                 BENCH_SECONDS=10 BENCH_CLIENTS=50 BENCH_ROUNDS=2 BENCH_MAIL=off
 *   bun bench/reactions.ts --root /tmp/desk-before   the same against another checkout (before/after)
 * Bars: on/off ≥ 0.8; every consumer caught up within 5 s of the burst; every mail within 5 s;
 * RSS after the burst < 150 MB (read at the burst's end, once caught up, and after 5 quiet seconds).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/peers/dovecot";
import { startSmtpSink } from "../test/peers/smtp-sink";

const rootAt = process.argv.indexOf("--root");
const root = rootAt > 0 ? process.argv[rootAt + 1]! : join(import.meta.dir, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clients = Number(process.env.BENCH_CLIENTS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const CATCH_UP_LIMIT_MS = 60_000;
const QUIET_MS = 5_000;
/** BENCH_MAIL=off: API tickets that send no mail, to tell the consumers' cost from the mail's. */
const mail = process.env.BENCH_MAIL !== "off";

type Running = { url: string; dataDir: string; pid: number; stop(): Promise<void> };

async function startDesk(jobs: "on" | "off"): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), `desk-reactions-${jobs}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_PROFILE=<dir>: the jobs-on desk writes a CPU profile there when it stops.
  const profile =
    process.env.BENCH_PROFILE && jobs === "on" ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const proc = Bun.spawn(["bun", ...profile, join(root, "src/main.ts"), "serve"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dataDir,
      DESK_HOST: "127.0.0.1",
      DESK_PORT: String(port),
      DESK_SMTP_PORT: "0",
      DESK_DATA_DIR: dataDir,
      DESK_BASE_URL: url,
      DESK_SECRET: "bench-secret-that-is-long-enough-0123456789",
      DESK_LOG_LEVEL: "error",
      DESK_JOBS: jobs,
      DESK_OPEN_SIGNUP: "true",
      DESK_BACKUP_INTERVAL: "off",
      DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`desk exited with ${proc.exitCode}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await Bun.sleep(100);
  }
  return {
    url,
    dataDir,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await Promise.race([proc.exited, Bun.sleep(5000)]);
      if (proc.exitCode === null) proc.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function call(url: string, path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** An owner, a workspace and a mailbox sending through the sink: each create mails its contact. */
async function setUp(desk: Running, sinkPort: number) {
  const who = { name: "Bench Owner", email: `owner-${desk.pid}@bench.test`, password: "correct horse battery" };
  const registered = await call(desk.url, "/v1/auth/register", {}, who);
  const token = String(registered.access_token);
  let headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const workspace = await call(desk.url, "/v1/workspaces", headers, { name: "Bench" });
  headers = { ...headers, "desk-workspace": String(workspace.id) };
  const mailbox = await call(desk.url, "/v1/mailboxes", headers, {
    name: "Support",
    email: `support-${desk.pid}@bench.test`,
    outbound_kind: "smtp",
    config: { smtp_host: "127.0.0.1", smtp_port: sinkPort, smtp_tls: "none" },
  });
  return { headers, mailboxId: String(mailbox.id) };
}

/** RSS in MB, with its anonymous part (heap, SQLite's page cache) and mapped files (the database through mmap, code). */
async function rssMb(pid: number): Promise<string> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return `${field("VmRSS").toFixed(0)} MB (anon ${field("RssAnon").toFixed(0)}, file ${field("RssFile").toFixed(0)})`;
}

/** Creates for `seconds` from `clients` connections; answers how many succeeded. */
async function burst(desk: Running, headers: Record<string, string>, mailboxId: string, tag: string) {
  const until = performance.now() + seconds * 1000;
  let created = 0;
  let failed = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const i = n++;
        const res = await fetch(`${desk.url}/v1/tickets`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({
            subject: `Your order ${tag}-${i}`,
            ...(mail ? { channel: "email", mailbox_id: mailboxId } : {}),
            contact: { email: `customer-${i % 500}@customer.test`, name: `Customer ${i % 500}` },
            body_html: `<p>Hello, your order ${i} has shipped.</p>`,
          }),
        });
        await res.arrayBuffer();
        if (res.status === 201) created++;
        else failed++;
      }
    }),
  );
  if (failed) console.log(`  (${failed} creates failed)`);
  return created;
}

/** Milliseconds until every consumer's cursor reaches the newest event, read from the file. */
async function catchUp(desk: Running): Promise<number | null> {
  const db = new Database(join(desk.dataDir, "desk.db"), { readonly: true });
  const start = performance.now();
  try {
    while (performance.now() - start < CATCH_UP_LIMIT_MS) {
      const row = db
        .query<{ behind: number | null }, []>(
          `SELECT count(*) AS behind FROM event_consumers c CROSS JOIN event_seqs s
           LEFT JOIN event_consumer_cursors k ON k.consumer = c.name AND k.workspace_id = s.workspace_id
           WHERE s.last_seq > coalesce(k.last_seq, 0)`,
        )
        .get();
      if ((row?.behind ?? 0) <= 0) return performance.now() - start;
      await Bun.sleep(50);
    }
    return null;
  } finally {
    db.close();
  }
}

async function bytesPerTicket(desk: Running) {
  const db = new Database(join(desk.dataDir, "desk.db"), { readonly: true });
  try {
    const tickets = db.query<{ n: number }, []>("SELECT count(*) AS n FROM tickets").get()!.n;
    const main = statSync(join(desk.dataDir, "desk.db")).size;
    const wal = statSync(join(desk.dataDir, "desk.db-wal")).size;
    const file = main + wal;
    let events = Number.NaN;
    try {
      events = db
        .query<{ n: number }, []>("SELECT sum(pgsize) AS n FROM dbstat WHERE name = 'events' OR name LIKE 'events_%'")
        .get()!.n;
    } catch {
      events = db.query<{ n: number }, []>("SELECT sum(length(data) + length(topics) + 120) AS n FROM events").get()!.n;
    }
    return {
      tickets,
      perTicket: file / tickets,
      eventsPerTicket: events / tickets,
      mainMb: main / 1048576,
      walMb: wal / 1048576,
    };
  } finally {
    db.close();
  }
}

function traceMail(desk: Running, mailsBefore: number) {
  const db = new Database(join(desk.dataDir, "desk.db"), { readonly: true });
  const timer = setInterval(() => {
    const states = db
      .query<{ state: string; n: number }, []>(
        "SELECT state, count(*) AS n FROM jobs WHERE kind = 'mail.send_reply' GROUP BY state",
      )
      .all()
      .map((r) => `${r.state} ${r.n}`)
      .join(", ");
    console.log(`    mails ${sink.messages().length - mailsBefore}; send jobs: ${states}`);
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      db.close();
    },
  };
}

const sink = await startSmtpSink();
const off = await startDesk("off");
const on = await startDesk("on");
try {
  const offSetup = await setUp(off, sink.port);
  const onSetup = await setUp(on, sink.port);
  console.log(
    `${root}: POST /v1/tickets (${mail ? "email, one customer mail each" : "API, no mail"}), ${clients} connections × ${seconds} s; load shared with others on ${navigator.hardwareConcurrency} cores`,
  );
  // Rounds alternate the two desks (off, then on, then on's backlog settles) so that drifting load
  // from others sharing the machine falls on both; the last round's catch-up and mail are reported.
  let offTotal = 0;
  let onTotal = 0;
  for (let round = 1; round <= rounds; round++) {
    const offCreated = await burst(off, offSetup.headers, offSetup.mailboxId, `off${round}`);
    const offRss = await rssMb(off.pid);
    const mailsBefore = sink.messages().length;
    // BENCH_TRACE=1: once a second during the burst, mails written and send jobs by state.
    const trace = process.env.BENCH_TRACE ? traceMail(on, mailsBefore) : null;
    const onCreated = await burst(on, onSetup.headers, onSetup.mailboxId, `on${round}`);
    trace?.stop();
    const burstEnd = performance.now();
    const onRss = await rssMb(on.pid);
    const mailsAtEnd = sink.messages().length - mailsBefore;
    const caughtUpMs = await catchUp(on);
    let mailMs: number | null = null;
    try {
      if (mail) await sink.waitFor(mailsBefore + onCreated, CATCH_UP_LIMIT_MS);
      mailMs = performance.now() - burstEnd;
    } catch {
      mailMs = null;
    }
    const settledRss = await rssMb(on.pid);
    // What the desks keep once quiet (the server hands a burst's heap back when it goes quiet).
    await Bun.sleep(QUIET_MS);
    const quietRss = await rssMb(on.pid);
    const offQuietRss = await rssMb(off.pid);
    offTotal += offCreated;
    onTotal += onCreated;
    const offRate = offCreated / seconds;
    const onRate = onCreated / seconds;
    console.log(`round ${round}`);
    console.log(`  jobs off: ${offRate.toFixed(0)}/s, RSS ${offRss} after the burst, ${offQuietRss} later, quiet`);
    console.log(
      `  jobs on:  ${onRate.toFixed(0)}/s, RSS ${onRss} after the burst, ${settledRss} caught up, ${quietRss} ${QUIET_MS / 1000} s later (bar 150 MB)`,
    );
    console.log(`  ratio on/off: ${(onRate / offRate).toFixed(2)} (bar ≥ 0.8)`);
    console.log(
      `  consumers caught up ${caughtUpMs === null ? "not within 60 s" : `${(caughtUpMs / 1000).toFixed(1)} s`} after the burst (bar 5 s)`,
    );
    if (mail)
      console.log(
        `  mails: ${mailsAtEnd} of ${onCreated} written when the burst ended; all ${mailMs === null ? "not within 60 s" : `${(mailMs / 1000).toFixed(1)} s after it`} (bar 5 s)`,
      );
  }
  console.log(`all rounds: ratio on/off ${(onTotal / offTotal).toFixed(2)}`);
  const bytes = await bytesPerTicket(on);
  console.log(
    `bytes per ticket: ${(bytes.perTicket / 1024).toFixed(1)} KB file, ${(bytes.eventsPerTicket / 1024).toFixed(1)} KB of it the event log (${bytes.tickets} tickets; database ${bytes.mainMb.toFixed(0)} MB + WAL ${bytes.walMb.toFixed(0)} MB)`,
  );
} finally {
  await off.stop();
  await on.stop();
  await sink.stop();
}
