import { first, rowsOf } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHECK_FAILURES } from "./mailboxes.check";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startDovecot, type Dovecot } from "../../test/peers/dovecot";
import { startSmtpSink, type SmtpSink } from "../../test/peers/smtp-sink";
import { mailboxes } from "./mailboxes.table";
import { eq, sql } from "drizzle-orm";

const dovecot: Dovecot = await startDovecot({ "alice@example.test": "alicepw" });
const sink: SmtpSink = await startSmtpSink();
const caFile = join(dovecot.dir, "ca-for-desk.pem");
writeFileSync(caFile, dovecot.ca);
const desk: TestDesk = await startTestDesk({
  env: {
    DESK_INBOUND_DOMAIN: "in.desk.test",
    DESK_MAIL_CA_FILE: caFile,
    DESK_JOBS: "off",
    // The Dovecot and smtp-sink peers listen on loopback, which mail hosts may reach only when listed.
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  },
});
afterAll(async () => {
  await dovecot?.dispose();
  await sink?.stop();
});

const eventsOf = async (workspaceId: string) =>
  await rowsOf<{ type: string; data: string }>(
    desk.deps.db,
    // The JSON as text on both engines (jsonb on PostgreSQL).
    sql`SELECT type, CAST(data AS TEXT) AS data FROM events WHERE workspace_id = ${workspaceId} ORDER BY seq`,
  );

describe("mailboxes CRUD", () => {
  test("access: 401 without credential, 403 for agents and keys without settings scopes, key with both scopes allowed", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/mailboxes")).status).toBe(401);
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/mailboxes", { headers: agent.headers })).status).toBe(403);
    const readOnly = await createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("GET", "/v1/mailboxes", { headers: readOnly.headers })).status).toBe(403);
    const key = await createKey(desk, owner, ["settings:read", "settings:write"]);
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
    const row = first(await desk.deps.db.select().from(mailboxes).where(eq(mailboxes.id, res.body.id)).limit(1))!;
    expect(row.smtpPasswordSealed).not.toContain("hunter22");
    expect(desk.deps.secrets.open(row.smtpPasswordSealed!)).toBe("hunter22");
    const events = (await eventsOf(workspace.id)).filter((e) => e.type.startsWith("mailbox."));
    expect(events.map((e) => e.type)).toEqual(["mailbox.created"]);
    expect(events[0]!.data).not.toContain("hunter22");
    const audit = await rowsOf<{ action: string; data: string }>(
      desk.deps.db,
      sql`SELECT action, CAST(data AS TEXT) AS data FROM audit_logs WHERE workspace_id = ${workspace.id}`,
    );
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
    expect((await eventsOf(workspace.id)).filter((e) => e.type.startsWith("mailbox.")).map((e) => e.type)).toEqual([
      "mailbox.created",
      "mailbox.updated",
      "mailbox.deleted",
    ]);
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
    expect((await eventsOf(workspace.id)).filter((e) => e.type.startsWith("mailbox."))).toEqual([]);
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
      expect(res.body).toEqual({
        inbound: { ok: true, category: null, error: "" },
        outbound: { ok: true, category: null, error: "" },
      });
    });
  }

  test("a wrong password reports a readable error and sets status error", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { ...imapBody("wrong", "none"), config: { ...imapBody("wrong", "none").config, smtp_port: 1 } },
    });
    const res = await desk.api("POST", `/v1/mailboxes/${created.body.id}/test`, { headers: owner.headers });
    expect(res.body.inbound).toEqual({ ok: false, category: "auth_failed", error: CHECK_FAILURES.auth_failed });
    expect(res.body.outbound).toEqual({
      ok: false,
      category: "connection_refused",
      error: CHECK_FAILURES.connection_refused,
    });
    expect(res.text).not.toContain("wrong@");
    const after = await desk.api("GET", `/v1/mailboxes/${created.body.id}`, { headers: owner.headers });
    expect(after.body.status).toBe("error");
    expect(after.body.last_error).toBe(CHECK_FAILURES.auth_failed);
  });
});

