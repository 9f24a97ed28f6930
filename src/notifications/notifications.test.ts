import { first, rowsOf } from "../db/store";
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { systemContext } from "../auth/context";
import { transact } from "../db/tx";
import { enqueue } from "../jobs/enqueue";
import { connect, type TestSocket } from "../../test/kit/realtime-client";
import { addMessage } from "../tickets/tickets.public";
import { eventsAfter, newTeam, newTicket } from "../../test/kit/tickets";
import { notificationDigestJob, notificationLine } from "./notifications.jobs";
import { mentionedUserIds, plainTextMentions } from "./notifications.mentions";
import { NOTIFICATION_TYPES, notificationsOf, notify } from "./notifications.public";
import { notifications } from "./notifications.table";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();
const wsBase = desk.url.replace(/^http/, "ws");
const open: TestSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.ws.close();
});

async function socketFor(member: Pick<Member, "headers">) {
  const res = await desk.api("POST", "/v1/realtime/token", { headers: member.headers });
  const socket = connect(`${wsBase}/v1/realtime?token=${res.body.token}`);
  open.push(socket);
  await socket.opened;
  socket.send({ type: "ping" });
  await socket.waitFor((f) => f.type === "pong");
  return socket;
}

const sample = async (workspaceId: string, userId: string) =>
  await transact(
    desk.deps.db,
    async (tx) =>
      await notify(
        tx,
        {
          workspaceId,
          userId,
          type: "sla_breached",
          ticket: { id: "t1", number: 7, subject: "Printer" },
          data: { kind: "first_response" },
        },
        desk.deps.clock,
      ),
  );

async function drain(d: TestDesk = desk) {
  await d.consumers.drain();
  await d.consumers.drain();
}

/** Mails in the outbox addressed to `address` (system mail goes there without DESK_SMTP_URL). */
function outboxTo(d: TestDesk, address: string): string[] {
  const outbox = join(d.dataDir, "outbox");
  const files = existsSync(outbox) ? readdirSync(outbox) : [];
  return files.map((f) => readFileSync(join(outbox, f), "utf8")).filter((m) => m.includes(`To: ${address}`));
}

describe("notify and the personal notification.created event", () => {
  test("stored; the event's main topic is the person's; replay shows it in full only to them", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const before = await lastSeq(desk, workspace.id);
    const sent = await sample(workspace.id, agent.id);
    expect(await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, agent.id))).toEqual([
      sent,
    ]);
    const stored = await eventsAfter(desk, workspace.id, before);
    expect(stored.map((e) => [e.type, e.topics])).toEqual([["notification.created", [`user:${agent.id}`]]]);
    const replayOf = async (headers: Record<string, string>) =>
      (await desk.api("GET", `/v1/events?since=${before}`, { headers })).body.data;
    expect(await replayOf(agent.headers)).toEqual([
      expect.objectContaining({ type: "notification.created", data: { notification: sent } }),
    ]);
    // the owner (who sees everything else) and an all-scopes key get the stand-in with the same seq
    for (const headers of [owner.headers, (await createKey(desk, owner, ["tickets:read", "realtime"])).headers]) {
      expect(await replayOf(headers)).toEqual([
        expect.objectContaining({ seq: before + 1, type: "event.hidden", data: {} }),
      ]);
    }
  });

  test("live: the person's socket gets it in full, another member's a stand-in, another workspace's nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    const mine = await socketFor(agent);
    const theirs = await socketFor(owner);
    const elsewhere = await socketFor(other.owner);
    const sent = await sample(workspace.id, agent.id);
    const full = await mine.waitFor((f) => f.type === "notification.created");
    expect(full.data).toEqual({ notification: sent });
    const hidden = await theirs.waitFor((f) => f.seq === full.seq);
    expect(hidden).toMatchObject({ type: "event.hidden", data: {} });
    await Bun.sleep(50);
    expect(theirs.frames.some((f) => f.type === "notification.created")).toBe(false);
    expect(elsewhere.frames.some((f) => f.type === "notification.created" || f.seq === full.seq)).toBe(false);
  });
});

