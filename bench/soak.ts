/**
 * Does Desk hold on to memory under a long mixed load? A fresh copy of `dist/desk serve` (jobs and
 * consumers on, the SMTP receiver on) takes a steady mixed load for the given minutes: tickets
 * created with Idempotency-Key, replies and notes, list and search reads, and inbound mail over SMTP.
 * VmRSS is sampled every 30 s; the load then stops and RSS is sampled over an idle minute. A leak
 * shows as RSS still climbing across the second half of the load; a cache or allocator that has
 * reached its size shows as a flat second half.
 *
 *   bun bench/soak.ts [minutes=60] [concurrency=8]
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/peers/dovecot";
import { sendRawSmtp } from "../test/peers/smtp-send";

const minutes = Number(process.argv[2] ?? 60);
const concurrency = Number(process.argv[3] ?? 8);
const source = join(import.meta.dir, "..", "dist", "desk");
if (!existsSync(source)) throw new Error("build first: bun run build");

const dir = mkdtempSync(join(tmpdir(), "desk-soak-"));
const binary = join(dir, "desk");
copyFileSync(source, binary);
const port = await freePort();
const smtpPort = await freePort();
const child = Bun.spawn([binary, "serve"], {
  cwd: dir,
  env: {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    DESK_PORT: String(port),
    DESK_SMTP_PORT: String(smtpPort),
    DESK_DATA_DIR: join(dir, "data"),
    DESK_LOG_LEVEL: "warn",
    DESK_INBOUND_DOMAIN: "soak.test",
  },
  stdout: "ignore",
  stderr: "inherit",
});
const base = `http://127.0.0.1:${port}`;
const rssMb = async () => Number(/VmRSS:\s+(\d+)/.exec(await Bun.file(`/proc/${child.pid}/status`).text())?.[1]) / 1024;

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

try {
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await Bun.sleep(50);
  }
  const registered = await call(
    "POST",
    "/v1/auth/register",
    {},
    {
      email: "soak@soak.test",
      password: "correct horse battery staple",
      name: "Soak",
    },
  );
  const bearer = { authorization: `Bearer ${registered.body?.access_token}` };
  const workspace = await call("POST", "/v1/workspaces", bearer, { name: "Soak" });
  const key = await call(
    "POST",
    "/v1/api-keys",
    { ...bearer, "desk-workspace": String(workspace.body?.id) },
    {
      name: "soak",
      scopes: ["tickets:read", "tickets:write", "contacts:read", "contacts:write", "settings:read", "settings:write"],
    },
  );
  const auth = { authorization: `Bearer ${key.body?.secret}` };
  const mailbox = await call("POST", "/v1/mailboxes", auth, { name: "Support", email: "support@soak.test" });
  if (mailbox.status !== 201) console.log("mailbox not created:", mailbox.status, "(inbound mail will be refused)");

  let operations = 0;
  let failures = 0;
  let stop = false;
  const ticketIds: string[] = [];
  const word = () => ["printer", "invoice", "refund", "login", "shipping", "warranty"][Math.floor(Math.random() * 6)]!;
  async function worker(n: number) {
    for (let i = 0; !stop; i++) {
      const pick = i % 10;
      let status = 0;
      if (pick < 3 || ticketIds.length === 0) {
        const res = await call(
          "POST",
          "/v1/tickets",
          { ...auth, "idempotency-key": `soak-${n}-${i}` },
          {
            subject: `Soak ${word()} ${n}-${i}`,
            contact: { email: `customer${i % 500}@soak.test` },
            kind: "reply",
            body_html: `<p>About my ${word()} ${"and more ".repeat(20)}</p>`,
          },
        );
        status = res.status;
        if (typeof res.body?.id === "string") ticketIds.push(res.body.id);
        if (ticketIds.length > 5_000) ticketIds.splice(0, 1_000);
      } else if (pick < 6) {
        const id = ticketIds[Math.floor(Math.random() * ticketIds.length)]!;
        const kind = pick === 5 ? "note" : "reply";
        status = (await call("POST", `/v1/tickets/${id}/messages`, auth, { kind, body_html: `<p>${word()}</p>` }))
          .status;
      } else if (pick < 8) status = (await call("GET", "/v1/tickets?limit=50", auth)).status;
      else if (pick === 8) status = (await call("GET", `/v1/search?q=${word()}`, auth)).status;
      else {
        const raw = [
          `From: Customer ${i % 300} <mailer${i % 300}@soak.test>`,
          "To: support@soak.test",
          `Subject: Mail about ${word()} ${n}-${i}`,
          `Message-ID: <soak-${n}-${i}-${Date.now()}@soak.test>`,
          "Content-Type: text/plain; charset=utf-8",
          "",
          `Hello, my ${word()} is broken.`,
          "",
        ].join("\r\n");
        const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(raw), {
          from: `mailer${i % 300}@soak.test`,
          to: ["support@soak.test"],
        }).catch(() => []);
        status = replies.at(-2)?.code === 250 ? 200 : 500;
      }
      operations++;
      if (status >= 500 || status === 0) failures++;
    }
  }
  const started = performance.now();
  const workers = Array.from({ length: concurrency }, (_, n) => worker(n));
  const samples: { minute: number; rss: number; ops: number }[] = [];
  for (let t = 30; t <= minutes * 60; t += 30) {
    await Bun.sleep(30_000);
    samples.push({ minute: t / 60, rss: await rssMb(), ops: operations });
    console.log(
      `${(t / 60).toFixed(1)} min: RSS ${samples.at(-1)!.rss.toFixed(1)} MB, ${operations} operations, ${failures} failures`,
    );
  }
  stop = true;
  await Promise.all(workers);
  const loadSeconds = (performance.now() - started) / 1000;
  const idle: number[] = [];
  for (let s = 0; s < 4; s++) {
    await Bun.sleep(15_000);
    idle.push(await rssMb());
  }
  const secondHalf = samples.slice(Math.floor(samples.length / 2));
  const slope =
    secondHalf.length > 1
      ? (secondHalf.at(-1)!.rss - secondHalf[0]!.rss) / (secondHalf.at(-1)!.minute - secondHalf[0]!.minute)
      : Number.NaN;
  console.log(
    `soak: ${minutes} min at ${concurrency} clients, ${operations} operations (${(operations / loadSeconds).toFixed(0)}/s), ${failures} failures; ` +
      `RSS max ${Math.max(...samples.map((s) => s.rss)).toFixed(1)} MB, second half slope ${slope.toFixed(2)} MB/min, ` +
      `after a quiet minute ${idle.map((v) => v.toFixed(1)).join(" → ")} MB`,
  );
} finally {
  child.kill("SIGTERM");
  await child.exited;
  rmSync(dir, { recursive: true, force: true });
}
