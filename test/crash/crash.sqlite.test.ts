import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../peers/dovecot";
import { sendRawSmtp } from "../peers/smtp-send";

/**
 * Crash safety as a standing property: Desk runs as a real process (dist/desk when built, else
 * `bun src/main.ts serve`) under mixed load (API creates and replies with Idempotency-Key, SMTP
 * ingest, uploads, webhook deliveries to a local receiver) and is SIGKILLed three times mid-load,
 * then restarted on the same data dir. Whatever the client saw acknowledged must survive, the event
 * log must stay contiguous and every event must reach the webhook at least once. IMAP polling is
 * left out: it needs a Dovecot peer and adds nothing the SMTP path does not already cover here.
 */

const ROOT = join(import.meta.dir, "..", "..");
const BINARY = join(ROOT, "dist", "desk");
const KILLS = 3;
const LOAD_MS = 2_000;
const SECRET = "crash-test-secret-that-is-long-enough-0123";
const MAILBOX = "support@crash.test";

const work = mkdtempSync(join(tmpdir(), "desk-crash-"));
const dataDir = join(work, "data");
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Ack = { key: string; body: Record<string, unknown>; path: string; id: string };

const acked = { tickets: [] as Ack[], replies: [] as Ack[], uploads: [] as string[], mails: [] as string[] };
/** Keys whose request got no answer (the process died under it): a retry must not be stuck. */
const unanswered: Omit<Ack, "id">[] = [];
const hookDeliveries: string[] = [];

const hook = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    await request.arrayBuffer();
    const id = request.headers.get("desk-event-id");
    if (id) hookDeliveries.push(id);
    return new Response(null, { status: 204 });
  },
});
afterAll(() => hook.stop(true));

let child: ReturnType<typeof Bun.spawn> | null = null;
afterAll(() => child?.kill("SIGKILL"));