describe("GET /v1/notifications", () => {
  test("access: none 401, a key 403, another workspace 404, bad query 422", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/notifications")).status).toBe(401);
    expect(
      (
        await desk.api("GET", "/v1/notifications", {
          headers: (await createKey(desk, owner, ["tickets:read"])).headers,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("GET", "/v1/notifications", {
          headers: { ...owner.headers, "desk-workspace": other.workspace.id },
        })
      ).status,
    ).toBe(404);
    for (const q of ["limit=0", "limit=101", "unread=maybe", "cursor=%25%25", "type=x"]) {
      const res = await desk.api("GET", `/v1/notifications?${q}`, { headers: owner.headers });
      expect(res.status, q).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
    expect(workspace.id).toBeString();
  });

  test("own only, newest first, keyset paged, unread filter and count", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    await addMember(desk, other.workspace.id, "agent");
    // One after another: concurrent changes may commit (and, retried on PostgreSQL, take their ids) in any order.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sample(workspace.id, agent.id)).id);
    await sample(workspace.id, owner.id);
    await transact(
      desk.deps.db,
      async (tx) =>
        await notify(
          tx,
          { workspaceId: other.workspace.id, userId: agent.id, type: "assigned", ticket: null },
          desk.deps.clock,
        ),
    );
    const page = await desk.api("GET", "/v1/notifications?limit=2", { headers: agent.headers });
    expect(page.status).toBe(200);
    expect(page.body.data.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.unread_count).toBe(3);
    const rest = await desk.api("GET", `/v1/notifications?limit=2&cursor=${page.body.next_cursor}`, {
      headers: agent.headers,
    });
    expect(rest.body.data.map((n: { id: string }) => n.id)).toEqual([ids[0]]);
    expect(rest.body.next_cursor).toBeNull();
    await desk.api("POST", "/v1/notifications/read", { headers: agent.headers, body: { ids: [ids[1]] } });
    const unread = await desk.api("GET", "/v1/notifications?unread=true", { headers: agent.headers });
    expect(unread.body.data.map((n: { id: string }) => n.id)).toEqual([ids[2], ids[0]]);
    expect(unread.body.unread_count).toBe(2);
  });
});

describe("POST /v1/notifications/read", () => {
  test("access and bad input", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("POST", "/v1/notifications/read", { body: { all: true } })).status).toBe(401);
    expect(
      (
        await desk.api("POST", "/v1/notifications/read", {
          headers: (await createKey(desk, owner, ["tickets:write"])).headers,
          body: { all: true },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/notifications/read", {
          headers: { ...owner.headers, "desk-workspace": other.workspace.id },
          body: { all: true },
        })
      ).status,
    ).toBe(404);
    for (const [body, location] of [
      [{}, "body.ids"],
      [{ ids: ["a"], all: true }, "body.ids"],
      [{ ids: [] }, "body.ids"],
      [{ all: false }, "body.all"],
      [{ ids: "a" }, "body.ids"],
    ] as const) {
      const res = await desk.api("POST", "/v1/notifications/read", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].location, JSON.stringify(body)).toBe(location);
    }
    expect(workspace.id).toBeString();
  });

  test("marks the caller's own only (another person's or workspace's ids are ignored); all: true marks the rest", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const a = await sample(workspace.id, agent.id);
    const b = await sample(workspace.id, agent.id);
    const ownersOwn = await sample(workspace.id, owner.id);
    const res = await desk.api("POST", "/v1/notifications/read", {
      headers: agent.headers,
      body: { ids: [a.id, ownersOwn.id, "nope"] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 1, unread_count: 1 });
    const readAt = async (id: string) =>
      first(
        await desk.deps.db
          .select({ r: notifications.readAt })
          .from(notifications)
          .where(eq(notifications.id, id))
          .limit(1),
      )!.r;
    expect(await readAt(a.id)).toBeString();
    expect(await readAt(ownersOwn.id)).toBeNull();
    const all = await desk.api("POST", "/v1/notifications/read", { headers: agent.headers, body: { all: true } });
    expect(all.body).toEqual({ updated: 1, unread_count: 0 });
    expect(await readAt(b.id)).toBeString();
    expect(await readAt(ownersOwn.id)).toBeNull();
  });
});

