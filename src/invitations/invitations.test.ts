import { first, rowsOf } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { simpleParser } from "mailparser";
import { join } from "node:path";
import { users } from "../identity/identity.table";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { manualClock } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { members } from "../members/members.table";
import { invitations } from "./invitations.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { addMember, createKey, createUser, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { lastSeq } from "../../test/kit/events";

const clock = manualClock(new Date());
const desk = await startTestDesk({ clock });

const eventsAfter = async (d: TestDesk, wid: string, seq: number) =>
  await d.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, wid), gt(events.seq, seq)))
    .orderBy(asc(events.seq));
const tokenOf = (url: string) => url.split("/invite/")[1]!;

/** The outbox message to `address` once the mail job has written it, decoded to text. */
async function outboxMailTo(d: TestDesk, address: string): Promise<string> {
  const outbox = join(d.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    const files = existsSync(outbox) ? readdirSync(outbox) : [];
    const raw = files.map((f) => readFileSync(join(outbox, f), "utf8")).find((m) => m.includes(address));
    if (raw) return `${(await simpleParser(raw)).text}\n${raw}`;
    await Bun.sleep(30);
  }
  throw new Error(`no outbox mail to ${address}`);
}

async function invite(owner: Member, email: string, role = "agent") {
  const res = await desk.api("POST", "/v1/invitations", { headers: owner.headers, body: { email, role } });
  expect(res.status).toBe(201);
  return res.body as { id: string; url: string; email: string; role: string; expires_at: string };
}

describe("POST /v1/invitations", () => {
  test("access and input rules", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    expect(
      (await desk.api("POST", "/v1/invitations", { body: { email: "a@example.test", role: "agent" } })).status,
    ).toBe(401);
    expect(
      (
        await desk.api("POST", "/v1/invitations", {
          headers: agent.headers,
          body: { email: "a@example.test", role: "agent" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/invitations", {
          headers: (await createKey(desk, owner, ["settings:read"])).headers,
          body: { email: "a@example.test", role: "agent" },
        })
      ).status,
    ).toBe(403);
    for (const body of [
      { email: "not-an-email", role: "agent" },
      { email: "a@example.test", role: "owner" },
      { email: "a@example.test" },
      { email: "a@example.test\r\nBcc: x@evil.test", role: "agent" },
      { email: "a@example.test", role: "agent", workspace_id: "x" },
    ]) {
      const res = await desk.api("POST", "/v1/invitations", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(
      (
        await desk.api("POST", "/v1/invitations", {
          headers: owner.headers,
          body: { email: agent.email, role: "admin" },
        })
      ).status,
    ).toBe(409);
    expect(await desk.deps.db.select().from(invitations).where(eq(invitations.workspaceId, workspace.id))).toEqual([]);
  });

  test("creates a pending invitation with a hashed token, mails the link, audit-logged, no events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const before = await lastSeq(desk, workspace.id);
    const created = await invite(owner, "New.Person@Example.test", "admin");
    expect(created).toMatchObject({
      email: "new.person@example.test",
      role: "admin",
      invited_by: { id: owner.id, name: owner.name },
    });
    expect(created.url).toMatch(new RegExp(`^${desk.deps.config.baseUrl}/invite/inv_`));
    expect(new Date(created.expires_at).getTime() - clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    const row = first(await desk.deps.db.select().from(invitations).where(eq(invitations.id, created.id)).limit(1))!;
    expect(row.tokenHash).toBe(sha256Hex(tokenOf(created.url)));
    expect(JSON.stringify(row)).not.toContain(tokenOf(created.url));
    expect(await eventsAfter(desk, workspace.id, before)).toEqual([]);
    expect(
      await desk.deps.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "invitation.created"))),
    ).toHaveLength(1);
    // Without DESK_SMTP_URL the mail job writes the message to the outbox.
    const mail = await outboxMailTo(desk, "new.person@example.test");
    expect(mail).toContain("Subject: Join ");
    expect(mail).toContain(created.url);
    // The job's payload holds the link sealed, never the token in clear.
    const payloads = await rowsOf<{ payload: string }>(
      desk.deps.db,
      sql`SELECT CAST(payload AS text) AS payload FROM jobs WHERE kind = 'invitation.mail'`,
    );
    expect(payloads.length).toBeGreaterThan(0);
    for (const { payload } of payloads) expect(payload).not.toContain(tokenOf(created.url));
    // listing shows it; inviting the same address again replaces it
    const again = await invite(owner, "new.person@example.test", "agent");
    const list = await desk.api("GET", "/v1/invitations", { headers: owner.headers });
    expect(list.status).toBe(200);
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([again.id]);
    expect(list.body.data[0]).not.toHaveProperty("url");
  });

  test("with DESK_SMTP_URL the invitation goes through the relay (a real SMTP server), not the outbox", async () => {
    const sink = await startSmtpSink();
    const relayed = await startTestDesk({ env: { DESK_SMTP_URL: `smtp://127.0.0.1:${sink.port}?tls=none` } });
    try {
      const { owner } = await createWorkspaceWithOwner(relayed);
      const res = await relayed.api("POST", "/v1/invitations", {
        headers: owner.headers,
        body: { email: "relayed@example.test", role: "agent" },
      });
      expect(res.status).toBe(201);
      expect(res.body.mail_via).toBe("relay");
      const [raw] = await sink.waitFor(1, 10_000);
      const parsed = await simpleParser(raw!.slice(raw!.indexOf("\n", raw!.indexOf("X-Rcpt-Args")) + 1));
      expect(parsed.to && "text" in parsed.to ? parsed.to.text : "").toContain("relayed@example.test");
      expect(parsed.text).toContain(res.body.url);
      expect(existsSync(join(relayed.dataDir, "outbox"))).toBe(false);
    } finally {
      await relayed.stop();
      await sink.stop();
    }
  });
});