async function start(port: number, smtpPort: number): Promise<void> {
  const command = existsSync(BINARY) ? [BINARY, "serve"] : ["bun", join(ROOT, "src", "main.ts"), "serve"];
  child = Bun.spawn(command, {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? work,
      DESK_DATA_DIR: dataDir,
      DESK_HOST: "127.0.0.1",
      DESK_PORT: String(port),
      DESK_SMTP_PORT: String(smtpPort),
      DESK_SECRET: SECRET,
      DESK_LOG_LEVEL: "error",
      DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      DESK_INBOUND_DOMAIN: "crash.test",
    },
    stdout: "ignore",
    stderr: Bun.file(join(work, "desk.log")),
  });
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${port}/v1/events`);
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
  throw new Error(`Desk did not start; see ${join(work, "desk.log")}`);
}

async function kill(): Promise<void> {
  const running = child;
  if (!running) return;
  running.kill("SIGKILL");
  await running.exited;
  child = null;
}

test(
  "acknowledged writes, event order and webhook delivery survive three SIGKILLs under load",
  async () => {
    const port = await freePort();
    const smtpPort = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await start(port, smtpPort);

    // Bootstrap: the first account, a workspace, an API key, a forwarding mailbox and a webhook.
    const json = { "Content-Type": "application/json" };
    const session = (await (
      await fetch(`${base}/v1/auth/register`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: "owner@crash.test", password: "correct horse battery", name: "Owner" }),
      })
    ).json()) as { access_token: string };
    const userAuth = { ...json, Authorization: `Bearer ${session.access_token}` };
    const workspace = (await (
      await fetch(`${base}/v1/workspaces`, {
        method: "POST",
        headers: userAuth,
        body: JSON.stringify({ name: "Crash" }),
      })
    ).json()) as { id: string };
    const keyResponse = await fetch(`${base}/v1/api-keys`, {
      method: "POST",
      headers: { ...userAuth, "DESK-Workspace": workspace.id },
      body: JSON.stringify({
        name: "load",
        scopes: ["tickets:read", "tickets:write", "settings:read", "settings:write"],
      }),
    });
    expect(keyResponse.status).toBe(201);
    const { secret } = (await keyResponse.json()) as { secret: string };
    const auth = { Authorization: `Bearer ${secret}` };
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { ...json, ...auth, ...(init.headers ?? {}) } });
    expect(
      (await api("/v1/mailboxes", { method: "POST", body: JSON.stringify({ name: "Support", email: MAILBOX }) }))
        .status,
    ).toBe(201);
    // A key may only subscribe to what it can read, so the owner sets up the all-events webhook.
    const webhookResponse = await fetch(`${base}/v1/webhooks`, {
      method: "POST",
      headers: { ...userAuth, "DESK-Workspace": workspace.id },
      body: JSON.stringify({ url: `http://127.0.0.1:${hook.port}/hook`, events: ["*"] }),
    });
    expect(webhookResponse.status).toBe(201);
    // Events from here on must reach the webhook; earlier ones predate it.
    const before = (await (await api("/v1/events?limit=1000")).json()) as { data: { seq: number }[] };
    const firstHookSeq = (before.data.at(-1)?.seq ?? 0) + 1;

    let counter = 0;
    let stopped = false;
    const post = async (path: string, body: Record<string, unknown>, list: Ack[]) => {
      const key = `crash-${++counter}`;
      try {
        const response = await api(path, {
          method: "POST",
          headers: { "Idempotency-Key": key },
          body: JSON.stringify(body),
        });
        if (response.status === 201) list.push({ key, body, path, id: ((await response.json()) as { id: string }).id });
      } catch {
        unanswered.push({ key, body, path });
      }
    };

    const apiWorker = async () => {
      while (!stopped) {
        await post(
          "/v1/tickets",
          { subject: `load ${counter}`, contact: { email: "c@customer.test" }, body_html: "<p>hi</p>" },
          acked.tickets,
        );
        const target = acked.tickets.at(-1);
        if (target)
          await post(`/v1/tickets/${target.id}/messages`, { kind: "note", body_html: "<p>note</p>" }, acked.replies);
        // Bounded load: enough to have writes in flight at the kill, few enough to check them all.
        await Bun.sleep(40);
      }
    };
    const smtpWorker = async () => {
      while (!stopped) {
        const messageId = `<crash-${++counter}@customer.test>`;
        const raw = `From: carol@customer.test\r\nTo: ${MAILBOX}\r\nSubject: mail ${counter}\r\nMessage-ID: ${messageId}\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nHello\r\n`;
        try {
          const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(raw), {
            from: "carol@customer.test",
            to: [MAILBOX],
          });
          const data = replies.findIndex((r) => r.code === 354);
          if (data >= 0 && replies[data + 1]?.code === 250) acked.mails.push(messageId);
        } catch {
          // The receiver died under the message: not acknowledged.
        }
        await Bun.sleep(40);
      }
    };
    const uploadWorker = async () => {
      while (!stopped) {
        const form = new FormData();
        form.set("file", new File([`upload ${++counter}`], "note.txt", { type: "text/plain" }));
        try {
          const response = await fetch(`${base}/v1/attachments`, { method: "POST", headers: auth, body: form });
          if (response.status === 201) acked.uploads.push(((await response.json()) as { id: string }).id);
        } catch {
          await Bun.sleep(20);
        }
        await Bun.sleep(50);
      }
    };

    for (let round = 0; round < KILLS; round++) {
      stopped = false;
      const load = Promise.all([apiWorker(), apiWorker(), smtpWorker(), uploadWorker()]);
      // The kill lands somewhere inside the load, not at a quiet moment.
      await Bun.sleep(LOAD_MS - 500 + Math.floor(Math.random() * 1_000));
      // Workers stop sending at the kill: only requests already in flight go unanswered.
      stopped = true;
      await kill();
      await load;
      await start(port, smtpPort);
    }

    console.log(`crash test: load done, ${acked.tickets.length} tickets, ${unanswered.length} unanswered`);
    const ackedTickets = acked.tickets.length;
    const ackedReplies = acked.replies.length;
    // No idempotency key left stuck: an unanswered request retried answers (original or new), never 409.
    for (const lost of unanswered) {
      const response = await api(lost.path, {
        method: "POST",
        headers: { "Idempotency-Key": lost.key },
        body: JSON.stringify(lost.body),
      });
      expect({ key: lost.key, status: response.status }).toEqual({ key: lost.key, status: 201 });
      const id = ((await response.json()) as { id: string }).id;
      (lost.path === "/v1/tickets" ? acked.tickets : acked.replies).push({ ...lost, id });
    }
    // An acknowledged key retried answers the original.
    for (const done of [...acked.tickets.slice(0, 20), ...acked.replies.slice(0, 20)]) {
      const response = await api(done.path, {
        method: "POST",
        headers: { "Idempotency-Key": done.key },
        body: JSON.stringify(done.body),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get("idempotent-replayed")).toBe("true");
      expect(((await response.json()) as { id: string }).id).toBe(done.id);
    }

    // Every acknowledged ticket, reply and upload is there.
    for (const ticket of acked.tickets) expect((await api(`/v1/tickets/${ticket.id}`)).status).toBe(200);
    const byTicket = new Map<string, Set<string>>();
    for (const reply of acked.replies) {
      const ticketId = reply.path.split("/")[3]!;
      let ids = byTicket.get(ticketId);
      if (!ids) {
        const messages = (await (await api(`/v1/tickets/${ticketId}/messages`)).json()) as { data: { id: string }[] };
        ids = new Set(messages.data.map((m) => m.id));
        byTicket.set(ticketId, ids);
      }
      expect(ids.has(reply.id)).toBe(true);
    }
    for (const id of acked.uploads) {
      const response = await fetch(`${base}/v1/attachments/${id}`, { headers: auth, redirect: "manual" });
      expect([200, 302, 303, 307]).toContain(response.status);
    }

    // The event log: seq contiguous from 1, each once.
    const seqs: number[] = [];
    const eventIds: string[] = [];
    for (let since = 0; ; ) {
      const page = (await (await api(`/v1/events?since=${since}&limit=1000`)).json()) as {
        data: { id: string; seq: number }[];
        next_cursor: string | null;
      };
      for (const event of page.data) {
        seqs.push(event.seq);
        if (event.seq >= firstHookSeq) eventIds.push(event.id);
      }
      if (!page.next_cursor) break;
      since = Number(page.next_cursor);
    }
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    console.log(`crash test: checked writes, ${seqs.length} events; draining webhooks`);

    // Drain: every event from the webhook's creation on reaches the receiver at least once.
    const deadline = performance.now() + 60_000;
    let missing = eventIds.filter((id) => !hookDeliveries.includes(id));
    while (missing.length && performance.now() < deadline) {
      await Bun.sleep(250);
      const seen = new Set(hookDeliveries);
      missing = missing.filter((id) => !seen.has(id));
    }
    console.log(`crash test: ${missing.length} of ${eventIds.length} events not delivered`);
    expect(missing).toEqual([]);
    const duplicates = hookDeliveries.length - new Set(hookDeliveries).size;

    // The stored state, read after a clean stop: mail once each, no key running, no job running.
    child?.kill("SIGTERM");
    await child?.exited;
    child = null;
    const db = new Database(join(dataDir, "desk.db"), { readonly: true });
    try {
      for (const messageId of acked.mails) {
        const bare = messageId.slice(1, -1);
        const row = db
          .query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM messages WHERE email_message_id IN (?, ?)")
          .get(messageId, bare);
        expect({ messageId, stored: row?.n }).toEqual({ messageId, stored: 1 });
      }
      const twice = db
        .query<{ n: number }, []>(
          "SELECT count(*) AS n FROM (SELECT email_message_id FROM messages WHERE email_message_id IS NOT NULL GROUP BY workspace_id, email_message_id HAVING count(*) > 1)",
        )
        .get();
      expect(twice?.n).toBe(0);
      const stuckKeys = db
        .query<{ n: number }, []>("SELECT count(*) AS n FROM idempotency_keys WHERE state = 'running'")
        .get();
      expect(stuckKeys?.n).toBe(0);
      const stuckJobs = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE state = 'running'").get();
      expect(stuckJobs?.n).toBe(0);
    } finally {
      db.close();
    }

    const writes = ackedTickets + ackedReplies + acked.uploads.length + acked.mails.length;
    console.log(
      `crash test (${existsSync(BINARY) ? "dist/desk" : "bun src/main.ts"}): ${writes} writes acknowledged ` +
        `(${ackedTickets} tickets, ${ackedReplies} replies, ` +
        `${acked.mails.length} mails, ${acked.uploads.length} uploads), ${unanswered.length} unanswered retried, ` +
        `${KILLS} kills, ${seqs.length} events, ${hookDeliveries.length} webhook deliveries, ${duplicates} duplicates`,
    );
  },
  { timeout: 170_000 },
);
