import { first as firstRow } from "../db/store";
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { systemContext } from "../auth/context";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { tickets } from "./tickets.table";
import { eventsAfter, newTicket } from "../../test/kit/tickets";
import { messages } from "./messages.table";
import { addMessage, setDeliveryStatus } from "./tickets.public";
import { DANGEROUS, XSS_VECTORS } from "./messages.xss-corpus";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();
const ticketRow = async (id: string) =>
  firstRow(await desk.deps.db.select().from(tickets).where(eq(tickets.id, id)).limit(1))!;

describe("messages", () => {
  test("access: 401, viewer 403, read-only key 403, other workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const ticket = await newTicket(desk, owner);
    const path = `/v1/tickets/${ticket.id}/messages`;
    const body = { kind: "note", body_html: "x" };
    expect((await desk.api("POST", path, { body })).status).toBe(401);
    expect((await desk.api("POST", path, { headers: viewer.headers, body })).status).toBe(403);
    expect(
      (await desk.api("POST", path, { headers: (await createKey(desk, owner, ["tickets:read"])).headers, body }))
        .status,
    ).toBe(403);
    expect((await desk.api("POST", path, { headers: other.owner.headers, body })).status).toBe(404);
    expect((await desk.api("GET", path, { headers: viewer.headers })).status).toBe(200);
    expect((await ticketRow(ticket.id)).messageCount).toBe(0);
  });

  test("bad input answers 422 and stores nothing", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const path = `/v1/tickets/${ticket.id}/messages`;
    for (const body of [
      {},
      { kind: "shout", body_html: "x" },
      { kind: "reply" },
      { kind: "reply", body_html: 5 },
      { kind: "reply", body_html: "x", cc: ["nope"] },
      { kind: "reply", body_html: "x", status: "gone" },
      { kind: "reply", body_html: "x", extra: 1 },
      { kind: "reply", body_html: "x", attachment_ids: ["01a206fe-0000-7000-8000-000000000000"] },
    ]) {
      const res = await desk.api("POST", path, { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await desk.deps.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toEqual([]);
  });

  test("body_text: plain text is converted to escaped paragraphs, on replies and on ticket create; both forms or neither is 422", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const path = `/v1/tickets/${ticket.id}/messages`;
    const text = "Hello <b>Ann</b> & co,\nline two\n\nThanks";
    const res = await desk.api("POST", path, { headers: owner.headers, body: { kind: "reply", body_text: text } });
    expect(res.status).toBe(201);
    expect(res.body.body_html).toBe("<p>Hello &lt;b&gt;Ann&lt;/b&gt; &amp; co,<br>line two</p><p>Thanks</p>");
    expect(res.body.body_text).toBe(text);
    const stored = firstRow(await desk.deps.db.select().from(messages).where(eq(messages.id, res.body.id)).limit(1))!;
    expect([stored.bodyHtml, stored.bodyText]).toEqual([res.body.body_html, text]);
    expect((await ticketRow(ticket.id)).lastMessagePreview).toBe("Hello <b>Ann</b> & co, line two Thanks");
    for (const body of [
      { kind: "note", body_text: "" },
      { kind: "note", body_text: 5 },
      { kind: "note", body_html: "<p>x</p>", body_text: "x" },
    ]) {
      const bad = await desk.api("POST", path, { headers: owner.headers, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.errors[0].location).toMatch(/^body\.body_(text|html)$/);
    }
    const created = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Plain", body_text: "a < b" },
    });
    expect(created.status).toBe(201);
    const first = await desk.api("GET", `/v1/tickets/${created.body.id}/messages`, { headers: owner.headers });
    expect(first.body.data.map((m: { body_html: string; body_text: string }) => [m.body_html, m.body_text])).toEqual([
      ["<p>a &lt; b</p>", "a < b"],
    ]);
    const both = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Both", body_html: "x", body_text: "x" },
    });
    expect(both.status).toBe(422);
  });

  test("a reply updates the ticket, sets status in the same step and emits message.created, activity, ticket.updated", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner, { contact: { email: "c@x.test" } });
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>Fixed <b>now</b></p>", cc: ["boss@x.test"], status: "solved" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: "reply",
      direction: "outbound",
      body_html: "<p>Fixed <b>now</b></p>",
      body_text: "Fixed now",
      to: ["c@x.test"],
      cc: ["boss@x.test"],
      delivery_status: "none",
      author: { type: "user", user: { id: owner.id }, contact: null },
    });
    const row = await ticketRow(ticket.id);
    expect(row).toMatchObject({ status: "solved", messageCount: 1, lastMessagePreview: "Fixed now" });
    expect(row.firstRespondedAt).not.toBeNull();
    expect(row.solvedAt).not.toBeNull();
    // The reply's own events; reactions to it (assignment on reply) come from consumers after it.
    const evs = (await eventsAfter(desk, workspace.id, seq)).filter((e) => e.causeConsumer === null);
    expect(evs.map((e) => e.type)).toEqual(["activity.created", "message.created", "ticket.updated"]);
    expect(evs[1]!.visibility).toBe("agents");
    expect(evs[2]!.data.changes).toEqual(
      expect.arrayContaining(["status", "message_count", "last_message_at", "first_responded_at"]),
    );
    const note = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: "internal" },
    });
    expect((await ticketRow(ticket.id)).lastMessagePreview).toBe("Fixed now");
    const list = await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: owner.headers });
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([res.body.id, note.body.id]);
  });

  test("visibility: note agents; chat reply public + contact topic; email reply agents and pending delivery", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ctx = systemContext(workspace.id);
    const { createTicket } = await import("./tickets.create");
    const chat = await createTicket(
      ctx,
      { subject: "chat", channel: "chat", contact: { email: "v@x.test" } },
      desk.deps,
    );
    const email = await createTicket(
      ctx,
      { subject: "mail", channel: "email", contact: { email: "m@x.test" } },
      desk.deps,
    );
    const seq = await lastSeq(desk, workspace.id);
    await desk.api("POST", `/v1/tickets/${chat.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: "n" },
    });
    await desk.api("POST", `/v1/tickets/${chat.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "r" },
    });
    const mailReply = await desk.api("POST", `/v1/tickets/${email.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "r" },
    });
    const created = (await eventsAfter(desk, workspace.id, seq)).filter((e) => e.type === "message.created");
    expect(created.map((e) => e.visibility)).toEqual(["agents", "public", "agents"]);
    expect(created[1]!.topics).toContain(`contact:${workspace.id}:${chat.contactId}`);
    expect(created[2]!.topics).toEqual([`workspace:${workspace.id}`]);
    expect(mailReply.body.delivery_status).toBe("pending");
    // The reply's send job (no mailbox: it records its own failure) runs while the awaits below yield;
    // it runs first, so the events after `before` are setDeliveryStatus's alone.
    await desk.jobs.drain();
    const before = await lastSeq(desk, workspace.id);
    const failed = await setDeliveryStatus(ctx, mailReply.body.id, "failed", "550 mailbox unknown", desk.deps);
    expect(failed).toMatchObject({ deliveryStatus: "failed", deliveryError: "550 mailbox unknown" });
    const updated = await eventsAfter(desk, workspace.id, before);
    expect(updated.map((e) => e.type)).toEqual(["message.updated"]);
    expect((updated[0]!.data.message as { delivery_status: string }).delivery_status).toBe("failed");
  });

  test("inbound mail: contact author, reopens, sender_unverified leaves status, original served", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ctx = systemContext(workspace.id);
    const { createTicket } = await import("./tickets.create");
    const { findOrCreateContactByEmail } = await import("../contacts/contacts.service");
    const { transact } = await import("../db/tx");
    const contact = await transact(
      desk.deps.db,
      async (tx) => await findOrCreateContactByEmail(tx, ctx, { email: "cust@x.test", name: "Cust" }, desk.deps.ports),
    );
    const email = {
      from_email: "cust@x.test",
      from_name: "Cust",
      to: ["support@acme.test"],
      cc: [],
      bcc: [],
      subject: "Help",
      reply_to: "",
      auth_failed: false,
      form_sender: "",
      has_quoted: true,
      email_message_id: "<a@x.test>",
      original_path: "originals/a.eml",
    };
    mkdirSync(join(desk.dataDir, "originals"), { recursive: true });
    writeFileSync(join(desk.dataDir, "originals/a.eml"), "Subject: Help\r\n\r\nNew text\r\n> quoted history\r\n");
    const ticket = await createTicket(
      ctx,
      {
        subject: "Help",
        channel: "email",
        contact_id: contact.id,
        body_html: "<p>New text</p>",
        direction: "inbound",
        author: { type: "contact", contactId: contact.id },
        email,
      },
      desk.deps,
    );
    expect(ticket).toMatchObject({ messageCount: 1, status: "open", firstRespondedAt: null });
    expect(ticket.lastCustomerMessageAt).not.toBeNull();
    const [first] = await desk.deps.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(first).toMatchObject({
      direction: "inbound",
      authorType: "contact",
      authorContactId: contact.id,
      hasQuoted: true,
      emailMessageId: "<a@x.test>",
      deliveryStatus: "none",
    });
    const original = await desk.api("GET", `/v1/messages/${first!.id}/original`, { headers: owner.headers });
    expect(original.status).toBe(200);
    expect(original.text).toContain("> quoted history");
    expect(original.headers.get("x-content-type-options")).toBe("nosniff");
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { status: "pending" } });
    await addMessage(
      ctx,
      String(ticket.number),
      {
        kind: "reply",
        body_html: "again",
        direction: "inbound",
        author: { type: "contact", contactId: contact.id },
        email: { ...email, auth_failed: true, original_path: null },
      },
      desk.deps,
    );
    expect((await ticketRow(ticket.id)).status).toBe("pending");
    const acts = await desk.api("GET", `/v1/tickets/${ticket.id}/activities`, { headers: owner.headers });
    const unverified = acts.body.data.at(-1);
    expect(unverified).toMatchObject({
      type: "status_changed",
      data: { from: "pending", to: "pending", reason: "sender_unverified" },
    });
    const m = await addMessage(
      ctx,
      ticket.id,
      { kind: "reply", body_html: "third", direction: "inbound", author: { type: "contact", contactId: contact.id } },
      desk.deps,
    );
    expect((await ticketRow(ticket.id)).status).toBe("open");
    const plain = await desk.api("GET", `/v1/messages/${m.id}/original`, { headers: owner.headers });
    expect(plain.text).toBe("third");
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", `/v1/messages/${m.id}/original`, { headers: other.owner.headers })).status).toBe(404);
  });

  test(`hostile HTML: ${XSS_VECTORS.length} vectors are stored harmless`, async () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(30);
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    for (const vector of XSS_VECTORS) {
      const res = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
        headers: owner.headers,
        body: { kind: "note", body_html: `<p>before</p>${vector}<p>after</p>` },
      });
      expect(res.status, vector).toBe(201);
      const row = firstRow(await desk.deps.db.select().from(messages).where(eq(messages.id, res.body.id)).limit(1))!;
      for (const pattern of DANGEROUS) expect(row.bodyHtml, `${vector} -> ${row.bodyHtml}`).not.toMatch(pattern);
      expect(row.bodyHtml).toContain("before");
    }
  });
});
