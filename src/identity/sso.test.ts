import { first } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import sharp from "sharp";
import { startTestDesk } from "../../test/harness";
import { addMember, createUser, createWorkspaceWithOwner } from "../../test/factories";
import { SoftAuthenticator } from "../../test/kit/passkeys";
import { sessions, users } from "./identity.table";
import { NATIVE, TestBrowser } from "../../test/kit/browser";
import { ssoProvidersFromEnv } from "../config/config";
import { linkPerson } from "./sso.service";
import { ssoFlows, ssoIdentities } from "./sso.table";
import { type OidcAccount, reserveIssuer, startOidcProvider } from "../../test/kit/sso";

const issuer = await reserveIssuer();
const desk = await startTestDesk({
  env: {
    DESK_SSO_PROVIDERS: "keycloak",
    DESK_SSO_KEYCLOAK_ISSUER: issuer,
    DESK_SSO_KEYCLOAK_CLIENT_ID: "desk",
    DESK_SSO_KEYCLOAK_CLIENT_SECRET: "desk-client-secret",
    DESK_SSO_KEYCLOAK_NAME: "Company SSO",
    DESK_APP_SCHEME: "deskapp",
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  },
});
const base = desk.deps.config.baseUrl;
const idp = await startOidcProvider({
  issuer,
  clientId: "desk",
  clientSecret: "desk-client-secret",
  redirectUris: [`${base}/v1/auth/oauth/keycloak/callback`],
});
afterAll(() => idp.stop());