describe("what an invitation tells its sender and its recipient", () => {
  const outboxMailsTo = (d: TestDesk, address: string) => {
    const outbox = join(d.dataDir, "outbox");
    return existsSync(outbox)
      ? readdirSync(outbox).filter((f) => readFileSync(join(outbox, f), "utf8").includes(address)).length
      : 0;
  };

  test("without a relay the answer says outbox; the mail says 'as an agent' and a readable expiry", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = (await invite(owner, "grammar@example.test", "agent")) as { mail_via?: string };
    expect(created.mail_via).toBe("outbox");
    const mail = await outboxMailTo(desk, "grammar@example.test");
    expect(mail).toContain("as an agent.");
    expect(mail).not.toContain("as a agent");
    expect(mail).toMatch(/works until [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \(UTC\)/);
    expect(mail).not.toMatch(/works until \d{4}-\d{2}-\d{2}T/);
  });

  test("copy the link and resend: same link, resend mails again with 7 more days; same reach as creating; 404 elsewhere", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const created = await invite(owner, "resend-me@example.test", "agent");
    await outboxMailTo(desk, "resend-me@example.test");
    const link = await desk.api("POST", `/v1/invitations/${created.id}/link`, { headers: owner.headers });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({
      id: created.id,
      url: created.url,
      expires_at: created.expires_at,
      mail_via: "outbox",
    });
    await desk.jobs.drain();
    expect(outboxMailsTo(desk, "resend-me@example.test")).toBe(1);

    clock.advance(5 * 60 * 1000);
    const resent = await desk.api("POST", `/v1/invitations/${created.id}/resend`, { headers: owner.headers });
    expect(resent.status).toBe(200);
    expect(resent.body.url).toBe(created.url);
    expect(resent.body.expires_at > created.expires_at).toBe(true);
    expect(new Date(resent.body.expires_at).getTime() - clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    await desk.jobs.drain();
    for (let i = 0; i < 100 && outboxMailsTo(desk, "resend-me@example.test") < 2; i++) await Bun.sleep(30);
    expect(outboxMailsTo(desk, "resend-me@example.test")).toBe(2);
    expect(
      await desk.deps.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "invitation.resent"))),
    ).toHaveLength(1);

    for (const action of ["link", "resend"]) {
      const path = `/v1/invitations/${created.id}/${action}`;
      expect((await desk.api("POST", path)).status).toBe(401);
      expect((await desk.api("POST", path, { headers: agent.headers })).status).toBe(403);
      // A key that may invite viewers only may not hand out an agent's link.
      const viewerOnly = await createKey(desk, owner, [
        "settings:read",
        "settings:write",
        "tickets:read",
        "contacts:read",
        "realtime",
      ]);
      expect((await desk.api("POST", path, { headers: viewerOnly.headers })).status).toBe(403);
      expect((await desk.api("POST", path, { headers: other.owner.headers })).status).toBe(404);
      expect((await desk.api("POST", "/v1/invitations/nope/link", { headers: owner.headers })).status).toBe(404);
    }
    // Revoked: nothing to copy or resend.
    await desk.api("DELETE", `/v1/invitations/${created.id}`, { headers: owner.headers });
    expect((await desk.api("POST", `/v1/invitations/${created.id}/resend`, { headers: owner.headers })).status).toBe(
      404,
    );
  });

  test("an invitation from before links were kept gets a new link; the old one stops working", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await invite(owner, "legacy@example.test", "viewer");
    await desk.deps.db.update(invitations).set({ linkSealed: null }).where(eq(invitations.id, created.id));
    const link = await desk.api("POST", `/v1/invitations/${created.id}/link`, { headers: owner.headers });
    expect(link.status).toBe(200);
    expect(link.body.url).not.toBe(created.url);
    expect((await desk.api("GET", `/v1/invitations/lookup?token=${tokenOf(created.url)}`)).status).toBe(404);
    expect((await desk.api("GET", `/v1/invitations/lookup?token=${tokenOf(link.body.url)}`)).status).toBe(200);
    const again = await desk.api("POST", `/v1/invitations/${created.id}/link`, { headers: owner.headers });
    expect(again.body.url).toBe(link.body.url);
  });
});

