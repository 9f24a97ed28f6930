import { first, rowsOf } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { startTestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner } from "../../test/factories";
import { freePort } from "../../test/peers/dovecot";
import type { OAuthTokens } from "./mailboxes.connection";
import { mailboxes } from "./mailboxes.table";

/**
 * provider_a against a local fake authorization server (PKCE S256, state, code exchange, refresh)
 * and a local SMTP server that only accepts XOAUTH2 with the token it issued, over STARTTLS.
 */
const CLIENT_ID = "desk-client";
const CLIENT_SECRET = "desk-client-secret";

type Grant = { challenge: string; redirectUri: string; email: string };
const grants = new Map<string, Grant>();
const tokenRequests: Array<Record<string, string>> = [];
const validAccessTokens = new Set<string>();
let accessCounter = 0;
let issueExpiresIn = 3600;

const issueTokens = (email: string) => {
  const access = `access-${++accessCounter}`;
  validAccessTokens.add(access);
  return {
    access_token: access,
    refresh_token: `refresh-for-${email}`,
    expires_in: issueExpiresIn,
    token_type: "Bearer",
    email,
  };
};

const authServer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/authorize") {
      // The user "consents" at once: redirect back with a code bound to the PKCE challenge.
      const q = url.searchParams;
      if (
        q.get("client_id") !== CLIENT_ID ||
        q.get("code_challenge_method") !== "S256" ||
        !q.get("code_challenge") ||
        !q.get("state")
      ) {
        return new Response("bad authorization request", { status: 400 });
      }
      const code = randomBytes(12).toString("hex");
      grants.set(code, {
        challenge: q.get("code_challenge")!,
        redirectUri: q.get("redirect_uri")!,
        email: q.get("login_hint") ?? "owner@provider-a.test",
      });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state")!);
      return Response.redirect(back.toString(), 302);
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      tokenRequests.push(form);
      if (form.client_id !== CLIENT_ID || form.client_secret !== CLIENT_SECRET)
        return Response.json({ error: "invalid_client" }, { status: 401 });
      if (form.grant_type === "authorization_code") {
        const grant = grants.get(form.code ?? "");
        grants.delete(form.code ?? "");
        const verifierOk =
          grant &&
          createHash("sha256")
            .update(form.code_verifier ?? "")
            .digest("base64url") === grant.challenge;
        if (!grant || !verifierOk || form.redirect_uri !== grant.redirectUri)
          return Response.json({ error: "invalid_grant" }, { status: 400 });
        return Response.json(issueTokens(grant.email));
      }
      if (form.grant_type === "refresh_token" && form.refresh_token?.startsWith("refresh-for-")) {
        const access = `access-${++accessCounter}`;
        validAccessTokens.add(access);
        return Response.json({ access_token: access, expires_in: 3600 });
      }
      return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
    }
    return new Response("not found", { status: 404 });
  },
});

// The provider's SMTP: STARTTLS with a self-signed certificate, XOAUTH2 only.
const dir = mkdtempSync(join(tmpdir(), "desk-oauth-"));
Bun.spawnSync([
  "openssl",
  "req",
  "-x509",
  "-newkey",
  "rsa:2048",
  "-nodes",
  "-days",
  "1",
  "-subj",
  "/CN=localhost",
  "-addext",
  "subjectAltName=DNS:localhost,IP:127.0.0.1",
  "-keyout",
  join(dir, "key.pem"),
  "-out",
  join(dir, "cert.pem"),
]);
const smtpAuths: Array<{ user: string; token: string; ok: boolean }> = [];
const delivered: string[] = [];
const providerSmtp = new SMTPServer({
  secure: false,
  key: readFileSync(join(dir, "key.pem")),
  cert: readFileSync(join(dir, "cert.pem")),
  authMethods: ["XOAUTH2"],
  disableReverseLookup: true,
  logger: false,
  onAuth(auth, _session, callback) {
    const ok = auth.method === "XOAUTH2" && validAccessTokens.has(auth.accessToken ?? "");
    smtpAuths.push({ user: auth.username ?? "", token: auth.accessToken ?? "", ok });
    if (ok) return callback(null, { user: auth.username });
    callback(null, { data: { status: "401", schemes: "bearer", scope: "mail" } });
  },
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      delivered.push(Buffer.concat(chunks).toString("utf8"));
      callback();
    });
  },
});
const smtpPort = await freePort();
await new Promise<void>((resolve) => providerSmtp.listen(smtpPort, "127.0.0.1", () => resolve()));