const origin = new URL(base).origin;
let n = 0;
/** A provider account with a fresh subject. */
function account(claims: OidcAccount) {
  const sub = `sub-${++n}-${Math.random().toString(36).slice(2)}`;
  idp.accounts.set(sub, claims);
  return sub;
}
const pathOf = (url: URL | string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Runs a web sign-in up to Desk's redirect to the sign-in page; the browser keeps the desk_sso cookie. */
async function webFlow(browser: TestBrowser, sub: string, options: { deny?: boolean; next?: string } = {}) {
  const start = await desk.api("GET", `/v1/auth/oauth/keycloak/start${options.next ? `?next=${options.next}` : ""}`, {
    headers: { cookie: browser.cookieHeader(), "sec-fetch-site": "same-origin" },
  });
  browser.absorb(start);
  expect(start.status).toBe(302);
  const back = await idp.authorize(start.headers.get("location")!, sub, options);
  const callback = await desk.api("GET", pathOf(back), { headers: { "sec-fetch-site": "cross-site" } });
  expect(callback.status).toBe(302);
  return { start, back, landing: new URL(callback.headers.get("location")!) };
}
const codeOf = (landing: URL) => new URLSearchParams(landing.hash.slice(1)).get("sso_code");

/**
 * Links provider account `sub` to `person` the way the profile page does: signed in, POST …/link,
 * the provider, then the callback in the same browser. Answers where Desk sent the browser back.
 */
async function linkWhileSignedIn(person: { token: string }, sub: string, browser = new TestBrowser(desk, { origin })) {
  const start = await desk.api("POST", "/v1/auth/oauth/keycloak/link", {
    headers: { authorization: `Bearer ${person.token}`, origin },
  });
  browser.absorb(start);
  expect(start.status).toBe(200);
  const back = await idp.authorize(start.body.url, sub);
  const callback = await desk.api("GET", pathOf(back), {
    headers: { cookie: browser.cookieHeader(), "sec-fetch-site": "cross-site" },
  });
  expect(callback.status).toBe(302);
  return new URL(callback.headers.get("location")!);
}

/** A provider account already linked to `person` (through the signed-in link). */
async function linkedAccount(person: { token: string; email: string }, claims: Parameters<typeof account>[0] = {}) {
  const sub = account({ email: person.email, email_verified: true, ...claims });
  const landing = await linkWhileSignedIn(person, sub);
  expect(landing.searchParams.get("sso_linked")).toBe("keycloak");
  return sub;
}

/** The system mails in the outbox to `address`, decoded, oldest first. */
async function outboxTo(address: string): Promise<string[]> {
  await desk.jobs.drain();
  const dir = join(desk.dataDir, "outbox");
  const raws = existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((f) => readFileSync(join(dir, f), "utf8"))
    : [];
  const mails = await Promise.all(raws.map((raw) => simpleParser(raw)));
  return mails.filter((m) => m.to && JSON.stringify(m.to).includes(address)).map((m) => m.text ?? "");
}
const confirmTokenIn = (text: string) => /\/sso\/confirm#(\S+)/.exec(text)?.[1] ?? null;

describe("single sign-on with a real OpenID Connect provider", () => {
  test("the provider list names each configured provider", async () => {
    const res = await desk.api("GET", "/v1/auth/oauth/providers");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      providers: [{ id: "keycloak", name: "Company SSO", start_url: "/v1/auth/oauth/keycloak/start" }],
    });
  });

  test("start redirects to the provider with PKCE S256, state and nonce, and binds the flow to the browser", async () => {
    const browser = new TestBrowser(desk, { origin });
    const start = await desk.api("GET", "/v1/auth/oauth/keycloak/start?next=/inbox/all");
    browser.absorb(start);
    expect(start.status).toBe(302);
    const url = new URL(start.headers.get("location")!);
    expect(url.origin).toBe(issuer);
    expect(url.searchParams.get("client_id")).toBe("desk");
    expect(url.searchParams.get("redirect_uri")).toBe(`${base}/v1/auth/oauth/keycloak/callback`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    const state = url.searchParams.get("state")!;
    const flow = first(await desk.deps.db.select().from(ssoFlows).where(eq(ssoFlows.state, state)).limit(1))!;
    expect(flow.nonce).toBe(url.searchParams.get("nonce")!);
    expect(flow.client).toBe("web");
    expect(flow.next).toBe("/inbox/all");
    expect(flow.verifierSealed).toStartWith("v1.");
    const cookie = browser.jar.get("desk_sso")!;
    expect(createHash("sha256").update(cookie).digest("hex")).toBe(flow.browserHash!);
    expect(start.headers.getSetCookie()[0]).toContain("HttpOnly");
    expect(start.headers.getSetCookie()[0]).toContain("Path=/v1/auth/oauth");
  });

  test("an unknown provider is 404; a native start without code_challenge is 422 at query.code_challenge", async () => {
    expect((await desk.api("GET", "/v1/auth/oauth/nope/start")).status).toBe(404);
    const native = await desk.api("GET", "/v1/auth/oauth/keycloak/start?client=native");
    expect(native.status).toBe(422);
    expect(native.body.errors[0].location).toBe("query.code_challenge");
  });

  test("web: a linked provider account signs its person in; the exchange sets the refresh cookie once", async () => {
    const person = await createUser(desk, { email: `linked-${n}@example.test` });
    const sub = await linkedAccount(person, { email: person.email.toUpperCase(), name: "Linked" });
    const browser = new TestBrowser(desk, { origin });
    const { landing } = await webFlow(browser, sub, { next: "/inbox/mine" });
    expect(landing.origin + landing.pathname).toBe(`${base}/signin`);
    expect(landing.searchParams.get("next")).toBe("/inbox/mine");
    const code = codeOf(landing)!;
    expect(code).toBeString();

    const res = await browser.post("/v1/auth/oauth/exchange", { code });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(person.id);
    expect(browser.refreshCookies()).toEqual([`desk_rt_${person.id}`]);
    expect(browser.jar.has("desk_sso")).toBe(false);
    const session = first(
      await desk.deps.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, decodeJwt(res.body.access_token).sid as string))
        .limit(1),
    )!;
    expect(session.userId).toBe(person.id);
    expect(session.client).toBe("web");
    const identity = first(
      await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, sub)).limit(1),
    )!;
    expect(identity).toMatchObject({ provider: "keycloak", userId: person.id, email: person.email });

    // The code is single-use.
    expect((await browser.post("/v1/auth/oauth/exchange", { code })).status).toBe(401);
  });

  test("the link, not the email, identifies the person next time (the provider may change the email)", async () => {
    const person = await createUser(desk, { email: `moving-${n}@example.test` });
    const sub = await linkedAccount(person);
    idp.accounts.set(sub, { email: "someone-else@example.test", email_verified: false });
    const again = new TestBrowser(desk, { origin });
    const res = await again.post("/v1/auth/oauth/exchange", { code: codeOf((await webFlow(again, sub)).landing) });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(person.id);
  });

  test("an unverified or missing email never links: sso_error=email_not_verified, no identity stored", async () => {
    const person = await createUser(desk, { email: `victim-${n}@example.test` });
    for (const claims of [{ email: person.email, email_verified: false }, { email: person.email }, {}]) {
      const sub = account(claims);
      const { landing } = await webFlow(new TestBrowser(desk, { origin }), sub);
      expect(landing.searchParams.get("sso_error")).toBe("email_not_verified");
      expect(codeOf(landing)).toBeNull();
      expect(
        first(await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, sub)).limit(1)),
      ).toBeUndefined();
    }
  });

  test("an unknown verified email on a closed instance is no_account; nobody is created", async () => {
    const email = `stranger-${n}@example.test`;
    const { landing } = await webFlow(new TestBrowser(desk, { origin }), account({ email, email_verified: true }));
    expect(landing.searchParams.get("sso_error")).toBe("no_account");
    expect(first(await desk.deps.db.select().from(users).where(eq(users.email, email)).limit(1))).toBeUndefined();
  });

  test("the person denying consent comes back as sso_error=denied", async () => {
    const { landing } = await webFlow(
      new TestBrowser(desk, { origin }),
      account({ email: "d@example.test", email_verified: true }),
      {
        deny: true,
      },
    );
    expect(landing.searchParams.get("sso_error")).toBe("denied");
  });

  test("state is single-use and required; a forged one is invalid_state", async () => {
    const person = await createUser(desk, { email: `replay-${n}@example.test` });
    const browser = new TestBrowser(desk, { origin });
    const { back } = await webFlow(browser, account({ email: person.email, email_verified: true }));
    const replay = await desk.api("GET", pathOf(back));
    expect(new URL(replay.headers.get("location")!).searchParams.get("sso_error")).toBe("invalid_state");
    const forged = await desk.api("GET", "/v1/auth/oauth/keycloak/callback?state=made-up&code=x");
    expect(new URL(forged.headers.get("location")!).searchParams.get("sso_error")).toBe("invalid_state");
    const none = await desk.api("GET", "/v1/auth/oauth/keycloak/callback?code=x");
    expect(new URL(none.headers.get("location")!).searchParams.get("sso_error")).toBe("invalid_state");
  });

  test("the code works only in the browser that started the flow (another browser: 401, and the code is spent)", async () => {
    const person = await createUser(desk, { email: `bound-${n}@example.test` });
    const victim = new TestBrowser(desk, { origin });
    const { landing } = await webFlow(victim, await linkedAccount(person));
    const attacker = new TestBrowser(desk, { origin });
    expect((await attacker.post("/v1/auth/oauth/exchange", { code: codeOf(landing) })).status).toBe(401);
    expect(attacker.refreshCookies()).toEqual([]);
  });

  test("exchange: cross-site refused (403), bad input 422 at the field", async () => {
    const cross = await desk.api("POST", "/v1/auth/oauth/exchange", {
      headers: { origin: "https://evil.example" },
      body: { code: "x" },
    });
    expect(cross.status).toBe(403);
    const bad = await desk.api("POST", "/v1/auth/oauth/exchange", {
      headers: { origin },
      body: { code: "", code_verifier: "short" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { location: string }) => e.location).sort()).toEqual([
      "body.code",
      "body.code_verifier",
    ]);
  });

  test("a person with Desk's two-factor on gets mfa_required from the exchange", async () => {
    const person = await createUser(desk, { email: `mfa-${n}@example.test` });
    const sub = await linkedAccount(person);
    await desk.deps.db.update(users).set({ mfaEnabled: true }).where(eq(users.id, person.id));
    const browser = new TestBrowser(desk, { origin });
    const { landing } = await webFlow(browser, sub);
    const res = await browser.post("/v1/auth/oauth/exchange", { code: codeOf(landing) });
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(true);
    expect(res.body.mfa_token).toBeString();
    expect(browser.refreshCookies()).toEqual([]);
  });

  test("native: system-browser flow back to {app_scheme}://auth/callback; the exchange needs the code_verifier and answers refresh_token", async () => {
    const person = await createUser(desk, { email: `native-${n}@example.test` });
    const sub = await linkedAccount(person);
    const verifier = "v".repeat(20) + Math.random().toString(36).slice(2).padEnd(30, "x");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const start = await desk.api("GET", `/v1/auth/oauth/keycloak/start?client=native&code_challenge=${challenge}`);
    expect(start.status).toBe(302);
    expect(start.headers.getSetCookie()).toEqual([]);
    const back = await idp.authorize(start.headers.get("location")!, sub);
    const callback = await desk.api("GET", pathOf(back));
    const landing = new URL(callback.headers.get("location")!);
    expect(landing.protocol).toBe("deskapp:");
    expect(landing.host + landing.pathname).toBe("auth/callback");
    const code = landing.searchParams.get("code")!;

    const wrong = await desk.api("POST", "/v1/auth/oauth/exchange", {
      headers: NATIVE,
      body: { code, code_verifier: "w".repeat(43) },
    });
    expect(wrong.status).toBe(401);
    // A wrong verifier spends the code: a second native flow is needed.
    expect(
      (await desk.api("POST", "/v1/auth/oauth/exchange", { headers: NATIVE, body: { code, code_verifier: verifier } }))
        .status,
    ).toBe(401);

    const start2 = await desk.api("GET", `/v1/auth/oauth/keycloak/start?client=native&code_challenge=${challenge}`);
    const back2 = await idp.authorize(start2.headers.get("location")!, sub);
    const code2 = new URL((await desk.api("GET", pathOf(back2))).headers.get("location")!).searchParams.get("code")!;
    const ok = await desk.api("POST", "/v1/auth/oauth/exchange", {
      headers: NATIVE,
      body: { code: code2, code_verifier: verifier },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(person.id);
    expect(ok.body.refresh_token).toBeString();
    expect(ok.headers.getSetCookie()).toEqual([]);
    const refreshed = await desk.api("POST", "/v1/auth/refresh", {
      headers: NATIVE,
      body: { refresh_token: ok.body.refresh_token },
    });
    expect(refreshed.status).toBe(200);
  });
});