describe("produced notifications", () => {
  test("assigned: an assignee change by someone else (not by oneself); by_name names who", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const ticket = await newTicket(desk, owner);
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { assignee_id: agent.id } });
    // Handled while the ticket is still theirs: a consumer that reads it only after the next change
    // sees it reassigned and, by design, tells nobody (a slow CI run did exactly that).
    await drain();
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { assignee_id: owner.id } });
    await drain();
    const told = await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, agent.id));
    expect(told).toEqual([
      expect.objectContaining({
        type: "assigned",
        ticket: { id: ticket.id, number: ticket.number, subject: "Help needed" },
        data: { from: null, by: owner.id, by_name: owner.name, via: "user" },
      }),
    ]);
    // the owner assigned themselves: nothing for them
    expect(await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, owner.id))).toEqual([]);
  });

  test("assigned: a ticket someone else created already assigned (its first message names the creator)", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const mine = await newTicket(desk, owner, { assignee_id: agent.id, body_html: "<p>For you</p>", kind: "note" });
    await newTicket(desk, agent, { assignee_id: agent.id, body_html: "<p>For me</p>", kind: "note" });
    await newTicket(desk, owner, { assignee_id: agent.id });
    await drain();
    expect(await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, agent.id))).toEqual([
      expect.objectContaining({
        type: "assigned",
        ticket: expect.objectContaining({ id: mine.id }),
        data: { from: null, by: owner.id, by_name: owner.name, via: "user" },
      }),
    ]);
  });

  test("mentioned: members named in a note's mention markup who may see the ticket; never the author", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const stranger = await createWorkspaceWithOwner(desk);
    const team = await newTeam(desk, owner, { name: "Secret", private: true, member_ids: [agent.id] });
    const ticket = await newTicket(desk, owner, { team_id: team.id });
    const body_html = [agent, outsider, owner, stranger.owner]
      .map((m) => `<span data-mention="${m.id}">@${m.name}</span>`)
      .join(" ");
    const res = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: `<p>${body_html} please look</p>` },
    });
    expect(res.status).toBe(201);
    expect(res.body.body_html).toContain(`data-mention="${agent.id}"`);
    await drain();
    const told = await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, agent.id));
    expect(told).toEqual([
      expect.objectContaining({
        type: "mentioned",
        data: expect.objectContaining({ by: owner.id, by_name: owner.name, message_id: res.body.id }),
      }),
    ]);
    expect(String(told[0]!.data.excerpt)).toContain("please look");
    // outside the private team, the author, another workspace's person: nobody else
    for (const id of [outsider.id, owner.id, stranger.owner.id])
      expect(await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, id))).toEqual([]);
    // the event went out scoped to the private team as well
    const event = (
      await rowsOf<{ private_team_id: string }>(
        desk.deps.db,
        sql`SELECT private_team_id FROM events WHERE type = 'notification.created' AND workspace_id = ${workspace.id}`,
      )
    )[0];
    expect(event?.private_team_id).toBe(team.id);
  });

  test("mention markup: a replies' mention tells nobody; the sanitizer drops data-mention values that are not ids", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const ticket = await newTicket(desk, owner);
    const res = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: {
        kind: "note",
        body_html: `<span data-mention="x&quot; onclick=&quot;y">@a</span><b data-mention="${agent.id}">b</b>`,
      },
    });
    expect(res.body.body_html).not.toContain("data-mention");
    expect(mentionedUserIds('<span class="m" data-mention="abc-1">@x</span><span data-mention="abc-1">')).toEqual([
      "abc-1",
    ]);
    await drain();
    expect(await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, agent.id))).toEqual([]);
  });

  test("mentioned as plain text: @Full Name and @email of members, longest match, any case, at word boundaries", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ann = await addMember(desk, workspace.id, "agent", { name: "Ann" });
    const annLee = await addMember(desk, workspace.id, "agent", { name: "Ann Lee" });
    const bob = await addMember(desk, workspace.id, "agent", {
      name: "Bob Stone",
      email: `bob.${Date.now()}@example.com`,
    });
    const carl = await addMember(desk, workspace.id, "agent", { name: "Carl" });
    const stranger = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const res = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: {
        kind: "note",
        body_html: `<p>@ann lee and @${bob.email.toUpperCase()}. please look; not @Carlos, not mail@carl, not @${stranger.owner.name}</p>`,
      },
    });
    expect(res.status).toBe(201);
    await drain();
    const mentionedOf = async (id: string) =>
      (await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, id))).filter(
        (n) => n.type === "mentioned",
      );
    expect(await mentionedOf(annLee.id)).toHaveLength(1);
    expect(await mentionedOf(bob.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ by: owner.id, message_id: res.body.id }) }),
    ]);
    // the shorter name inside the longer one, a longer word, an address, another workspace's person
    for (const id of [ann.id, carl.id, owner.id]) expect(await mentionedOf(id)).toEqual([]);
    expect(
      await transact(desk.deps.db, async (tx) => await notificationsOf(tx, stranger.workspace.id, stranger.owner.id)),
    ).toEqual([]);
    // a bare "@Ann" still names Ann; the markup and the text naming one person tell them once
    await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: `<p><span data-mention="${ann.id}">@Ann</span> and @Ann, thanks</p>` },
    });
    await drain();
    expect(await mentionedOf(ann.id)).toHaveLength(1);
    expect(
      plainTextMentions("x@ann, @ann@example.com, @Ann!", [{ id: "a", name: "Ann", email: "ann@example.com" }]),
    ).toEqual(["a"]);
    expect(plainTextMentions("mail x@ann", [{ id: "a", name: "Ann", email: "ann@example.com" }])).toEqual([]);
  });

  test("customer_replied: the assignee, when a customer's message arrives", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const ticket = await newTicket(desk, owner, { contact: { email: "carol@customer.test", name: "Carol" } });
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: agent.headers, body: { assignee_id: agent.id } });
    const contactId = (ticket.contact as { id: string }).id;
    await addMessage(
      systemContext(workspace.id),
      ticket.id,
      {
        kind: "reply",
        direction: "inbound",
        body_text: "Still broken, sorry",
        author: { type: "contact", contactId },
      },
      desk.deps,
    );
    await drain();
    expect(await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, agent.id))).toEqual([
      expect.objectContaining({
        type: "customer_replied",
        data: expect.objectContaining({ by_name: "Carol", excerpt: "Still broken, sorry" }),
      }),
    ]);
  });
});

