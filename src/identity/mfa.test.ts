import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import * as OTPAuth from "otpauth";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { manualClock } from "../lib/clock";
import { sessions, users } from "./identity.table";
import { NATIVE, TestBrowser } from "../../test/kit/browser";

const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });

const codeAt = (secret: string, offsetSteps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: clock.now().getTime() + offsetSteps * 30_000,
  });
const userRow = async (id: string) => first(await desk.deps.db.select().from(users).where(eq(users.id, id)).limit(1))!;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A person with two-factor on, enrolled through the API; returns the secret and recovery codes. */
async function enrolled(password = "mfa-password") {
  const person = await createUser(desk, { password });
  const setup = await desk.api("POST", "/v1/me/mfa/setup", { headers: auth(person.token) });
  const enable = await desk.api("POST", "/v1/me/mfa/enable", {
    headers: auth(person.token),
    body: { code: codeAt(setup.body.secret) },
  });
  expect(enable.status).toBe(200);
  clock.advance(30_000); // the enrolment code's step is spent
  return { person, secret: setup.body.secret as string, recovery: enable.body.recovery_codes as string[] };
}

describe("enrolment", () => {
  test("setup answers a secret and otpauth URL, sealed at rest and inactive until a code confirms it", async () => {
    const person = await createUser(desk);
    const setup = await desk.api("POST", "/v1/me/mfa/setup", { headers: auth(person.token) });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauth_url).toStartWith("otpauth://totp/Desk:");
    expect(setup.body.otpauth_url).toContain(`secret=${setup.body.secret}`);
    const row = await userRow(person.id);
    expect(row.mfaEnabled).toBe(false);
    expect(row.mfaSecretSealed).toStartWith("v1.");
    expect(row.mfaSecretSealed).not.toContain(setup.body.secret);

    const wrong = await desk.api("POST", "/v1/me/mfa/enable", {
      headers: auth(person.token),
      body: { code: "000000" },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].location).toBe("body.code");
    expect((await userRow(person.id)).mfaEnabled).toBe(false);

    const enable = await desk.api("POST", "/v1/me/mfa/enable", {
      headers: auth(person.token),
      body: { code: codeAt(setup.body.secret) },
    });
    expect(enable.status).toBe(200);
    expect(enable.body.enabled).toBe(true);
    expect(enable.body.recovery_codes).toHaveLength(10);
    expect(new Set(enable.body.recovery_codes).size).toBe(10);
    const stored = await userRow(person.id);
    expect(stored.mfaEnabled).toBe(true);
    expect(stored.mfaRecoveryHashes).not.toContain(enable.body.recovery_codes[0]);
    expect(JSON.parse(stored.mfaRecoveryHashes!)).toHaveLength(10);
    // The enrolling session proved a code.
    expect(
      first(await desk.deps.db.select().from(sessions).where(eq(sessions.id, person.sessionId)).limit(1))!.mfaVerified,
    ).toBe(true);

    expect((await desk.api("POST", "/v1/me/mfa/setup", { headers: auth(person.token) })).status).toBe(409);
    expect(
      (
        await desk.api("POST", "/v1/me/mfa/enable", {
          headers: auth(person.token),
          body: { code: codeAt(setup.body.secret, 1) },
        })
      ).status,
    ).toBe(409);
  });

  test("enable before setup is 409; no credential is 401; a code of the wrong type is 422", async () => {
    const person = await createUser(desk);
    expect(
      (await desk.api("POST", "/v1/me/mfa/enable", { headers: auth(person.token), body: { code: "123456" } })).status,
    ).toBe(409);
    expect((await desk.api("POST", "/v1/me/mfa/setup")).status).toBe(401);
    const bad = await desk.api("POST", "/v1/me/mfa/enable", { headers: auth(person.token), body: { code: 123456 } });
    expect(bad.status).toBe(422);
  });
});

