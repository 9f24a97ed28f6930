import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { OUTBOX_ONLY } from "./mailboxes.check";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const sink = await startSmtpSink();
afterAll(() => sink.stop());
// Default settings (no DESK_SMTP_URL), and the same instance shape with a relay.
// The smtp-sink peer listens on loopback, which a mailbox's SMTP host may reach only when listed.
const plain = await startTestDesk({
  env: { DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
const relayed = await startTestDesk({
  env: { DESK_INBOUND_DOMAIN: "desk.test", DESK_SMTP_URL: `smtp://127.0.0.1:${sink.port}?tls=none` },
});

async function systemMailbox(desk: TestDesk, owner: Member) {
  const res = await desk.api("POST", "/v1/mailboxes", {
    headers: owner.headers,
    body: {
      name: "Help",
      email: `help-${crypto.randomUUID().slice(0, 8)}@acme.test`,
      inbound_kind: "forwarding",
      outbound_kind: "system",
    },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; outbound_via: string; status: string };
}

async function replyOnEmailTicket(desk: TestDesk, owner: Member, mailboxId: string) {
  const ticket = await desk.api("POST", "/v1/tickets", {
    headers: owner.headers,
    body: {
      subject: "Where is my order?",
      channel: "email",
      mailbox_id: mailboxId,
      contact: { email: "carol@customer.test", name: "Carol" },
      kind: "note",
      body_html: "<p>first</p>",
    },
  });
  expect(ticket.status).toBe(201);
  const reply = await desk.api("POST", `/v1/tickets/${ticket.body.id}/messages`, {
    headers: owner.headers,
    body: { kind: "reply", body_html: "<p>It ships today.</p>" },
  });
  expect(reply.status).toBe(201);
  expect(reply.body.delivery_status).toBe("pending");
  expect(reply.body.delivery_via).toBeNull();
  await desk.jobs.drain();
  const messages = await desk.api("GET", `/v1/tickets/${ticket.body.id}/messages`, { headers: owner.headers });
  return messages.body.data.find((m: { id: string }) => m.id === reply.body.id) as {
    id: string;
    delivery_status: string;
    delivery_via: string | null;
    delivery_error: string;
  };
}

describe("a system mailbox without DESK_SMTP_URL says its mail only reaches the outbox", () => {
  test("the mailbox shows outbound_via outbox; its test does not claim delivery and leaves the mailbox active", async () => {
    const { owner } = await createWorkspaceWithOwner(plain);
    const mailbox = await systemMailbox(plain, owner);
    expect(mailbox.outbound_via).toBe("outbox");
    const tested = await plain.api("POST", `/v1/mailboxes/${mailbox.id}/test`, { headers: owner.headers });
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      inbound: { ok: true, category: null, error: "" },
      outbound: { ok: false, category: "not_configured", error: OUTBOX_ONLY },
    });
    const after = await plain.api("GET", `/v1/mailboxes/${mailbox.id}`, { headers: owner.headers });
    expect(after.body).toMatchObject({ status: "active", last_error: "", outbound_via: "outbox" });
    // A mailbox with its own SMTP server never goes to the outbox.
    const own = await plain.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: {
        name: "Own",
        email: `own-${crypto.randomUUID().slice(0, 8)}@acme.test`,
        outbound_kind: "smtp",
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
      },
    });
    expect(own.body.outbound_via).toBe("smtp");
  });

  test("a reply is marked sent with delivery_via outbox (in the API and its message.updated event) and the .eml is in the outbox", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(plain);
    const mailbox = await systemMailbox(plain, owner);
    const message = await replyOnEmailTicket(plain, owner, mailbox.id);
    expect(message).toMatchObject({ delivery_status: "sent", delivery_via: "outbox", delivery_error: "" });
    // The JSON as text on both engines (jsonb on PostgreSQL).
    const events = await rowsOf<{ data: string }>(
      plain.deps.db,
      sql`SELECT CAST(data AS TEXT) AS data FROM events WHERE workspace_id = ${workspace.id} AND type = 'message.updated'`,
    );
    expect(events.map((e) => JSON.parse(e.data).message.delivery_via)).toContain("outbox");
    const outbox = join(plain.dataDir, "outbox");
    const files = readdirSync(outbox).filter((f) =>
      readFileSync(join(outbox, f), "utf8").includes(`<${message.id}@desk.test>`),
    );
    expect(files).toHaveLength(1);
  });
});

describe("with DESK_SMTP_URL the system mailbox's mail goes through the relay", () => {
  test("outbound_via smtp; the test logs in to the relay; a reply reaches it with delivery_via smtp and no outbox file", async () => {
    const { owner } = await createWorkspaceWithOwner(relayed);
    const mailbox = await systemMailbox(relayed, owner);
    expect(mailbox.outbound_via).toBe("smtp");
    const tested = await relayed.api("POST", `/v1/mailboxes/${mailbox.id}/test`, { headers: owner.headers });
    expect(tested.body.outbound).toEqual({ ok: true, category: null, error: "" });
    const before = sink.messages().length;
    const message = await replyOnEmailTicket(relayed, owner, mailbox.id);
    expect(message).toMatchObject({ delivery_status: "sent", delivery_via: "smtp" });
    await sink.waitFor(before + 1);
    expect(sink.messages().some((m) => m.includes(`<${message.id}@desk.test>`))).toBe(true);
    expect(existsSync(join(relayed.dataDir, "outbox"))).toBe(false);
  });
});
