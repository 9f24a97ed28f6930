import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import * as OTPAuth from "otpauth";
import { startTestDesk } from "../../test/harness";
import { ALL_SCOPES, createKey, createUser, createWorkspaceWithOwner, type TestUser } from "../../test/factories";
import { sessions, users } from "./identity.table";
import { NATIVE, TestBrowser } from "../../test/kit/browser";
import { passkeyChallenges, passkeys } from "./passkeys.table";
import { SoftAuthenticator } from "../../test/kit/passkeys";

const desk = await startTestDesk();
const origin = () => new URL(desk.deps.config.baseUrl).origin;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, origin: origin() });
const anon = () => ({ origin: origin() });

/** Registers a new passkey for `person` through the API; answers the authenticator holding it and the created row. */
async function enrol(person: TestUser, name = "Laptop") {
  const authenticator = new SoftAuthenticator(origin());
  const start = await desk.api("POST", "/v1/me/passkeys/options", { headers: auth(person.token) });
  expect(start.status).toBe(200);
  const created = await desk.api("POST", "/v1/me/passkeys", {
    headers: auth(person.token),
    body: { name, credential: authenticator.create(start.body.options) },
  });
  expect(created.status).toBe(201);
  return { authenticator, passkey: created.body };
}

async function signInOptions() {
  const res = await desk.api("POST", "/v1/auth/passkey/options", { headers: anon() });
  expect(res.status).toBe(200);
  return res.body.options as { challenge: string; rpId: string };
}