describe("signing in with two-factor", () => {
  test("login answers mfa_required and a 5-minute mfa token; the code finishes it with an otp session", async () => {
    const { person, secret } = await enrolled();
    const browser = new TestBrowser(desk);
    const login = await browser.post("/v1/auth/login", { email: person.email, password: "mfa-password" });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    expect(browser.refreshCookies()).toEqual([]);
    const claims = decodeJwt(login.body.mfa_token);
    expect(claims.purpose).toBe("mfa");
    expect(claims.exp! - claims.iat!).toBe(300);
    // The mfa token is no access token.
    expect((await desk.api("GET", "/v1/me", { headers: auth(login.body.mfa_token) })).status).toBe(401);

    const code = codeAt(secret);
    const done = await browser.post("/v1/auth/mfa", { mfa_token: login.body.mfa_token, code });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(person.id);
    expect(browser.refreshCookies()).toEqual([`desk_rt_${person.id}`]);
    const access = decodeJwt(done.body.access_token);
    expect(access.amr).toEqual(["pwd", "otp"]);
    expect(access.auth_time).toBe(Math.floor(clock.now().getTime() / 1000));
    const session = first(
      await desk.deps.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, access.sid as string))
        .limit(1),
    )!;
    expect(session.mfaVerified).toBe(true);

    // The same code cannot be replayed within its window.
    const replay = await desk.api("POST", "/v1/auth/mfa", { body: { mfa_token: login.body.mfa_token, code } });
    expect(replay.status).toBe(401);
  });

  test("a wrong code is 401 and starts nothing; an expired mfa token is 401", async () => {
    const { person, secret } = await enrolled();
    const login = await desk.api("POST", "/v1/auth/login", { body: { email: person.email, password: "mfa-password" } });
    const before = (await desk.deps.db.select().from(sessions).where(eq(sessions.userId, person.id))).length;
    const wrong = await desk.api("POST", "/v1/auth/mfa", {
      body: { mfa_token: login.body.mfa_token, code: "not-a-code" },
    });
    expect(wrong.status).toBe(401);
    expect((await desk.deps.db.select().from(sessions).where(eq(sessions.userId, person.id))).length).toBe(before);
    clock.advance(5 * 60_000 + 1000);
    const late = await desk.api("POST", "/v1/auth/mfa", {
      body: { mfa_token: login.body.mfa_token, code: codeAt(secret) },
    });
    expect(late.status).toBe(401);
  });

  test("a sixth account in the browser: login (before the code) and mfa both answer 409 too_many_accounts", async () => {
    const { person, secret } = await enrolled();
    const crowded = new TestBrowser(desk);
    const emptyLogin = await desk.api("POST", "/v1/auth/login", {
      body: { email: person.email, password: "mfa-password" },
    });
    for (let i = 0; i < 5; i++) {
      const held = await createUser(desk);
      crowded.jar.set(`desk_rt_${held.id}`, held.refreshToken);
    }
    const login = await crowded.post("/v1/auth/login", { email: person.email, password: "mfa-password" });
    expect(login.status).toBe(409);
    expect(login.body.code).toBe("too_many_accounts");
    const mfa = await crowded.post("/v1/auth/mfa", { mfa_token: emptyLogin.body.mfa_token, code: codeAt(secret) });
    expect(mfa.status).toBe(409);
    expect(mfa.body.code).toBe("too_many_accounts");
    expect(crowded.refreshCookies()).toHaveLength(5);
  });

  test("a recovery code works once", async () => {
    const { person, recovery } = await enrolled();
    const login = await desk.api("POST", "/v1/auth/login", { body: { email: person.email, password: "mfa-password" } });
    const first = await desk.api("POST", "/v1/auth/mfa", {
      headers: NATIVE,
      body: { mfa_token: login.body.mfa_token, code: recovery[3]!.toUpperCase() },
    });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeString();
    expect(JSON.parse((await userRow(person.id)).mfaRecoveryHashes!)).toHaveLength(9);
    const second = await desk.api("POST", "/v1/auth/mfa", {
      body: { mfa_token: login.body.mfa_token, code: recovery[3] },
    });
    expect(second.status).toBe(401);
  });
});

describe("turning two-factor off", () => {
  test("with the password", async () => {
    const { person } = await enrolled();
    const wrong = await desk.api("POST", "/v1/me/mfa/disable", {
      headers: auth(person.token),
      body: { password: "wrong-password" },
    });
    expect(wrong.status).toBe(422);
    expect((await userRow(person.id)).mfaEnabled).toBe(true);
    const res = await desk.api("POST", "/v1/me/mfa/disable", {
      headers: auth(person.token),
      body: { password: "mfa-password" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false });
    const row = await userRow(person.id);
    expect([row.mfaEnabled, row.mfaSecretSealed, row.mfaRecoveryHashes]).toEqual([false, null, null]);
    const login = await desk.api("POST", "/v1/auth/login", { body: { email: person.email, password: "mfa-password" } });
    expect(login.body.access_token).toBeString();
  });

  test("with a code; neither or both is 422", async () => {
    const { person, secret } = await enrolled();
    expect((await desk.api("POST", "/v1/me/mfa/disable", { headers: auth(person.token), body: {} })).status).toBe(422);
    expect(
      (
        await desk.api("POST", "/v1/me/mfa/disable", {
          headers: auth(person.token),
          body: { code: "1", password: "x" },
        })
      ).status,
    ).toBe(422);
    const res = await desk.api("POST", "/v1/me/mfa/disable", {
      headers: auth(person.token),
      body: { code: codeAt(secret) },
    });
    expect(res.status).toBe(200);
    expect((await userRow(person.id)).mfaEnabled).toBe(false);
  });
});