const authBase = `http://127.0.0.1:${authServer.port}`;
const desk = await startTestDesk({
  env: {
    DESK_JOBS: "off",
    DESK_BASE_URL: "http://desk.test",
    DESK_MAIL_CA_FILE: join(dir, "cert.pem"),
    DESK_OAUTH_PROVIDER_A_AUTH_URL: `${authBase}/authorize`,
    DESK_OAUTH_PROVIDER_A_TOKEN_URL: `${authBase}/token`,
    DESK_OAUTH_PROVIDER_A_CLIENT_ID: CLIENT_ID,
    DESK_OAUTH_PROVIDER_A_CLIENT_SECRET: CLIENT_SECRET,
    DESK_OAUTH_PROVIDER_A_SMTP_HOST: `127.0.0.1:${smtpPort}`,
  },
});
afterAll(async () => {
  authServer.stop(true);
  await new Promise<void>((resolve) => providerSmtp.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Follows the browser's path: our start URL → the provider → our callback; answers our final redirect. */
async function connect(headers: Record<string, string>, body: Record<string, unknown>) {
  const start = await desk.api("POST", "/v1/mailboxes/oauth/provider_a/start", { headers, body });
  expect(start.status).toBe(200);
  const atProvider = await fetch(start.body.url, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get("location")!);
  const done = await desk.api("GET", `${callback.pathname}${callback.search}`);
  return { start: start.body.url as string, callback, done };
}

const sealedTokens = async (id: string): Promise<OAuthTokens> => {
  const row = first(await desk.deps.db.select().from(mailboxes).where(eq(mailboxes.id, id)).limit(1))!;
  return JSON.parse(desk.deps.secrets.open(row.oauthSealed!)) as OAuthTokens;
};

describe("OAuth mailbox connection (provider_a, PKCE + state)", () => {
  test("start → provider → callback creates a provider mailbox with sealed tokens", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const { start, callback, done } = await connect(owner.headers, {
      name: "Gmail-ish",
      email: "Owner@Provider-A.test",
    });
    const url = new URL(start);
    expect(`${url.origin}${url.pathname}`).toBe(`${authBase}/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe("http://desk.test/v1/mailboxes/oauth/provider_a/callback");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the challenge travels; the verifier stays on the server.
    const exchange = tokenRequests.at(-1)!;
    expect(exchange.grant_type).toBe("authorization_code");
    expect(start).not.toContain(exchange.code_verifier!);
    expect(callback.searchParams.get("state")).toBe(url.searchParams.get("state"));

    expect(done.status).toBe(302);
    const location = done.headers.get("location")!;
    expect(location).toMatch(/^http:\/\/desk\.test\/settings\/mailboxes\?connected=/);
    const id = new URL(location).searchParams.get("connected")!;
    const mailbox = await desk.api("GET", `/v1/mailboxes/${id}`, { headers: owner.headers });
    expect(mailbox.body).toMatchObject({
      email: "owner@provider-a.test",
      inbound_kind: "provider_a",
      outbound_kind: "provider_a",
      status: "active",
      config: { oauth_email: "owner@provider-a.test" },
    });
    expect(JSON.stringify(mailbox.body)).not.toContain("access-");
    const row = first(await desk.deps.db.select().from(mailboxes).where(eq(mailboxes.id, id)).limit(1))!;
    expect(row.workspaceId).toBe(workspace.id);
    expect(row.oauthSealed).not.toContain("access-");
    expect(await sealedTokens(id)).toMatchObject({
      access_token: `access-${accessCounter}`,
      refresh_token: "refresh-for-Owner@Provider-A.test",
    });
  });

  test("a state is single-use, bound to its provider, and required", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const start = await desk.api("POST", "/v1/mailboxes/oauth/provider_a/start", {
      headers: owner.headers,
      body: { name: "Replay", email: "replay@provider-a.test" },
    });
    const atProvider = await fetch(start.body.url, { redirect: "manual" });
    const callback = new URL(atProvider.headers.get("location")!);
    const wrongProvider = await desk.api("GET", `/v1/mailboxes/oauth/provider_b/callback${callback.search}`);
    expect(wrongProvider.headers.get("location")).toContain("error=invalid_state");
    const used = await desk.api("GET", `${callback.pathname}${callback.search}`);
    expect(used.headers.get("location")).toContain("connected=");
    const replay = await desk.api("GET", `${callback.pathname}${callback.search}`);
    expect(replay.headers.get("location")).toContain("error=invalid_state");
    const forged = await desk.api("GET", `${callback.pathname}?state=made-up&code=x`);
    expect(forged.headers.get("location")).toContain("error=invalid_state");
    const missing = await desk.api("GET", `${callback.pathname}?code=x`);
    expect(missing.headers.get("location")).toContain("error=invalid_state");
    expect((await desk.api("GET", "/v1/mailboxes", { headers: owner.headers })).body.data).toHaveLength(1);
  });

  test("a code the provider refuses (wrong verifier or unknown code) stores nothing", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const start = await desk.api("POST", "/v1/mailboxes/oauth/provider_a/start", {
      headers: owner.headers,
      body: { name: "Bad code" },
    });
    const state = new URL(start.body.url).searchParams.get("state")!;
    const res = await desk.api("GET", `/v1/mailboxes/oauth/provider_a/callback?state=${state}&code=not-issued`);
    expect(res.headers.get("location")).toContain("error=token_exchange_failed");
    const denied = await desk.api("POST", "/v1/mailboxes/oauth/provider_a/start", {
      headers: owner.headers,
      body: { name: "Denied" },
    });
    const deniedState = new URL(denied.body.url).searchParams.get("state")!;
    const refused = await desk.api(
      "GET",
      `/v1/mailboxes/oauth/provider_a/callback?state=${deniedState}&error=access_denied`,
    );
    expect(refused.headers.get("location")).toContain("error=access_denied");
    expect((await desk.api("GET", "/v1/mailboxes", { headers: owner.headers })).body.data).toEqual([]);
  });

  test("start: 401 without credential, 403 for agents, 404 unconfigured provider or other workspace's mailbox, 422 bad body", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const theirs = await desk.api("POST", "/v1/mailboxes", {
      headers: other.owner.headers,
      body: { name: "Theirs", email: `theirs-${Date.now()}@x.test` },
    });
    const agent = await addMember(desk, workspace.id, "agent");
    const path = "/v1/mailboxes/oauth/provider_a/start";
    expect((await desk.api("POST", path, { body: { name: "x" } })).status).toBe(401);
    expect((await desk.api("POST", path, { headers: agent.headers, body: { name: "x" } })).status).toBe(403);
    expect(
      (await desk.api("POST", "/v1/mailboxes/oauth/provider_b/start", { headers: owner.headers, body: { name: "x" } }))
        .status,
    ).toBe(404);
    expect(
      (await desk.api("POST", path, { headers: owner.headers, body: { name: "x", mailbox_id: theirs.body.id } }))
        .status,
    ).toBe(404);
    for (const body of [{}, { name: 5 }, { name: "x", email: "nope" }, { name: "x", extra: true }]) {
      const res = await desk.api("POST", path, { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
    expect(
      (await desk.api("POST", "/v1/mailboxes/oauth/provider_z/start", { headers: owner.headers, body: { name: "x" } }))
        .status,
    ).toBe(422);
  });
});

describe("sending through the provider: token refresh and SMTP XOAUTH2", () => {
  test("an expiring access token is refreshed, re-sealed and used for XOAUTH2 over STARTTLS", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    issueExpiresIn = 30; // inside the 60 s refresh window: the first send must refresh
    const { done } = await connect(owner.headers, { name: "Refresh", email: "refresh@provider-a.test" });
    issueExpiresIn = 3600;
    const id = new URL(done.headers.get("location")!).searchParams.get("connected")!;
    const first = await sealedTokens(id);

    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: {
        subject: "Your order",
        contact: { email: "buyer@customer.test", name: "Buyer" },
        channel: "email",
        mailbox_id: id,
        kind: "reply",
        body_html: "<p>It shipped.</p>",
      },
    });
    expect(ticket.status).toBe(201);
    await desk.jobs.drain();

    const refreshed = await sealedTokens(id);
    expect(tokenRequests.at(-1)).toMatchObject({
      grant_type: "refresh_token",
      refresh_token: "refresh-for-refresh@provider-a.test",
    });
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.refresh_token).toBe(first.refresh_token);
    expect(smtpAuths.at(-1)).toEqual({ user: "refresh@provider-a.test", token: refreshed.access_token, ok: true });
    const sent = delivered.find((m) => m.includes("It shipped."))!;
    expect(sent).toContain("From: Refresh <refresh@provider-a.test>");
    expect(sent).toMatch(/^To: .*buyer@customer\.test/m);
    const messages = await rowsOf<{ delivery_status: string }>(
      desk.deps.db,
      sql`SELECT delivery_status FROM messages WHERE ticket_id = ${ticket.body.id}`,
    );
    expect(messages.map((m) => m.delivery_status)).toEqual(["sent"]);
  });

  test("a token the provider no longer accepts fails the send with a readable error", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const { done } = await connect(owner.headers, { name: "Revoked", email: "revoked@provider-a.test" });
    const id = new URL(done.headers.get("location")!).searchParams.get("connected")!;
    validAccessTokens.delete((await sealedTokens(id)).access_token);
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: {
        subject: "Revoked",
        contact: { email: "buyer2@customer.test" },
        channel: "email",
        mailbox_id: id,
        kind: "reply",
        body_html: "<p>Never arrives.</p>",
      },
    });
    await desk.jobs.drain();
    const [message] = await rowsOf<{ delivery_status: string; delivery_error: string }>(
      desk.deps.db,
      sql`SELECT delivery_status, delivery_error FROM messages WHERE ticket_id = ${ticket.body.id}`,
    );
    expect(message!.delivery_status).toBe("failed");
    expect(message!.delivery_error).toMatch(/Authentication failed|535|334/);
    expect(smtpAuths.at(-1)!.ok).toBe(false);
  });
});
