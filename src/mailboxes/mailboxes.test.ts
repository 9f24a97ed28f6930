import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startDovecot, type Dovecot } from "../../test/peers/dovecot";
import { startSmtpSink, type SmtpSink } from "../../test/peers/smtp-sink";
import { mailboxes } from "./mailboxes.table";
import { eq } from "drizzle-orm";

const dovecot: Dovecot = await startDovecot({ "alice@example.test": "alicepw" });
const sink: SmtpSink = await startSmtpSink();
const caFile = join(dovecot.dir, "ca-for-desk.pem");
writeFileSync(caFile, dovecot.ca);
const desk: TestDesk = await startTestDesk({
  env: { DESK_INBOUND_DOMAIN: "in.desk.test", DESK_MAIL_CA_FILE: caFile, DESK_JOBS: "off" },
});
afterAll(async () => {
  await dovecot?.dispose();
  await sink?.stop();
});

const eventsOf = (workspaceId: string) =>
  desk.deps.db.$client
    .query<{ type: string; data: string }, [string]>(
      "SELECT type, data FROM events WHERE workspace_id = ? ORDER BY seq",
    )
    .all(workspaceId);

describe("mailboxes CRUD", () => {
  test("access: 401 without credential, 403 for agents and keys without settings scopes, key with both scopes allowed", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/mailboxes")).status).toBe(401);
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/mailboxes", { headers: agent.headers })).status).toBe(403);
    const readOnly = createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("GET", "/v1/mailboxes", { headers: readOnly.headers })).status).toBe(403);
    const key = createKey(desk, owner, ["settings:read", "settings:write"]);
    const created = await desk.api("POST", "/v1/mailboxes", {
      headers: key.headers,
      body: { name: "Support", email: "support-key@acme.test" },
    });
    expect(created.status).toBe(201);
  });

  test("forwarding mailbox: generated address, secrets never returned, event and audit", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const res = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: {
        name: "Support",
        email: "Support@Acme.test",
        smtp_password: "hunter22",
        signature_html: '<p onclick="x()">Thanks<script>alert(1)</script></p>',
        outbound_kind: "smtp",
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe("support@acme.test");
    expect(res.body.forwarding_address).toMatch(/^support-[0-9a-f]{10}@in\.desk\.test$/);
    expect(res.body.signature_html).toBe("<p>Thanks</p>");
    expect(res.text).not.toContain("hunter22");
    expect(res.body.password).toBeUndefined();
    expect(res.body.status).toBe("active");
    const row = desk.deps.db.select().from(mailboxes).where(eq(mailboxes.id, res.body.id)).get()!;
    expect(row.smtpPasswordSealed).not.toContain("hunter22");
    expect(desk.deps.secrets.open(row.smtpPasswordSealed!)).toBe("hunter22");
    const events = eventsOf(workspace.id).filter((e) => e.type.startsWith("mailbox."));
    expect(events.map((e) => e.type)).toEqual(["mailbox.created"]);
    expect(events[0]!.data).not.toContain("hunter22");
    const audit = desk.deps.db.$client
      .query<{ action: string; data: string }, [string]>("SELECT action, data FROM audit_logs WHERE workspace_id = ?")
      .all(workspace.id);
    expect(audit.map((a) => a.action)).toContain("mailbox.created");
    expect(audit.map((a) => a.data).join()).not.toContain("hunter22");

    const list = await desk.api("GET", "/v1/mailboxes", { headers: owner.headers });
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([res.body.id]);
    expect(list.body.next_cursor).toBeNull();

    const patched = await desk.api("PATCH", `/v1/mailboxes/${res.body.id}`, {
      headers: owner.headers,
      body: { name: "Help", trusted_form_senders: ["Forms@Webflow.test", "@formspree.test"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.trusted_form_senders).toEqual(["forms@webflow.test", "@formspree.test"]);
    expect(patched.body.forwarding_address).toBe(res.body.forwarding_address);

    const deleted = await desk.api("DELETE", `/v1/mailboxes/${res.body.id}`, { headers: owner.headers });
    expect(deleted.status).toBe(204);
    expect((await desk.api("GET", `/v1/mailboxes/${res.body.id}`, { headers: owner.headers })).status).toBe(404);
    expect(
      eventsOf(workspace.id)
        .filter((e) => e.type.startsWith("mailbox."))
        .map((e) => e.type),
    ).toEqual(["mailbox.created", "mailbox.updated", "mailbox.deleted"]);
  });

  test("another workspace's mailbox answers 404 for every route", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const res = await desk.api("POST", "/v1/mailboxes", {
      headers: a.owner.headers,
      body: { name: "A", email: `a-${Date.now()}@acme.test` },
    });
    for (const [method, path, body] of [
      ["GET", `/v1/mailboxes/${res.body.id}`, undefined],
      ["PATCH", `/v1/mailboxes/${res.body.id}`, { name: "x" }],
      ["DELETE", `/v1/mailboxes/${res.body.id}`, undefined],
      ["POST", `/v1/mailboxes/${res.body.id}/test`, undefined],
    ] as const) {
      expect((await desk.api(method, path, { headers: b.owner.headers, body })).status).toBe(404);
    }
    expect((await desk.api("GET", "/v1/mailboxes", { headers: b.owner.headers })).body.data).toEqual([]);
  });

  test("bad input: 422 with located errors, nothing stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const cases: Array<[unknown, string]> = [
      [{ name: "x" }, "body.email"],
      [{ name: "x", email: "not-an-address" }, "body.email"],
      [{ name: 5, email: "a@b.test" }, "body.name"],
      [{ name: "x", email: "a@b.test", unknown_field: 1 }, "body"],
      [{ name: "x", email: "a@b.test", trusted_form_senders: ["@gmail.com"] }, "body.trusted_form_senders.0"],
      [
        { name: "x", email: "a@b.test", trusted_form_senders: ["ok@site.test", "@Outlook.com"] },
        "body.trusted_form_senders.1",
      ],
      [
        { name: "x", email: "a@b.test", trusted_form_senders: Array.from({ length: 51 }, (_, i) => `f${i}@site.test`) },
        "body.trusted_form_senders",
      ],
      [
        { name: "x", email: "a@b.test", inbound_kind: "imap", config: { imap_username: "u" }, password: "p" },
        "body.config.imap_host",
      ],
      [{ name: "x", email: "a@b.test", inbound_kind: "provider_a" }, "body.inbound_kind"],
      [{ name: "x", email: "a@b.test", config: { imap_port: "993" } }, "body.config.imap_port"],
      [{ name: "<script>", email: "a@b.test", team_id: "nope" }, "body.team_id"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect((await desk.api("GET", "/v1/mailboxes", { headers: owner.headers })).body.data).toEqual([]);
    expect(eventsOf(workspace.id).filter((e) => e.type.startsWith("mailbox."))).toEqual([]);
  });

  test("duplicate address answers 409", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const email = `dup-${Date.now()}@acme.test`;
    expect(
      (await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body: { name: "a", email } })).status,
    ).toBe(201);
    expect(
      (await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body: { name: "b", email } })).status,
    ).toBe(409);
  });
});