describe("people created by single sign-on", () => {
  test("with open sign-up, a verified new email becomes a person without a password, linked to the provider account", async () => {
    const open = await startTestDesk({
      env: {
        DESK_OPEN_SIGNUP: "true",
        DESK_SSO_PROVIDERS: "keycloak",
        DESK_SSO_KEYCLOAK_ISSUER: issuer,
        DESK_SSO_KEYCLOAK_CLIENT_ID: "desk",
      },
    });
    expect(open.deps.config.ssoProviders[0]).toMatchObject({ name: "Keycloak", clientSecret: "" });
    const created = await linkPerson(open.deps, "keycloak", "sub-new", "first@example.test", "First Person");
    expect(created).toMatchObject({ email: "first@example.test", name: "First Person", passwordHash: null });
    expect((await linkPerson(open.deps, "keycloak", "sub-new", null, null)).id).toBe(created.id);
    await expect(linkPerson(open.deps, "keycloak", "sub-other", null, null)).rejects.toThrow("email_not_verified");
  });

  test("a provider missing its issuer stops Desk at start", () => {
    expect(() => ssoProvidersFromEnv({ DESK_SSO_PROVIDERS: "entra", DESK_SSO_ENTRA_CLIENT_ID: "x" })).toThrow(
      "DESK_SSO_ENTRA_ISSUER",
    );
    expect(
      ssoProvidersFromEnv({
        DESK_SSO_PROVIDERS: "google, my-idp",
        DESK_SSO_GOOGLE_ISSUER: "https://accounts.google.com/",
        DESK_SSO_GOOGLE_CLIENT_ID: "g",
        DESK_SSO_MY_IDP_ISSUER: "https://idp.example/realms/x",
        DESK_SSO_MY_IDP_CLIENT_ID: "m",
        DESK_SSO_MY_IDP_NAME: "Our IdP",
      }).map((p) => [p.id, p.name, p.issuer]),
    ).toEqual([
      ["google", "Google", "https://accounts.google.com"],
      ["my-idp", "Our IdP", "https://idp.example/realms/x"],
    ]);
  });
});