describe("registering passkeys", () => {
  test("no credential: 401 on every /v1/me/passkeys route", async () => {
    expect((await desk.api("GET", "/v1/me/passkeys")).status).toBe(401);
    expect((await desk.api("POST", "/v1/me/passkeys/options")).status).toBe(401);
    expect((await desk.api("POST", "/v1/me/passkeys", { body: {} })).status).toBe(401);
    expect((await desk.api("DELETE", "/v1/me/passkeys/x")).status).toBe(401);
  });

  test("an API key is not a person: 403", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ALL_SCOPES);
    for (const [method, path] of [
      ["GET", "/v1/me/passkeys"],
      ["POST", "/v1/me/passkeys/options"],
    ] as const) {
      const res = await desk.api(method, path, { headers: key.headers });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
  });

  test("options ask for a discoverable, user-verified credential, excluding passkeys already held", async () => {
    const person = await createUser(desk);
    const start = await desk.api("POST", "/v1/me/passkeys/options", { headers: auth(person.token) });
    expect(start.status).toBe(200);
    const options = start.body.options;
    expect(options.rp.id).toBe("localhost");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(Buffer.from(options.user.id, "base64url").toString()).toBe(person.id);
    expect(options.user.name).toBe(person.email);
    expect(options.excludeCredentials).toEqual([]);
    await enrol(person);
    const again = await desk.api("POST", "/v1/me/passkeys/options", { headers: auth(person.token) });
    expect(again.body.options.excludeCredentials).toHaveLength(1);
  });

  test("several named passkeys; stored with their public key and counter; listed oldest first", async () => {
    const person = await createUser(desk);
    const first = await enrol(person, "Laptop");
    const second = await enrol(person, "Phone");
    expect(first.passkey).toMatchObject({ name: "Laptop", device_type: "singleDevice", last_used_at: null });
    const list = await desk.api("GET", "/v1/me/passkeys", { headers: auth(person.token) });
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(["Laptop", "Phone"]);
    const rows = await desk.deps.db.select().from(passkeys).where(eq(passkeys.userId, person.id));
    expect(rows.map((r) => r.credentialId).sort()).toEqual([first.authenticator.id, second.authenticator.id].sort());
    expect(rows[0]!.publicKey.length).toBeGreaterThan(50);
    // Another person sees none of them.
    const other = await createUser(desk);
    expect((await desk.api("GET", "/v1/me/passkeys", { headers: auth(other.token) })).body.data).toEqual([]);
  });

  test("the challenge is single-use, the person's own, and the origin, RP and user verification are checked (422 at body.credential)", async () => {
    const person = await createUser(desk);
    const other = await createUser(desk);
    const attempt = async (
      who: TestUser,
      make: (a: SoftAuthenticator, options: never) => unknown,
    ): Promise<{ status: number; body: { code: string; errors?: { location: string }[] } }> => {
      const start = await desk.api("POST", "/v1/me/passkeys/options", { headers: auth(person.token) });
      const a = new SoftAuthenticator(origin());
      return desk.api("POST", "/v1/me/passkeys", {
        headers: auth(who.token),
        body: { name: "x", credential: make(a, start.body.options as never) },
      });
    };
    for (const [label, who, make] of [
      ["wrong origin", person, (a: SoftAuthenticator, o: never) => a.create(o, { origin: "https://evil.example" })],
      ["wrong rp", person, (a: SoftAuthenticator, o: never) => a.create(o, { rpId: "evil.example" })],
      ["no user verification", person, (a: SoftAuthenticator, o: never) => a.create(o, { uv: false })],
      ["someone else's challenge", other, (a: SoftAuthenticator, o: never) => a.create(o)],
    ] as const) {
      const res = await attempt(who, make);
      expect({ label, status: res.status }).toEqual({ label, status: 422 });
      expect(res.body.code).toBe("invalid_passkey");
      expect(res.body.errors?.[0]?.location).toBe("body.credential");
    }
    // Replaying a challenge already spent.
    const start = await desk.api("POST", "/v1/me/passkeys/options", { headers: auth(person.token) });
    const a = new SoftAuthenticator(origin());
    const credential = a.create(start.body.options);
    expect(
      (await desk.api("POST", "/v1/me/passkeys", { headers: auth(person.token), body: { credential } })).status,
    ).toBe(201);
    const replay = await desk.api("POST", "/v1/me/passkeys", { headers: auth(person.token), body: { credential } });
    expect(replay.status).toBe(422);
    expect(await desk.deps.db.select().from(passkeys).where(eq(passkeys.userId, person.id))).toHaveLength(1);
  });

  test("bad input: 422 located at the field", async () => {
    const person = await createUser(desk);
    const res = await desk.api("POST", "/v1/me/passkeys", {
      headers: auth(person.token),
      body: { name: "", credential: { id: "!!", type: "public-key" } },
    });
    expect(res.status).toBe(422);
    const locations = res.body.errors.map((e: { location: string }) => e.location);
    expect(locations).toContain("body.name");
    expect(locations.some((l: string) => l.startsWith("body.credential"))).toBe(true);
  });

  test("rename and remove: only your own (another person's is 404, exactly like a missing one)", async () => {
    const person = await createUser(desk);
    const other = await createUser(desk);
    const { passkey } = await enrol(person);
    const renamed = await desk.api("PATCH", `/v1/me/passkeys/${passkey.id}`, {
      headers: auth(person.token),
      body: { name: "Work laptop" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Work laptop");
    const foreign = await desk.api("PATCH", `/v1/me/passkeys/${passkey.id}`, {
      headers: auth(other.token),
      body: { name: "Mine now" },
    });
    const missing = await desk.api("PATCH", "/v1/me/passkeys/nope", {
      headers: auth(other.token),
      body: { name: "x" },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await desk.api("DELETE", `/v1/me/passkeys/${passkey.id}`, { headers: auth(other.token) })).status).toBe(
      404,
    );
    expect((await desk.api("DELETE", `/v1/me/passkeys/${passkey.id}`, { headers: auth(person.token) })).status).toBe(
      204,
    );
    expect(
      first(await desk.deps.db.select().from(passkeys).where(eq(passkeys.id, passkey.id)).limit(1)),
    ).toBeUndefined();
  });

  test("with two-factor on, only a session that passed it may add or remove passkeys (403)", async () => {
    const weak = await createUser(desk, { mfaVerified: false });
    await desk.deps.db.update(users).set({ mfaEnabled: true }).where(eq(users.id, weak.id));
    const res = await desk.api("POST", "/v1/me/passkeys/options", { headers: auth(weak.token) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    const strong = await createUser(desk, { mfaVerified: true });
    await desk.deps.db.update(users).set({ mfaEnabled: true }).where(eq(users.id, strong.id));
    await enrol(strong);
  });
});

describe("signing in with a passkey", () => {
  test("options name no account and require user verification", async () => {
    const options = await signInOptions();
    expect(options.rpId).toBe("localhost");
    expect(options).toMatchObject({ userVerification: "required" });
    expect((options as { allowCredentials?: unknown[] }).allowCredentials ?? []).toEqual([]);
    expect(
      first(
        await desk.deps.db
          .select()
          .from(passkeyChallenges)
          .where(eq(passkeyChallenges.challenge, options.challenge))
          .limit(1),
      )?.kind,
    ).toBe("sign_in");
  });

  test("a browser signs in: session with the refresh cookie, counted as two-factor, even with an authenticator app on", async () => {
    const person = await createUser(desk);
    const { authenticator, passkey } = await enrol(person);
    await desk.deps.db.update(users).set({ mfaEnabled: true }).where(eq(users.id, person.id));
    const browser = new TestBrowser(desk, { origin: origin() });
    const options = await signInOptions();
    const res = await browser.post("/v1/auth/passkey/login", { credential: authenticator.get(options) });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(person.id);
    expect(res.body.mfa_required).toBeUndefined();
    expect(res.body.refresh_token).toBeUndefined();
    expect(browser.refreshCookies()).toEqual([`desk_rt_${person.id}`]);
    const claims = decodeJwt(res.body.access_token);
    const session = first(
      await desk.deps.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, claims.sid as string))
        .limit(1),
    );
    expect(session?.mfaVerified).toBe(true);
    expect(session?.userId).toBe(person.id);
    const row = first(await desk.deps.db.select().from(passkeys).where(eq(passkeys.id, passkey.id)).limit(1))!;
    expect(row.counter).toBe(1);
    expect(row.lastUsedAt).not.toBeNull();
    // The session works.
    const me = await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${res.body.access_token}` } });
    expect(me.body.user.id).toBe(person.id);
  });

  test("a native app gets refresh_token in the body and no cookie", async () => {
    const person = await createUser(desk);
    const { authenticator } = await enrol(person);
    const options = await signInOptions();
    const res = await desk.api("POST", "/v1/auth/passkey/login", {
      headers: NATIVE,
      body: { credential: authenticator.get(options) },
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeString();
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("refused with 401: spent challenge, unknown credential, removed passkey, no user verification, wrong origin, counter not rising, foreign user handle", async () => {
    const person = await createUser(desk);
    const { authenticator, passkey } = await enrol(person);
    const login = (credential: unknown, headers = anon()) =>
      desk.api("POST", "/v1/auth/passkey/login", { headers, body: { credential } });

    const options = await signInOptions();
    const good = authenticator.get(options);
    expect((await login(good)).status).toBe(200);
    expect((await login(good)).status).toBe(401); // the challenge is spent

    const stranger = new SoftAuthenticator(origin());
    expect((await login(stranger.get(await signInOptions()))).status).toBe(401);
    expect((await login(authenticator.get(await signInOptions(), { uv: false }))).status).toBe(401);
    expect((await login(authenticator.get(await signInOptions(), { origin: "https://evil.example" }))).status).toBe(
      401,
    );
    expect((await login(authenticator.get(await signInOptions(), { counter: 1 }))).status).toBe(401); // a clone
    expect((await login(authenticator.get(await signInOptions(), { userHandle: "c29tZW9uZS1lbHNl" }))).status).toBe(
      401,
    );
    // A fresh challenge and a rising counter still work; then the passkey is removed and stops working.
    expect((await login(authenticator.get(await signInOptions(), { counter: 10 }))).status).toBe(200);
    await desk.api("DELETE", `/v1/me/passkeys/${passkey.id}`, { headers: auth(person.token) });
    expect((await login(authenticator.get(await signInOptions()))).status).toBe(401);
  });

  test("two assertions with the same counter sent together: exactly one signs in", async () => {
    const person = await createUser(desk);
    const { authenticator, passkey } = await enrol(person);
    for (let round = 1; round <= 3; round++) {
      const [firstOptions, secondOptions] = [await signInOptions(), await signInOptions()];
      const counter = round * 5;
      const assertions = [authenticator.get(firstOptions, { counter }), authenticator.get(secondOptions, { counter })];
      const answers = await Promise.all(
        assertions.map((credential) =>
          desk.api("POST", "/v1/auth/passkey/login", { headers: anon(), body: { credential } }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
      expect(
        first(await desk.deps.db.select().from(passkeys).where(eq(passkeys.id, passkey.id)).limit(1))!.counter,
      ).toBe(counter);
    }
  });

  test("refused cross-site (403) before anything is read", async () => {
    const res = await desk.api("POST", "/v1/auth/passkey/options", { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    const login = await desk.api("POST", "/v1/auth/passkey/login", {
      headers: { origin: "https://evil.example" },
      body: {},
    });
    expect(login.status).toBe(403);
  });

  test("bad input: 422 at body.credential", async () => {
    const res = await desk.api("POST", "/v1/auth/passkey/login", { headers: anon(), body: { credential: {} } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toStartWith("body.credential");
  });

  test("an unused TOTP stays unrelated: the authenticator app still works after a passkey sign-in", async () => {
    // Guards that passkey sign-in does not touch the TOTP state it bypasses.
    const person = await createUser(desk);
    const { authenticator } = await enrol(person);
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    await desk.deps.db
      .update(users)
      .set({ mfaEnabled: true, mfaSecretSealed: desk.deps.secrets.seal(secret) })
      .where(eq(users.id, person.id));
    expect(
      (
        await desk.api("POST", "/v1/auth/passkey/login", {
          headers: anon(),
          body: { credential: authenticator.get(await signInOptions()) },
        })
      ).status,
    ).toBe(200);
    expect(
      first(await desk.deps.db.select().from(users).where(eq(users.id, person.id)).limit(1))?.mfaLastStep,
    ).toBeNull();
  });
});
