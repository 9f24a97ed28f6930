import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { attachments } from "../attachments/attachments.table";
import { auditLogs } from "../audit/audit.table";
import { contacts } from "../contacts/contacts.table";
import { events } from "../events/events.table";
import { manualClock } from "../lib/clock";
import { notifications } from "../notifications/notifications.table";
import { tickets } from "../tickets/tickets.table";
import { messages } from "../tickets/messages.table";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { visitorSessions, widgetUploads } from "./widget.table";
import { lastSeq } from "../../test/kit/events";

const clock = manualClock(new Date());
const desk = await startTestDesk({ clock });
const db = desk.deps.db;

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithOwner>>;

async function newWorkspace(): Promise<Workspace> {
  return createWorkspaceWithOwner(desk);
}

async function rotateSecret(w: Workspace): Promise<string> {
  const res = await desk.api("POST", "/v1/workspace/widget-secret/rotate", { headers: w.owner.headers });
  expect(res.status).toBe(200);
  return res.body.secret as string;
}

async function session(w: Workspace, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return desk.api("POST", "/v1/widget/session", { headers, body: { key: w.workspace.widgetKey, ...body } });
}

async function visitor(w: Workspace, body: Record<string, unknown> = {}) {
  const res = await session(w, body);
  expect(res.status).toBe(200);
  return {
    token: res.body.visitor_token as string,
    contactId: res.body.contact.id as string,
    headers: { authorization: `Visitor ${res.body.visitor_token}` },
    body: res.body,
  };
}

async function chat(v: { headers: Record<string, string> }, body = "Hello, my order is late") {
  const res = await desk.api("POST", "/v1/widget/conversations", { headers: v.headers, body: { body } });
  expect(res.status).toBe(201);
  return res.body as { conversation: { id: string; number: number }; message: Record<string, unknown> };
}

const eventsAfter = async (workspaceId: string, seq: number) =>
  (await db.select().from(events).where(eq(events.workspaceId, workspaceId)))
    .filter((e) => e.seq > seq)
    .sort((a, b) => a.seq - b.seq);
const count = (rows: unknown[]) => rows.length;

function multipart(name: string, bytes: Uint8Array, type = "application/octet-stream") {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], name, { type }));
  const request = new Request("http://x", { method: "POST", body: form });
  return { raw: request.body!, contentType: request.headers.get("content-type")! };
}