describe("SSO only (workspace setting sso_only)", () => {
  test("members other than the owner must use single sign-on: password and passkey sign-in answer 403 sso_required", async () => {
    const { owner, workspace } = await createWorkspaceWithOwner(desk);
    const member = await addMember(desk, workspace.id, "agent", { email: `only-${n}@example.test` });
    const hash = await Bun.password.hash("member password");
    await desk.deps.db.update(users).set({ passwordHash: hash }).where(eq(users.id, member.id));
    await desk.deps.db.update(users).set({ passwordHash: hash }).where(eq(users.id, owner.id));
    const password = (email: string) =>
      desk.api("POST", "/v1/auth/login", { headers: { origin }, body: { email, password: "member password" } });
    expect((await password(member.email)).status).toBe(200);

    const on = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { sso_only: true } },
    });
    expect(on.status).toBe(200);
    expect(on.body.settings.sso_only).toBe(true);

    const refused = await password(member.email);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("sso_required");
    expect(refused.body.detail).toContain(workspace.name);
    // A wrong password still answers 401: the setting is told only to someone who knows the password.
    const wrong = await desk.api("POST", "/v1/auth/login", {
      headers: { origin },
      body: { email: member.email, password: "not it" },
    });
    expect(wrong.status).toBe(401);
    // The owner keeps password sign-in as the way back in.
    expect((await password(owner.email)).status).toBe(200);

    // A passkey is refused too.
    const start = await desk.api("POST", "/v1/me/passkeys/options", { headers: { ...member.headers, origin } });
    const authenticator = new SoftAuthenticator(origin);
    await desk.api("POST", "/v1/me/passkeys", {
      headers: { ...member.headers, origin },
      body: { credential: authenticator.create(start.body.options) },
    });
    const options = (await desk.api("POST", "/v1/auth/passkey/options", { headers: { origin } })).body.options;
    const viaPasskey = await desk.api("POST", "/v1/auth/passkey/login", {
      headers: { origin },
      body: { credential: authenticator.get(options) },
    });
    expect(viaPasskey.status).toBe(403);
    expect(viaPasskey.body.code).toBe("sso_required");

    // Single sign-on works (linked while signed in: a session opened before sso_only keeps working).
    const sub = await linkedAccount(member);
    const browser = new TestBrowser(desk, { origin });
    const { landing } = await webFlow(browser, sub);
    const res = await browser.post("/v1/auth/oauth/exchange", { code: codeOf(landing) });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(member.id);
  });
});