describe("email", () => {
  test("preferences: own only, 422 on a bad value, keys 403; immediately mails, off does not", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/notifications/preferences")).status).toBe(401);
    expect(
      (
        await desk.api("PUT", "/v1/notifications/preferences", {
          headers: (await createKey(desk, owner, ["settings:write"])).headers,
          body: { email: "off" },
        })
      ).status,
    ).toBe(403);
    const bad = await desk.api("PUT", "/v1/notifications/preferences", {
      headers: agent.headers,
      body: { email: "hourly" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.email");
    expect((await desk.api("GET", "/v1/notifications/preferences", { headers: agent.headers })).body).toEqual({
      email: "immediately",
    });
    await sample(workspace.id, agent.id);
    await desk.jobs.drain();
    const mails = outboxTo(desk, agent.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("SLA breached on #7 Printer");
    const put = await desk.api("PUT", "/v1/notifications/preferences", {
      headers: agent.headers,
      body: { email: "off" },
    });
    expect(put.body).toEqual({ email: "off" });
    expect((await desk.api("GET", "/v1/notifications/preferences", { headers: agent.headers })).body.email).toBe("off");
    // the owner's preference is untouched
    expect((await desk.api("GET", "/v1/notifications/preferences", { headers: owner.headers })).body.email).toBe(
      "immediately",
    );
    await sample(workspace.id, agent.id);
    await desk.jobs.drain();
    expect(outboxTo(desk, agent.email)).toHaveLength(1);
  });

  test("digest: one mail with the unread, unmailed notifications; read ones left out; nothing new, no mail", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    await desk.api("PUT", "/v1/notifications/preferences", { headers: agent.headers, body: { email: "digest" } });
    const a = await sample(workspace.id, agent.id);
    await transact(
      desk.deps.db,
      async (tx) =>
        await notify(
          tx,
          {
            workspaceId: workspace.id,
            userId: agent.id,
            type: "assigned",
            ticket: { id: "t2", number: 8, subject: "Scanner" },
            data: { by_name: "Ann" },
          },
          desk.deps.clock,
        ),
    );
    const read = await sample(workspace.id, agent.id);
    await desk.api("POST", "/v1/notifications/read", { headers: agent.headers, body: { ids: [read.id] } });
    await desk.jobs.drain();
    expect(outboxTo(desk, agent.email)).toHaveLength(0);
    const runDigest = async () => {
      await transact(desk.deps.db, async (tx) => await enqueue(tx, notificationDigestJob, {}));
      await desk.jobs.drain();
    };
    await runDigest();
    const mails = outboxTo(desk, agent.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("2 notifications today");
    expect(mails[0]).toContain("#8 Scanner was assigned to you by Ann");
    const emailed = (
      await desk.deps.db
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(eq(notifications.userId, agent.id), eq(notifications.workspaceId, workspace.id)))
    ).filter((r) => r.id !== read.id);
    expect(emailed.map((r) => r.id)).toContain(a.id);
    await runDigest();
    expect(outboxTo(desk, agent.email)).toHaveLength(1);
  });
});

describe("email in the member's language", () => {
  /** The one outbox mail to `address`, decoded (non-English subjects and bodies travel encoded). */
  async function onlyMailTo(address: string): Promise<{ subject: string; text: string }> {
    const mails = outboxTo(desk, address);
    expect(mails).toHaveLength(1);
    const parsed = await simpleParser(mails[0]!);
    return { subject: parsed.subject ?? "", text: parsed.text ?? "" };
  }
  const setLocale = async (member: Member, locale: string | null) =>
    expect((await desk.api("PATCH", "/v1/me", { headers: member.headers, body: { locale } })).status).toBe(200);
  const setWorkspaceLocale = async (owner: Member, locale: string) =>
    expect(
      (await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings: { locale } } })).status,
    ).toBe(200);
  const assigned = async (workspaceId: string, userId: string) =>
    await transact(
      desk.deps.db,
      async (tx) =>
        await notify(
          tx,
          {
            workspaceId,
            userId,
            type: "assigned",
            ticket: { id: "t2", number: 8, subject: "Scanner" },
            data: { by_name: "Ann" },
          },
          desk.deps.clock,
        ),
    );
  const runDigest = async () => {
    await transact(desk.deps.db, async (tx) => await enqueue(tx, notificationDigestJob, {}));
    await desk.jobs.drain();
  };

  test("every type has its line in each language; English reads as it always did", () => {
    const ticket = { id: "t1", number: 3, subject: "Login" };
    const english = NOTIFICATION_TYPES.map((type) => notificationLine({ type, ticket, data: {} }));
    expect(english).toEqual([
      "#3 Login was assigned to you",
      "Someone mentioned you on #3 Login",
      "Someone added a note on #3 Login",
      "The customer replied on #3 Login",
      "SLA breached on #3 Login",
      "The chat on #3 Login was handed to people",
      "ai cap reached on #3 Login",
      "ai balance low on #3 Login",
      "ai balance out on #3 Login",
      "auto recharge failed on #3 Login",
      "ai key failed on #3 Login",
    ]);
    expect(notificationLine({ type: "ai_cap_reached", ticket: null, data: {} })).toBe("ai cap reached");
    expect(notificationLine({ type: "some_new_kind", ticket: null, data: {} }, "de")).toBe("some new kind");
    for (const locale of ["de", "fr", "es", "pt-BR", "nl"] as const)
      NOTIFICATION_TYPES.forEach((type, i) => {
        const line = notificationLine({ type, ticket, data: { by_name: "Ann" } }, locale);
        expect(line).toContain("#3 Login");
        expect(line).not.toBe(notificationLine({ type, ticket, data: { by_name: "Ann" } }));
        expect(line).not.toBe(english[i]);
      });
  });

  test("a German member of an English workspace: the single mail in German", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    await setLocale(agent, "de-AT");
    await sample(workspace.id, agent.id);
    await desk.jobs.drain();
    const mail = await onlyMailTo(agent.email);
    expect(mail.subject).toBe(`[${workspace.name}] SLA verletzt bei #7 Printer`);
    expect(mail.text).toContain("Öffnen: http");
    expect(mail.text).toContain("ändern können Sie das unter Profil → Benachrichtigungen");
    expect(mail.text).not.toContain("Open it");
  });

  test("a German member's digest in German, counted with plurals", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    await setLocale(agent, "de");
    await desk.api("PUT", "/v1/notifications/preferences", { headers: agent.headers, body: { email: "digest" } });
    await sample(workspace.id, agent.id);
    await assigned(workspace.id, agent.id);
    await runDigest();
    const mail = await onlyMailTo(agent.email);
    expect(mail.subject).toBe(`[${workspace.name}] 2 Benachrichtigungen heute`);
    expect(mail.text).toContain("- #8 Scanner wurde Ihnen von Ann zugewiesen: http");
    expect(mail.text).toContain("- SLA verletzt bei #7 Printer: http");
    expect(mail.text).toContain("Alle Benachrichtigungen: http");
  });

  test("no language of their own, or one Desk does not ship (ar): the workspace's language", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await setWorkspaceLocale(owner, "fr");
    const plain = await addMember(desk, workspace.id, "agent");
    const arabic = await addMember(desk, workspace.id, "agent");
    await setLocale(arabic, "ar");
    await desk.api("PUT", "/v1/notifications/preferences", { headers: arabic.headers, body: { email: "digest" } });
    await assigned(workspace.id, plain.id);
    await sample(workspace.id, arabic.id);
    await desk.jobs.drain();
    const single = await onlyMailTo(plain.email);
    expect(single.subject).toBe(`[${workspace.name}] #8 Scanner vous a été attribué par Ann`);
    expect(single.text).toContain("Ouvrir : http");
    await runDigest();
    const digest = await onlyMailTo(arabic.email);
    expect(digest.subject).toBe(`[${workspace.name}] 1 notification aujourd’hui`);
    expect(digest.text).toContain("- SLA dépassé sur #7 Printer: http");
  });
});