describe("POST /v1/mailboxes/{id}/test against real Dovecot and smtp-sink", () => {
  const imapBody = (password: string, tls: "none" | "starttls" | "tls") => ({
    name: "IMAP",
    email: `imap-${tls}-${password}@example.test`,
    inbound_kind: "imap",
    outbound_kind: "smtp",
    password,
    config: {
      imap_host: "127.0.0.1",
      imap_port: tls === "tls" ? dovecot.imapsPort : dovecot.imapPort,
      imap_username: "alice@example.test",
      imap_tls: tls,
      smtp_host: "127.0.0.1",
      smtp_port: sink.port,
      smtp_tls: "none",
    },
  });

  for (const tls of ["none", "starttls", "tls"] as const) {
    test(`logs in over IMAP (${tls}) and SMTP`, async () => {
      const { owner } = await createWorkspaceWithOwner(desk);
      const created = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: imapBody("alicepw", tls),
      });
      expect(created.status).toBe(201);
      const res = await desk.api("POST", `/v1/mailboxes/${created.body.id}/test`, { headers: owner.headers });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ inbound: { ok: true, error: "" }, outbound: { ok: true, error: "" } });
    });
  }

  test("a wrong password reports a readable error and sets status error", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { ...imapBody("wrong", "none"), config: { ...imapBody("wrong", "none").config, smtp_port: 1 } },
    });
    const res = await desk.api("POST", `/v1/mailboxes/${created.body.id}/test`, { headers: owner.headers });
    expect(res.body.inbound.ok).toBe(false);
    expect(res.body.inbound.error).toMatch(/IMAP login failed/);
    expect(res.body.outbound.ok).toBe(false);
    expect(res.body.outbound.error).toMatch(/Connection failed/);
    expect(res.text).not.toContain("wrong@");
    const after = await desk.api("GET", `/v1/mailboxes/${created.body.id}`, { headers: owner.headers });
    expect(after.body.status).toBe("error");
    expect(after.body.last_error).toMatch(/IMAP login failed/);
  });
});