describe("the provider's picture", () => {
  test("a person without a picture gets the provider's (source oauth); one with a picture keeps it", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .png()
      .toBuffer();
    const pictures = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(png) });
    try {
      const picture = `http://127.0.0.1:${pictures.port}/me.png`;
      const bare = await createUser(desk, { email: `pic-${n}@example.test` });
      const browser = new TestBrowser(desk, { origin });
      const { landing } = await webFlow(browser, await linkedAccount(bare, { picture }));
      expect((await browser.post("/v1/auth/oauth/exchange", { code: codeOf(landing) })).status).toBe(200);
      await desk.jobs.drain();
      const row = first(await desk.deps.db.select().from(users).where(eq(users.id, bare.id)).limit(1))!;
      expect(row.avatarSource).toBe("oauth");
      expect(row.avatarUrl).toContain("/v1/images/img_");

      const chosen = await createUser(desk, { email: `kept-${n}@example.test` });
      await desk.deps.db
        .update(users)
        .set({ avatarUrl: "http://x/v1/images/img_mine", avatarSource: "upload" })
        .where(eq(users.id, chosen.id));
      const other = new TestBrowser(desk, { origin });
      const flow = await webFlow(other, await linkedAccount(chosen, { picture }));
      expect((await other.post("/v1/auth/oauth/exchange", { code: codeOf(flow.landing) })).status).toBe(200);
      await desk.jobs.drain();
      expect(first(await desk.deps.db.select().from(users).where(eq(users.id, chosen.id)).limit(1))!.avatarSource).toBe(
        "upload",
      );
    } finally {
      pictures.stop(true);
    }
  });
});