test("the invitation mail speaks the inviting workspace's language (WorkspaceSettings.locale)", async () => {
  const { owner } = await createWorkspaceWithOwner(desk);
  const patched = await desk.api("PATCH", "/v1/workspace", {
    headers: owner.headers,
    body: { settings: { locale: "de" } },
  });
  expect(patched.status).toBe(200);
  // The inviter's own language is not the invitee's: the workspace's decides.
  await desk.api("PATCH", "/v1/me", { headers: owner.headers, body: { locale: "fr" } });
  const sent = await invite(owner, `neu-${Date.now()}@example.test`, "admin");
  await desk.jobs.drain();
  const mail = await outboxMailTo(desk, sent.email);
  const name = patched.body.name as string;
  expect(mail).toContain(`${owner.name} hat Sie eingeladen, ${name} auf Desk als Administrator beizutreten.`);
  expect(mail).toContain(`Einladung annehmen: ${sent.url}`);
  expect(mail).toMatch(/Der Link funktioniert bis \d{1,2}\. \S+ \d{4} um \d{2}:\d{2} \(UTC\)/);
  expect(mail).not.toContain("invited you");
});

describe("GET /v1/invitations and DELETE /v1/invitations/{id}", () => {
  test("list needs an admin; revoke hides it and kills the link; other workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const created = await invite(owner, "revoke-me@example.test");
    expect((await desk.api("GET", "/v1/invitations")).status).toBe(401);
    expect((await desk.api("GET", "/v1/invitations", { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("DELETE", `/v1/invitations/${created.id}`, { headers: other.owner.headers })).status).toBe(
      404,
    );
    expect((await desk.api("DELETE", `/v1/invitations/${created.id}`, { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("GET", `/v1/invitations/lookup?token=${tokenOf(created.url)}`)).status).toBe(200);
    expect((await desk.api("DELETE", `/v1/invitations/${created.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("DELETE", `/v1/invitations/${created.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", "/v1/invitations", { headers: owner.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", `/v1/invitations/lookup?token=${tokenOf(created.url)}`)).status).toBe(404);
    expect(
      first(await desk.deps.db.select().from(invitations).where(eq(invitations.id, created.id)).limit(1))!.revokedAt,
    ).not.toBeNull();
  });
});

describe("invitation lookup and accept", () => {
  test("lookup is public and answers 404 for unknown and expired tokens", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const created = await invite(owner, "look@example.test", "viewer");
    const res = await desk.api("GET", `/v1/invitations/lookup?token=${tokenOf(created.url)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      workspace: { id: workspace.id, name: workspace.name },
      email: "look@example.test",
      role: "viewer",
      expires_at: created.expires_at,
    });
    expect((await desk.api("GET", "/v1/invitations/lookup?token=inv_nope")).status).toBe(404);
    expect((await desk.api("GET", "/v1/invitations/lookup")).status).toBe(422);
    const expiring = await startTestDesk({ clock: manualClock(new Date()) });
    const setup = await createWorkspaceWithOwner(expiring);
    const late = await expiring.api("POST", "/v1/invitations", {
      headers: setup.owner.headers,
      body: { email: "late@example.test", role: "agent" },
    });
    (expiring.deps.clock as ReturnType<typeof manualClock>).advance(7 * 24 * 3600 * 1000 + 1000);
    expect((await expiring.api("GET", `/v1/invitations/lookup?token=${tokenOf(late.body.url)}`)).status).toBe(404);
    expect(
      (
        await expiring.api("POST", "/v1/invitations/accept", {
          body: { token: tokenOf(late.body.url), name: "Late", password: "long-enough-pw" },
        })
      ).status,
    ).toBe(404);
  });

  test("a new person accepts with name and password: user created, member.added, session like login, link used up", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const created = await invite(owner, "newbie@example.test", "agent");
    const token = tokenOf(created.url);
    for (const body of [{ token }, { token, name: "Newbie" }, { token, name: "Newbie", password: "short" }]) {
      expect((await desk.api("POST", "/v1/invitations/accept", { body })).status, JSON.stringify(body)).toBe(422);
    }
    expect(
      first(await desk.deps.db.select().from(users).where(eq(users.email, "newbie@example.test")).limit(1)),
    ).toBeUndefined();
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", "/v1/invitations/accept", {
      body: { token, name: "Newbie", password: "correct horse battery" },
    });
    expect(res.status).toBe(201);
    const accessToken = res.body.access_token as string;
    expect(typeof accessToken).toBe("string");
    // (Bun's toMatchObject with asymmetric matchers rewrites the object it inspects: check the rest separately.)
    expect(res.body).toMatchObject({ expires_in: 900, user: { email: "newbie@example.test", name: "Newbie" } });
    expect(res.headers.get("set-cookie")).toContain(`desk_rt_${res.body.user.id}=`);
    const user = first(await desk.deps.db.select().from(users).where(eq(users.email, "newbie@example.test")).limit(1))!;
    expect(await Bun.password.verify("correct horse battery", user.passwordHash!)).toBe(true);
    expect(
      first(
        await desk.deps.db
          .select()
          .from(members)
          .where(and(eq(members.workspaceId, workspace.id), eq(members.userId, user.id)))
          .limit(1),
      )!.role,
    ).toBe("agent");
    const emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => [e.type, e.topics])).toEqual([
      ["member.added", [`workspace:${workspace.id}`, `user:${user.id}`]],
    ]);
    expect((emitted[0]!.data as { member: { role: string; user: { id: string } } }).member).toMatchObject({
      role: "agent",
      user: { id: user.id },
    });
    const me = await desk.api("GET", "/v1/members", {
      headers: { authorization: `Bearer ${accessToken}`, "desk-workspace": workspace.id },
    });
    expect(me.status, me.text).toBe(200);
    expect(
      (
        await desk.api("POST", "/v1/invitations/accept", {
          body: { token, name: "Again", password: "correct horse battery" },
        })
      ).status,
    ).toBe(404);
    expect((await desk.api("GET", `/v1/invitations/lookup?token=${token}`)).status).toBe(404);
  });

  test("a signed-in person accepts with their bearer (no workspace header); keys cannot; existing email needs sign-in", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const person = await createUser(desk);
    const created = await invite(owner, person.email, "viewer");
    const token = tokenOf(created.url);
    const withoutSignIn = await desk.api("POST", "/v1/invitations/accept", {
      body: { token, name: "Imposter", password: "long-enough-pw" },
    });
    expect(withoutSignIn.status).toBe(409);
    expect(
      (
        await desk.api("POST", "/v1/invitations/accept", {
          headers: { authorization: "Bearer nonsense" },
          body: { token },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await desk.api("POST", "/v1/invitations/accept", {
          headers: (await createKey(desk, owner, ["settings:write"])).headers,
          body: { token },
        })
      ).status,
    ).toBe(403);
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", "/v1/invitations/accept", {
      headers: { authorization: `Bearer ${person.token}` },
      body: { token },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      workspace: { id: workspace.id, name: workspace.name },
      member: { role: "viewer", user: { id: person.id } },
    });
    expect((await eventsAfter(desk, workspace.id, before)).map((e) => e.type)).toEqual(["member.added"]);
    const actions = (
      await desk.deps.db
        .select({ action: auditLogs.action })
        .from(auditLogs)
        .where(eq(auditLogs.workspaceId, workspace.id))
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["member.added", "invitation.accepted"]));
    expect(
      first(await desk.deps.db.select().from(invitations).where(eq(invitations.id, created.id)).limit(1)),
    ).toMatchObject({
      acceptedBy: person.id,
    });
  });
});

describe("an invitation grants only what its inviter still may grant", () => {
  test("inviter demoted below the role, or gone: lookup and both accepts answer 409 and nobody joins", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const admin = await addMember(desk, workspace.id, "admin");
    const leaving = await addMember(desk, workspace.id, "admin");
    const asAdmin = await desk.api("POST", "/v1/invitations", {
      headers: admin.headers,
      body: { email: `demoted-${admin.id}@example.test`, role: "admin" },
    });
    const fromLeaving = await desk.api("POST", "/v1/invitations", {
      headers: leaving.headers,
      body: { email: `gone-${leaving.id}@example.test`, role: "agent" },
    });
    const stillFine = await desk.api("POST", "/v1/invitations", {
      headers: admin.headers,
      body: { email: `fine-${admin.id}@example.test`, role: "agent" },
    });
    expect([asAdmin.status, fromLeaving.status, stillFine.status]).toEqual([201, 201, 201]);
    const demote = await desk.api("PATCH", `/v1/members/${admin.id}`, {
      headers: owner.headers,
      body: { role: "agent" },
    });
    expect(demote.status).toBe(200);
    const remove = await desk.api("DELETE", `/v1/members/${leaving.id}`, { headers: owner.headers });
    expect(remove.status).toBe(204);

    const before = await lastSeq(desk, workspace.id);
    for (const created of [asAdmin.body as { url: string }, fromLeaving.body as { url: string }]) {
      const token = tokenOf(created.url);
      const lookup = await desk.api("GET", `/v1/invitations/lookup?token=${token}`);
      expect(lookup.status).toBe(409);
      expect(lookup.body).toMatchObject({ code: "invitation_inviter_lacks_role" });
      const asNew = await desk.api("POST", "/v1/invitations/accept", {
        body: { token, name: "Newcomer", password: "long-enough-pw" },
      });
      expect(asNew.status).toBe(409);
      expect((asNew.body as { detail: string }).detail).toContain("can no longer grant");
      const person = await createUser(desk);
      const asUser = await desk.api("POST", "/v1/invitations/accept", {
        headers: { authorization: `Bearer ${person.token}` },
        body: { token },
      });
      expect(asUser.status).toBe(409);
      expect(await desk.deps.db.select().from(members).where(eq(members.userId, person.id))).toEqual([]);
    }
    expect(await eventsAfter(desk, workspace.id, before)).toEqual([]);

    // The demoted admin still holds the agent role, so an agent invitation they sent still works.
    const person = await createUser(desk);
    const accepted = await desk.api("POST", "/v1/invitations/accept", {
      headers: { authorization: `Bearer ${person.token}` },
      body: { token: tokenOf((stillFine.body as { url: string }).url) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ member: { role: "agent" } });
  });
});