async function upload(v: { headers: Record<string, string> }, name: string, bytes: Uint8Array) {
  const { raw, contentType } = multipart(name, bytes);
  const body = await new Response(raw).arrayBuffer();
  return desk.api("POST", "/v1/widget/attachments", {
    headers: { ...v.headers, "content-type": contentType },
    raw: body,
  });
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

describe("GET /v1/widget/config", () => {
  test("answers the look of a known, enabled widget; 404 for an unknown key or a disabled widget; 422 without key", async () => {
    const w = await newWorkspace();
    await desk.api("PATCH", "/v1/workspace", {
      headers: w.owner.headers,
      body: { settings: { brand_color: "#ff5500", help_center_enabled: true } },
    });
    const res = await desk.api("GET", `/v1/widget/config?key=${w.workspace.widgetKey}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      workspace_name: w.workspace.name,
      brand_color: "#ff5500",
      greeting: "Hi! How can we help?",
      help_center_url: `${desk.deps.config.baseUrl}/help/${w.workspace.slug}`,
      require_email: false,
      avatar_url: null,
      launcher_url: null,
      locale: "en",
      messages: expect.objectContaining({ open_chat: "Open chat" }),
    });
    expect((await desk.api("GET", "/v1/widget/config?key=wk_nope")).status).toBe(404);
    const missing = await desk.api("GET", "/v1/widget/config");
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].location).toBe("query.key");
    await desk.api("PATCH", "/v1/widget/settings", { headers: w.owner.headers, body: { enabled: false } });
    const disabled = await desk.api("GET", `/v1/widget/config?key=${w.workspace.widgetKey}`);
    expect(disabled.status).toBe(404);
    expect(disabled.body).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("POST /v1/widget/session", () => {
  test("a new session: desk_vis_ token stored only as its hash, an own contact, a widget_ws gateway token", async () => {
    const w = await newWorkspace();
    const seq = await lastSeq(desk, w.workspace.id);
    const res = await session(w, { name: "Vera", email: "vera@example.test" });
    expect(res.status).toBe(200);
    expect(res.body.visitor_token).toMatch(/^desk_vis_[A-Za-z0-9_-]{43}$/);
    expect(res.body.contact).toMatchObject({ email: "vera@example.test", name: "Vera", avatar_url: null });
    expect(res.body.gateway_url).toBe(
      `${desk.deps.config.baseUrl.replace(/^http/, "ws")}/v1/widget/realtime?token=${res.body.ws_token}`,
    );
    const claims = await desk.deps.tokens.verify<{ wid: string; cid: string }>(res.body.ws_token, "widget_ws");
    expect(claims).toMatchObject({ wid: w.workspace.id, cid: res.body.contact.id });
    const stored = await db.select().from(visitorSessions).where(eq(visitorSessions.workspaceId, w.workspace.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(res.body.visitor_token.slice(9));
    expect(JSON.stringify(stored)).not.toContain(res.body.visitor_token);
    expect((await eventsAfter(w.workspace.id, seq)).map((e) => e.type)).toEqual(["contact.created"]);

    // Resuming: same token, same contact; a name fills nothing already there, nothing new is created.
    const resumed = await session(w, { visitor_token: res.body.visitor_token, name: "Other" });
    expect(resumed.body.visitor_token).toBe(res.body.visitor_token);
    expect(resumed.body.contact).toEqual(res.body.contact);
    expect(await db.select().from(visitorSessions).where(eq(visitorSessions.workspaceId, w.workspace.id))).toHaveLength(
      1,
    );

    // A forged or foreign token starts afresh rather than reaching anyone's session.
    const forged = await session(w, { visitor_token: `desk_vis_${"A".repeat(43)}` });
    expect(forged.body.visitor_token).not.toBe(res.body.visitor_token);
    expect(forged.body.contact.id).not.toBe(res.body.contact.id);
    const other = await newWorkspace();
    const elsewhere = await session(other, { visitor_token: res.body.visitor_token });
    expect(elsewhere.body.contact.id).not.toBe(res.body.contact.id);
  });

  test("an unverified visitor never becomes an existing contact, even with their email", async () => {
    const w = await newWorkspace();
    const customer = await desk.api("POST", "/v1/contacts", {
      headers: w.owner.headers,
      body: { email: "boss@example.test", name: "Boss" },
    });
    expect(customer.status).toBe(201);
    const impostor = await visitor(w, { email: "Boss@example.test" });
    expect(impostor.contactId).not.toBe(customer.body.id);
    expect(impostor.body.contact.email).toBe("boss@example.test");
    const stored = first(await db.select().from(contacts).where(eq(contacts.id, impostor.contactId)).limit(1))!;
    expect(stored.email).toBeNull();
    // The real customer's chat stays out of the impostor's reach.
    const list = await desk.api("GET", "/v1/widget/conversations", { headers: impostor.headers });
    expect(list.body.data).toEqual([]);
  });

  test("identity verification: a right user_hash links the contact with that external_id; a wrong one stores nothing", async () => {
    const w = await newWorkspace();
    const secret = await rotateSecret(w);
    const hash = createHmac("sha256", secret).update("user-42").digest("hex");
    const verified = await visitor(w, { user_id: "user-42", user_hash: hash, email: "u42@example.test" });
    const row = first(await db.select().from(contacts).where(eq(contacts.id, verified.contactId)).limit(1))!;
    expect(row).toMatchObject({ externalId: "user-42", email: "u42@example.test" });
    const other = await visitor(w, { user_id: "user-42", user_hash: hash.toUpperCase() });
    expect(other.contactId).toBe(verified.contactId);
    expect(other.token).not.toBe(verified.token);
    const convo = await chat(verified);
    const seen = await desk.api("GET", "/v1/widget/conversations", { headers: other.headers });
    expect(seen.body.data.map((c: { id: string }) => c.id)).toEqual([convo.conversation.id]);

    const sessionsBefore = count(await db.select().from(visitorSessions));
    const contactsBefore = count(await db.select().from(contacts).where(eq(contacts.workspaceId, w.workspace.id)));
    const wrongHash = createHmac("sha256", "not-the-secret").update("user-42").digest("hex");
    const wrong = await session(w, { user_id: "user-42", user_hash: wrongHash });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ status: 401, code: "identity_unverified" });
    const halfway = await session(w, { user_id: "user-42" });
    expect(halfway.status).toBe(422);
    expect(halfway.body.errors[0].location).toBe("body.user_hash");
    const notHex = await session(w, { user_id: "user-42", user_hash: "zz" });
    expect(notHex.status).toBe(422);
    expect(count(await db.select().from(visitorSessions))).toBe(sessionsBefore);
    expect(count(await db.select().from(contacts).where(eq(contacts.workspaceId, w.workspace.id)))).toBe(
      contactsBefore,
    );
  });

  test("require_email: 422 at body.email until an email is given; nothing stored before", async () => {
    const w = await newWorkspace();
    await desk.api("PATCH", "/v1/widget/settings", { headers: w.owner.headers, body: { require_email: true } });
    const res = await session(w, { name: "No Mail" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed", errors: [{ location: "body.email" }] });
    expect(await db.select().from(visitorSessions).where(eq(visitorSessions.workspaceId, w.workspace.id))).toEqual([]);
    expect(await db.select().from(contacts).where(eq(contacts.workspaceId, w.workspace.id))).toEqual([]);
    const bad = await session(w, { email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.email");
    expect((await session(w, { email: "ok@example.test" })).status).toBe(200);
  });

  test("allowed_origins: a page of another site is refused 403; a listed one and servers without Origin pass", async () => {
    const w = await newWorkspace();
    const patched = await desk.api("PATCH", "/v1/widget/settings", {
      headers: w.owner.headers,
      body: { allowed_origins: ["https://shop.example", "https://*.example.org"] },
    });
    expect(patched.body.allowed_origins).toEqual(["https://shop.example", "https://*.example.org"]);
    const refused = await session(w, {}, { origin: "https://evil.example" });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 403, code: "forbidden" });
    // The page of a site not listed cannot read the refusal either (src/widget/widget.edge.test.ts).
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(await db.select().from(visitorSessions).where(eq(visitorSessions.workspaceId, w.workspace.id))).toEqual([]);
    expect((await session(w, {}, { origin: "https://shop.example" })).status).toBe(200);
    expect((await session(w, {}, { origin: "https://help.example.org" })).status).toBe(200);
    expect((await session(w, {}, { origin: "https://example.org.evil.test" })).status).toBe(403);
    expect((await session(w)).status).toBe(200);
    // CORS on the visitor routes follows the same list.
    const v = await visitor(w);
    const listed = await desk.api("GET", "/v1/widget/conversations", {
      headers: { ...v.headers, origin: "https://shop.example" },
    });
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    const unlisted = await desk.api("GET", "/v1/widget/conversations", {
      headers: { ...v.headers, origin: "https://evil.example" },
    });
    expect(unlisted.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("CORS preflight answers any page; admin settings are not opened to other sites", async () => {
    const res = await desk.fetch(
      new Request("http://localhost/v1/widget/conversations", {
        method: "OPTIONS",
        headers: {
          origin: "https://site.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type",
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://site.example");
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
    const settings = await desk.fetch(
      new Request("http://localhost/v1/widget/settings", {
        method: "OPTIONS",
        headers: { origin: "https://x.example" },
      }),
    );
    expect(settings.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("visitor routes", () => {
  test("401 without, with a malformed, a forged or an expired visitor token; a disabled widget ends access", async () => {
    const w = await newWorkspace();
    const v = await visitor(w);
    const paths: Array<[string, string]> = [
      ["GET", "/v1/widget/conversations"],
      ["POST", "/v1/widget/conversations"],
      ["GET", "/v1/widget/conversations/x/messages"],
      ["POST", "/v1/widget/conversations/x/messages"],
      ["POST", "/v1/widget/conversations/x/handoff"],
      ["POST", "/v1/widget/attachments"],
      ["POST", "/v1/widget/gateway-token"],
    ];
    for (const [method, path] of paths) {
      for (const authorization of [
        undefined,
        "Visitor desk_vis_short",
        `Visitor desk_vis_${"B".repeat(43)}`,
        `Bearer ${w.owner.token}`,
      ]) {
        const res = await desk.api(method, path, {
          headers: authorization ? { authorization } : {},
          body: { body: "hi" },
        });
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ status: 401, code: "unauthorized" });
      }
    }
    expect((await desk.api("GET", "/v1/widget/conversations", { headers: v.headers })).status).toBe(200);
    clock.advance(31 * 24 * 3600 * 1000);
    try {
      expect((await desk.api("GET", "/v1/widget/conversations", { headers: v.headers })).status).toBe(401);
    } finally {
      clock.advance(-31 * 24 * 3600 * 1000);
    }
    await desk.api("PATCH", "/v1/widget/settings", { headers: w.owner.headers, body: { enabled: false } });
    expect((await desk.api("GET", "/v1/widget/conversations", { headers: v.headers })).status).toBe(401);
  });

  test("a chat: a chat ticket with the visitor's message; events; the visitor sees replies, never notes or agent-only fields", async () => {
    const w = await newWorkspace();
    const v = await visitor(w, { name: "Ada", email: "ada@example.test" });
    const seq = await lastSeq(desk, w.workspace.id);
    const started = await chat(v, "<b>Hi</b> there\nsecond line");
    const ticket = first(await db.select().from(tickets).where(eq(tickets.id, started.conversation.id)).limit(1))!;
    expect(ticket).toMatchObject({
      channel: "chat",
      contactId: v.contactId,
      subject: "<b>Hi</b> there",
      status: "open",
    });
    expect(started.message).toMatchObject({
      conversation_id: ticket.id,
      direction: "inbound",
      author: { type: "contact", name: "Ada" },
      body_text: "<b>Hi</b> there\nsecond line",
    });
    expect(started.message.body_html).not.toContain("<b>");
    const emitted = await eventsAfter(w.workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual(["ticket.created", "message.created"]);
    expect(emitted[1]).toMatchObject({ visibility: "public" });
    expect(emitted[1]!.topics).toContain(`contact:${w.workspace.id}:${v.contactId}`);

    const note = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: w.owner.headers,
      body: { kind: "note", body_html: "<p>secret internal note</p>" },
    });
    expect(note.status).toBe(201);
    const reply = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: w.owner.headers,
      body: { kind: "reply", body_html: "<p>On its way!</p>" },
    });
    expect(reply.status).toBe(201);
    const thread = await desk.api("GET", `/v1/widget/conversations/${ticket.id}/messages`, { headers: v.headers });
    expect(thread.status).toBe(200);
    expect(thread.body.data.map((m: { body_text: string }) => m.body_text)).toEqual([
      "<b>Hi</b> there\nsecond line",
      "On its way!",
    ]);
    expect(thread.text).not.toContain("secret internal note");
    for (const field of [
      "reply_to",
      "auth_failed",
      "form_sender",
      "from_email",
      "to",
      "cc",
      "bcc",
      "kind",
      "delivery_status",
    ])
      expect(Object.keys(thread.body.data[1])).not.toContain(field);
    expect(thread.body.data[1].author).toEqual({ type: "user", name: w.owner.name, avatar_url: null });
    expect(thread.text).not.toContain(w.owner.email);

    const more = await desk.api("POST", `/v1/widget/conversations/${ticket.id}/messages`, {
      headers: v.headers,
      body: { body: "Thanks!" },
    });
    expect(more.status).toBe(201);
    expect(more.body).toMatchObject({ direction: "inbound", body_text: "Thanks!" });
    const stored = await db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(stored.map((m) => m.kind)).toEqual(["reply", "note", "reply", "reply"]);
    const list = await desk.api("GET", "/v1/widget/conversations", { headers: v.headers });
    expect(list.body).toMatchObject({ data: [{ id: ticket.id, number: ticket.number }], next_cursor: null });
  });

  test("another visitor's conversation and another workspace's are 404 like a missing one, and nothing changes", async () => {
    const w = await newWorkspace();
    const mine = await visitor(w);
    const theirs = await visitor(w);
    const elsewhere = await visitor(await newWorkspace());
    const convo = await chat(mine);
    const id = convo.conversation.id;
    // An agent's email ticket of the visitor's own contact is not a chat either (mailed from a mailbox).
    await desk.api("POST", "/v1/mailboxes", {
      headers: w.owner.headers,
      body: { name: "Help", email: `help-${id}@acme.test` },
    });
    const emailTicket = await desk.api("POST", "/v1/tickets", {
      headers: w.owner.headers,
      body: { subject: "Email", contact_id: mine.contactId, body_html: "<p>x</p>", channel: "email" },
    });
    expect(emailTicket.status).toBe(201);
    const before = count(await db.select().from(messages));
    for (const v of [theirs, elsewhere]) {
      for (const [method, path] of [
        ["GET", `/v1/widget/conversations/${id}/messages`],
        ["POST", `/v1/widget/conversations/${id}/messages`],
        ["POST", `/v1/widget/conversations/${id}/handoff`],
      ] as const) {
        const res = await desk.api(method, path, { headers: v.headers, body: { body: "let me in" } });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ status: 404, code: "not_found", detail: "Conversation not found." });
      }
      const list = await desk.api("GET", "/v1/widget/conversations", { headers: v.headers });
      expect(list.body.data).toEqual([]);
    }
    const missing = await desk.api("GET", "/v1/widget/conversations/0190aaaa-0000-7000-8000-000000000000/messages", {
      headers: mine.headers,
    });
    expect(missing.body).toEqual({ status: 404, code: "not_found", detail: "Conversation not found." });
    const viaEmail = await desk.api("GET", `/v1/widget/conversations/${emailTicket.body.id}/messages`, {
      headers: mine.headers,
    });
    expect(viaEmail.status).toBe(404);
    expect(count(await db.select().from(messages))).toBe(before);
  });

  test("bad input is 422 at the field and stores nothing", async () => {
    const w = await newWorkspace();
    const v = await visitor(w);
    const before = count(await db.select().from(tickets).where(eq(tickets.workspaceId, w.workspace.id)));
    for (const [body, location] of [
      [{ body: "   " }, "body.body"],
      [{ body: "x".repeat(5001) }, "body.body"],
      [{ body: "hi", extra: 1 }, "body"],
      [{ body: 12 }, "body.body"],
      [{ body: "hi", attachment_ids: ["not-mine"] }, "body.attachment_ids.0"],
    ] as const) {
      const res = await desk.api("POST", "/v1/widget/conversations", { headers: v.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors[0].location).toBe(location);
    }
    expect(count(await db.select().from(tickets).where(eq(tickets.workspaceId, w.workspace.id)))).toBe(before);
  });

  test("attachments: sniffed, limited, disguised files refused, only the uploader may attach them", async () => {
    const w = await newWorkspace();
    const v = await visitor(w);
    const other = await visitor(w);
    const stored = async () =>
      count(await db.select().from(attachments).where(eq(attachments.workspaceId, w.workspace.id)));

    const ok = await upload(v, "screenshot.png", PNG);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ filename: "screenshot.png", content_type: "image/png", size_bytes: PNG.length });
    expect(
      first(await db.select().from(widgetUploads).where(eq(widgetUploads.attachmentId, ok.body.id)).limit(1)),
    ).toMatchObject({
      contactId: v.contactId,
    });

    const before = await stored();
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]);
    for (const [name, bytes] of [
      ["photo.png", exe],
      ["page.txt", new TextEncoder().encode("<!DOCTYPE html><script>alert(1)</script>")],
      ["image.svg", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
      ["notes.pdf", new TextEncoder().encode("just text")],
      ["invoice.exe", PNG],
    ] as const) {
      const res = await upload(v, name, bytes);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "unsupported_file", errors: [{ location: "body.file" }] });
    }
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PNG);
    const tooBig = await upload(v, "big.png", big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ status: 413, code: "too_large" });
    const notMultipart = await desk.api("POST", "/v1/widget/attachments", {
      headers: { ...v.headers, "content-type": "application/json" },
      raw: "{}",
    });
    expect(notMultipart.status).toBe(422);
    expect(await stored()).toBe(before);

    // Another visitor cannot attach it; its owner can, and the thread shows it.
    const stolen = await desk.api("POST", "/v1/widget/conversations", {
      headers: other.headers,
      body: { body: "look", attachment_ids: [ok.body.id] },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors[0].location).toBe("body.attachment_ids.0");
    const sent = await desk.api("POST", "/v1/widget/conversations", {
      headers: v.headers,
      body: { body: "", attachment_ids: [ok.body.id] },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.conversation.subject).toBe("Chat: file shared");
    expect(sent.body.message.attachments.map((a: { id: string }) => a.id)).toEqual([ok.body.id]);
    const file = await desk.api(
      "GET",
      new URL(sent.body.message.attachments[0].url).pathname + new URL(sent.body.message.attachments[0].url).search,
    );
    expect(file.status).toBe(200);
  });

  test("handoff tells the assignee, or every owner and admin when nobody is assigned", async () => {
    const w = await newWorkspace();
    const admin = await addMember(desk, w.workspace.id, "admin");
    const agent = await addMember(desk, w.workspace.id, "agent");
    const v = await visitor(w);
    const convo = await chat(v);
    const id = convo.conversation.id;
    const res = await desk.api("POST", `/v1/widget/conversations/${id}/handoff`, { headers: v.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requested: true, notified: 2 });
    const told = async (userId: string) =>
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.type, "ai_handoff")));
    expect(await told(w.owner.id)).toHaveLength(1);
    expect(await told(admin.id)).toHaveLength(1);
    expect(await told(agent.id)).toHaveLength(0);
    expect((await told(admin.id))[0]!.ticket).toEqual({
      id,
      number: convo.conversation.number,
      subject: "Hello, my order is late",
    });
    await desk.api("PATCH", `/v1/tickets/${id}`, { headers: w.owner.headers, body: { assignee_id: agent.id } });
    const again = await desk.api("POST", `/v1/widget/conversations/${id}/handoff`, { headers: v.headers });
    expect(again.body).toEqual({ requested: true, notified: 1 });
    expect(await told(agent.id)).toHaveLength(1);
  });

  test("writes past the visitor's budget answer 429 with Retry-After", async () => {
    const w = await newWorkspace();
    const v = await visitor(w);
    const convo = await chat(v);
    let last = 0;
    for (let i = 0; i < 25 && last !== 429; i++) {
      const res = await desk.api("POST", `/v1/widget/conversations/${convo.conversation.id}/messages`, {
        headers: v.headers,
        body: { body: `m${i}` },
      });
      last = res.status;
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(last).toBe(429);
    // Another visitor is not held back by this one's budget.
    const other = await visitor(w);
    expect(
      (await desk.api("POST", "/v1/widget/conversations", { headers: other.headers, body: { body: "hi" } })).status,
    ).toBe(201);
  });

  test("the gateway token route gives a fresh widget_ws token for the visitor's contact", async () => {
    const w = await newWorkspace();
    const v = await visitor(w);
    const res = await desk.api("POST", "/v1/widget/gateway-token", { headers: v.headers });
    expect(res.status).toBe(200);
    const claims = await desk.deps.tokens.verify<{ wid: string; cid: string }>(res.body.ws_token, "widget_ws");
    expect(claims).toMatchObject({ wid: w.workspace.id, cid: v.contactId });
  });
});

describe("GET/PATCH /v1/widget/settings", () => {
  test("admins read and change them: 401, 403 for agents and keys without the scope, 422 at the field, audit", async () => {
    const w = await newWorkspace();
    const agent = await addMember(desk, w.workspace.id, "agent");
    const reader = await createKey(desk, w.owner, ["settings:read"]);
    expect((await desk.api("GET", "/v1/widget/settings")).status).toBe(401);
    expect((await desk.api("GET", "/v1/widget/settings", { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("GET", "/v1/widget/settings", { headers: reader.headers })).status).toBe(200);
    const denied = await desk.api("PATCH", "/v1/widget/settings", {
      headers: reader.headers,
      body: { enabled: false },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("forbidden");
    const read = await desk.api("GET", "/v1/widget/settings", { headers: w.owner.headers });
    expect(read.body).toEqual({
      enabled: true,
      greeting: "Hi! How can we help?",
      require_email: false,
      allowed_origins: [],
      reply_mailbox_id: null,
      widget_key: w.workspace.widgetKey,
      snippet: `<script src="${desk.deps.config.baseUrl}/widget.js" data-key="${w.workspace.widgetKey}" async></script>`,
    });
    for (const [body, location] of [
      [{ allowed_origins: ["https://shop.example/path"] }, "body.allowed_origins.0"],
      [{ allowed_origins: ["javascript:alert(1)"] }, "body.allowed_origins.0"],
      [{ greeting: "x".repeat(501) }, "body.greeting"],
      [{ enabled: "yes" }, "body.enabled"],
      [{ widget_key: "mine" }, "body"],
    ] as const) {
      const res = await desk.api("PATCH", "/v1/widget/settings", { headers: w.owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe(location);
    }
    const saved = await desk.api("PATCH", "/v1/widget/settings", {
      headers: w.owner.headers,
      body: { greeting: "Hello from Acme", allowed_origins: ["HTTPS://Shop.Example/"] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ greeting: "Hello from Acme", allowed_origins: ["https://shop.example"] });
    const config = await desk.api("GET", `/v1/widget/config?key=${w.workspace.widgetKey}`);
    expect(config.body.greeting).toBe("Hello from Acme");
    const audits = await db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, w.workspace.id), eq(auditLogs.action, "widget.settings_updated")));
    expect(audits).toHaveLength(1);
    // Another workspace's admin changes only their own.
    const other = await newWorkspace();
    await desk.api("PATCH", "/v1/widget/settings", { headers: other.owner.headers, body: { greeting: "Theirs" } });
    expect((await desk.api("GET", "/v1/widget/settings", { headers: w.owner.headers })).body.greeting).toBe(
      "Hello from Acme",
    );
  });
});

describe("what the widget knows of a visit", () => {
  const CHROME =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

  test("an anonymous visitor is named after the page's host until they give a name; the card shows page, browser and zone", async () => {
    const w = await newWorkspace();
    const res = await session(
      w,
      { page_url: "https://shop.example/pricing", time_zone: "Europe/Berlin" },
      { "user-agent": CHROME },
    );
    expect(res.status).toBe(200);
    expect(res.body.contact.name).toBe("Visitor from shop.example");
    const contactId = res.body.contact.id as string;
    const card = await desk.api("GET", `/v1/widget/visitors/${contactId}`, { headers: w.owner.headers });
    expect(card.status).toBe(200);
    expect(card.body).toEqual({
      page_url: "https://shop.example/pricing",
      page_host: "shop.example",
      browser: "Chrome 131 on Linux",
      time_zone: "Europe/Berlin",
      last_seen_at: clock.now().toISOString(),
    });
    // Resuming on another page updates the visit; a name given later replaces the placeholder.
    const resumed = await session(w, {
      visitor_token: res.body.visitor_token,
      page_url: "https://shop.example/checkout",
      name: "Rosa Real",
    });
    expect(resumed.body.contact).toMatchObject({ id: contactId, name: "Rosa Real" });
    const again = await desk.api("GET", `/v1/widget/visitors/${contactId}`, { headers: w.owner.headers });
    expect(again.body.page_url).toBe("https://shop.example/checkout");
    // A visitor with an email of their own keeps a blank name (the app shows the address's local part).
    const withEmail = await session(w, { email: "sam@visitor.test", page_url: "https://shop.example/" });
    expect(withEmail.body.contact.name).toBe("");
  });

  test("the card: 404 for a contact who never chatted and for another workspace's visitor; 401/403 as for contacts", async () => {
    const w = await newWorkspace();
    const other = await newWorkspace();
    const v = await visitor(w, { page_url: "https://shop.example/" });
    const theirs = await desk.api("GET", `/v1/widget/visitors/${v.contactId}`, { headers: other.owner.headers });
    expect(theirs.status).toBe(404);
    const created = await desk.api("POST", "/v1/contacts", {
      headers: w.owner.headers,
      body: { email: "never@chat.test", name: "Never" },
    });
    const never = await desk.api("GET", `/v1/widget/visitors/${created.body.id}`, { headers: w.owner.headers });
    expect(never.status).toBe(404);
    expect((await desk.api("GET", `/v1/widget/visitors/${v.contactId}`)).status).toBe(401);
    const key = await createKey(desk, w.owner, ["tickets:read"]);
    expect((await desk.api("GET", `/v1/widget/visitors/${v.contactId}`, { headers: key.headers })).status).toBe(403);
    // The agents' route is not opened to other sites.
    const cors = await desk.api("GET", `/v1/widget/visitors/${v.contactId}`, {
      headers: { ...w.owner.headers, origin: "https://shop.example" },
    });
    expect(cors.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("visitor-supplied page and zone: 422 at the field for markup or other schemes; the user agent is capped", async () => {
    const w = await newWorkspace();
    for (const [body, location] of [
      [{ page_url: "javascript:alert(1)" }, "body.page_url"],
      [{ page_url: `https://shop.example/${"a".repeat(2000)}` }, "body.page_url"],
      [{ time_zone: "<img src=x onerror=alert(1)>" }, "body.time_zone"],
      [{ time_zone: "x".repeat(65) }, "body.time_zone"],
    ] as const) {
      const res = await session(w, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe(location);
    }
    const res = await session(w, {}, { "user-agent": `Firefox/133 ${"x".repeat(5000)}` });
    expect(res.status).toBe(200);
    const row = first(
      await db.select().from(visitorSessions).where(eq(visitorSessions.contactId, res.body.contact.id)).limit(1),
    )!;
    expect(row.userAgent!.length).toBe(300);
  });
});