describe("linking a provider account to an existing person needs that person's proof", () => {
  test("a verified email of an existing password account never signs in or links: a confirmation mail goes to that address, and its link links", async () => {
    const person = await createUser(desk, { email: `owner-of-${n}@example.test` });
    const hash = await Bun.password.hash("their own password");
    await desk.deps.db.update(users).set({ passwordHash: hash }).where(eq(users.id, person.id));
    const sub = account({ email: person.email, email_verified: true });
    const { landing } = await webFlow(new TestBrowser(desk, { origin }), sub);
    expect(landing.searchParams.get("sso_error")).toBe("confirm_link_by_mail");
    expect(codeOf(landing)).toBeNull();
    expect(
      first(await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, sub)).limit(1)),
    ).toBeUndefined();

    // A second attempt within ten minutes sends no second mail.
    await webFlow(new TestBrowser(desk, { origin }), sub);
    const mails = await outboxTo(person.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Company SSO");
    const token = confirmTokenIn(mails[0]!)!;
    expect(token).toBeString();

    // Tampered or made-up tokens link nothing.
    for (const bad of [`${token.slice(0, -4)}AAAA`, "v1.a.b.c", "nonsense"]) {
      const res = await desk.api("POST", "/v1/auth/oauth/confirm-link", { headers: { origin }, body: { token: bad } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_link");
    }
    const confirmed = await desk.api("POST", "/v1/auth/oauth/confirm-link", { headers: { origin }, body: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ provider: { id: "keycloak", name: "Company SSO" }, email: person.email });
    expect(
      first(await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, sub)).limit(1)),
    ).toMatchObject({
      userId: person.id,
    });
    // Now the provider signs them in.
    const browser = new TestBrowser(desk, { origin });
    const res = await browser.post("/v1/auth/oauth/exchange", { code: codeOf((await webFlow(browser, sub)).landing) });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(person.id);
  });

  test("the confirmation mail speaks the person's own language", async () => {
    const person = await createUser(desk, { email: `idioma-${n}@example.test` });
    const hash = await Bun.password.hash("their own password");
    await desk.deps.db.update(users).set({ passwordHash: hash }).where(eq(users.id, person.id));
    const me = await desk.api("PATCH", "/v1/me", {
      headers: { authorization: `Bearer ${person.token}` },
      body: { locale: "pt-br" },
    });
    expect(me.status).toBe(200);
    await webFlow(new TestBrowser(desk, { origin }), account({ email: person.email, email_verified: true }));
    const [mail] = await outboxTo(person.email);
    expect(mail).toContain(`Olá, ${person.name},`);
    expect(mail).toContain(
      `Alguém entrou no Desk com uma conta Company SSO que informa seu endereço de e-mail, ${person.email}.`,
    );
    expect(mail).toContain("Se foi você, abra este link para conectar essa conta Company SSO à sua conta do Desk:");
    expect(confirmTokenIn(mail!)).toBeString();
  });

  test("a confirmation link stops working after an hour, or once the person's email changed", async () => {
    const person = await createUser(desk, { email: `later-${n}@example.test` });
    const sub = account({ email: person.email, email_verified: true });
    await webFlow(new TestBrowser(desk, { origin }), sub);
    const token = confirmTokenIn((await outboxTo(person.email))[0]!)!;
    await desk.deps.db
      .update(users)
      .set({ email: `moved-${n}@example.test` })
      .where(eq(users.id, person.id));
    const moved = await desk.api("POST", "/v1/auth/oauth/confirm-link", { headers: { origin }, body: { token } });
    expect(moved.status).toBe(400);
    await desk.deps.db.update(users).set({ email: person.email }).where(eq(users.id, person.id));
    const sealed = desk.deps.secrets.open(token);
    const expired = desk.deps.secrets.seal(
      JSON.stringify({ ...JSON.parse(sealed), expires_at: new Date(Date.now() - 1000).toISOString() }),
    );
    const late = await desk.api("POST", "/v1/auth/oauth/confirm-link", {
      headers: { origin },
      body: { token: expired },
    });
    expect(late.status).toBe(400);
    expect(
      first(await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, sub)).limit(1)),
    ).toBeUndefined();
  });

  test('only the boolean true is verified: email_verified "true" (a string) links and creates nobody', async () => {
    const person = await createUser(desk, { email: `stringly-${n}@example.test` });
    const sub = account({ email: person.email, email_verified: "true" });
    const { landing } = await webFlow(new TestBrowser(desk, { origin }), sub);
    expect(landing.searchParams.get("sso_error")).toBe("email_not_verified");
    expect(await outboxTo(person.email)).toEqual([]);
    expect(
      first(await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.subject, sub)).limit(1)),
    ).toBeUndefined();
  });

  test("a person already linked to another account of the provider gains no second one: already_linked, no mail", async () => {
    const person = await createUser(desk, { email: `taken-${n}@example.test` });
    await linkedAccount(person);
    const intruder = account({ email: person.email, email_verified: true });
    const { landing } = await webFlow(new TestBrowser(desk, { origin }), intruder);
    expect(landing.searchParams.get("sso_error")).toBe("already_linked");
    expect(codeOf(landing)).toBeNull();
    expect(await outboxTo(person.email)).toEqual([]);
    expect(await desk.deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, person.id))).toHaveLength(1);
  });

  test("signed in: link from the profile (any email), listed; one per provider; someone else's account is linked_elsewhere; another browser is invalid_state", async () => {
    const person = await createUser(desk, { email: `profile-${n}@example.test` });
    const headers = { authorization: `Bearer ${person.token}`, origin };
    expect((await desk.api("GET", "/v1/auth/oauth/identities", { headers })).body).toEqual({ identities: [] });
    expect((await desk.api("GET", "/v1/auth/oauth/identities")).status).toBe(401);
    expect((await desk.api("POST", "/v1/auth/oauth/keycloak/link", { headers: { origin } })).status).toBe(401);
    expect((await desk.api("POST", "/v1/auth/oauth/nope/link", { headers })).status).toBe(404);

    // Another browser cannot finish a link started in this one.
    const start = await desk.api("POST", "/v1/auth/oauth/keycloak/link", { headers });
    const elsewhere = await idp.authorize(start.body.url, account({ email: "x@example.test", email_verified: true }));
    const hijack = await desk.api("GET", pathOf(elsewhere), { headers: { "sec-fetch-site": "cross-site" } });
    expect(new URL(hijack.headers.get("location")!).searchParams.get("sso_error")).toBe("invalid_state");

    // Someone else's provider account stays theirs.
    const other = await createUser(desk, { email: `other-${n}@example.test` });
    const theirs = await linkedAccount(other);
    const stolen = await linkWhileSignedIn(person, theirs);
    expect(stolen.pathname).toBe("/profile");
    expect(stolen.searchParams.get("sso_error")).toBe("linked_elsewhere");

    // An account with an unrelated, unverified email links: being signed in is the proof.
    const sub = account({ email: "personal@elsewhere.test", email_verified: false });
    const landing = await linkWhileSignedIn(person, sub);
    expect(landing.searchParams.get("sso_linked")).toBe("keycloak");
    const listed = await desk.api("GET", "/v1/auth/oauth/identities", { headers });
    expect(listed.body.identities).toEqual([
      expect.objectContaining({ provider: "keycloak", provider_name: "Company SSO", email: null }),
    ]);
    const again = await desk.api("POST", "/v1/auth/oauth/keycloak/link", { headers });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("already_linked");
    const browser = new TestBrowser(desk, { origin });
    const signedIn = await browser.post("/v1/auth/oauth/exchange", {
      code: codeOf((await webFlow(browser, sub)).landing),
    });
    expect(signedIn.body.user.id).toBe(person.id);
  });
});