describe("mail hosts pass the SSRF guard; the test answers a category, never the server's words", () => {
  const smtpOnly = (host: string, port = 25) => ({
    name: "Out",
    email: `out-${crypto.randomUUID().slice(0, 8)}@example.test`,
    outbound_kind: "smtp",
    config: { smtp_host: host, smtp_port: port, smtp_tls: "none" },
  });
  /** A TCP service on loopback that is no mail server: it greets with a secret banner and counts connections. */
  async function bannerService(banner: string) {
    let connections = 0;
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(socket) {
          connections++;
          socket.write(banner);
          setTimeout(() => socket.end(), 100);
        },
        data() {},
      },
    });
    return { port: server.port, connections: () => connections, stop: () => server.stop(true) };
  }
  const withAllowList = async <T>(list: string[], run: () => Promise<T>): Promise<T> => {
    const saved = desk.deps.config.allowedPrivateHosts;
    desk.deps.config.allowedPrivateHosts = list;
    try {
      return await run();
    } finally {
      desk.deps.config.allowedPrivateHosts = saved;
    }
  };

  test("saving a private, loopback or link-local host answers 422 at its field unless the operator lists it", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await withAllowList([], async () => {
      for (const host of ["127.0.0.1", "0x7f.1", "[::1]", "localhost", "169.254.169.254", "10.0.0.5", "db"]) {
        const res = await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body: smtpOnly(host) });
        expect(res.status).toBe(422);
        expect(res.body.errors.map((e: { location: string }) => e.location)).toEqual(["body.config.smtp_host"]);
      }
      const imap = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: {
          name: "In",
          email: `in-${crypto.randomUUID().slice(0, 8)}@example.test`,
          inbound_kind: "imap",
          outbound_kind: "system",
          password: "pw",
          config: { imap_host: "192.168.1.1", imap_username: "u" },
        },
      });
      expect(imap.status).toBe(422);
      expect(imap.body.errors[0].location).toBe("body.config.imap_host");
    });
    const created = await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body: smtpOnly("127.0.0.1") });
    expect(created.status).toBe(201);
    await withAllowList([], async () => {
      const patched = await desk.api("PATCH", `/v1/mailboxes/${created.body.id}`, {
        headers: owner.headers,
        body: { config: { smtp_host: "169.254.169.254" } },
      });
      expect(patched.status).toBe(422);
      expect(patched.body.errors[0].location).toBe("body.config.smtp_host");
    });
  });

  test("a host allowed when saved but not when connecting (DNS or the list changed) is refused before any connection", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const service = await bannerService("220 internal-secret-banner ESMTP\r\n");
    try {
      const created = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: smtpOnly("127.0.0.1", service.port),
      });
      expect(created.status).toBe(201);
      const res = await withAllowList([], () =>
        desk.api("POST", `/v1/mailboxes/${created.body.id}/test`, { headers: owner.headers }),
      );
      expect(res.body.outbound).toEqual({
        ok: false,
        category: "host_not_allowed",
        error: CHECK_FAILURES.host_not_allowed,
      });
      expect(service.connections()).toBe(0);
    } finally {
      service.stop();
    }
  });

  test("an internal service's banner never reaches the answer or last_error (no port-scan oracle)", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const service = await bannerService("SSH-2.0-internal-secret-banner\r\n");
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const deadPort = closed.port;
    closed.stop(true);
    try {
      const created = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: {
          ...smtpOnly("127.0.0.1", service.port),
          inbound_kind: "imap",
          password: "pw",
          config: {
            imap_host: "127.0.0.1",
            imap_port: service.port,
            imap_username: "u",
            imap_tls: "none",
            smtp_host: "127.0.0.1",
            smtp_port: deadPort,
            smtp_tls: "none",
          },
        },
      });
      expect(created.status).toBe(201);
      const res = await desk.api("POST", `/v1/mailboxes/${created.body.id}/test`, { headers: owner.headers });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain("secret-banner");
      expect(res.text).not.toContain("SSH");
      expect(res.body.inbound.ok).toBe(false);
      expect(Object.keys(CHECK_FAILURES)).toContain(res.body.inbound.category);
      expect(res.body.inbound.error).toBe(CHECK_FAILURES[res.body.inbound.category as keyof typeof CHECK_FAILURES]);
      expect(res.body.outbound.category).toBe("connection_refused");
      const after = await desk.api("GET", `/v1/mailboxes/${created.body.id}`, { headers: owner.headers });
      expect(after.text).not.toContain("secret-banner");
      expect(after.body.last_error).toBe(res.body.inbound.error);
    } finally {
      service.stop();
    }
  });

  test("categories read from real peers: TLS against a plain port fails the handshake", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: {
        ...smtpOnly("127.0.0.1", sink.port),
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "tls" },
      },
    });
    const res = await desk.api("POST", `/v1/mailboxes/${created.body.id}/test`, { headers: owner.headers });
    expect(res.body.outbound).toMatchObject({ ok: false, category: "tls_failed" });
  });
});
