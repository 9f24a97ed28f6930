import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { manualClock } from "../lib/clock";
import { users } from "./identity.table";
import { SIGN_IN_LIMITS } from "./auth.service";
import { CHALLENGE_AFTER } from "./challenge";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });

/** A challenge from the API, solved as the web app does (proof of work). */
async function solvedChallenge() {
  const res = await desk.api("POST", "/v1/auth/challenge");
  expect(res.status).toBe(200);
  const challenge = res.body.challenge as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return { challenge, solution: solution! };
}

describe("sign-in rate limits", () => {
  test("ten failures for one account: the next attempt is 429 with Retry-After, even with the right password", async () => {
    const target = await createUser(desk, { password: "target-password" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      // Past the first few failures each guess needs a solved challenge first.
      const challenge = i >= CHALLENGE_AFTER.perAccount ? await solvedChallenge() : undefined;
      const res = await desk.api("POST", "/v1/auth/login", {
        body: { email: target.email, password: `guess-${i}`, challenge },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await desk.api("POST", "/v1/auth/login", {
      body: { email: target.email.toUpperCase(), password: "target-password", challenge: await solvedChallenge() },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ status: 429, code: "rate_limited" });
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Other accounts are unaffected.
    const other = await createUser(desk, { password: "other-password" });
    expect(
      (await desk.api("POST", "/v1/auth/login", { body: { email: other.email, password: "other-password" } })).status,
    ).toBe(200);

    // Once the failures are out of the window, neither the limit nor the challenge applies.
    clock.advance(retryAfter * 1000);
    expect(
      (await desk.api("POST", "/v1/auth/login", { body: { email: target.email, password: "target-password" } })).status,
    ).toBe(200);
  }, 30_000);

  test("after three failures an account asks for a solved challenge; each is accepted once, forged ones never", async () => {
    const target = await createUser(desk, { password: "target-password" });
    const login = (body: Record<string, unknown>) =>
      desk.api("POST", "/v1/auth/login", { body: { email: target.email, ...body } });
    for (let i = 0; i < CHALLENGE_AFTER.perAccount; i++)
      expect((await login({ password: `guess-${i}` })).status).toBe(401);
    const required = await login({ password: "target-password" });
    expect(required.status).toBe(403);
    expect(required.body).toMatchObject({ status: 403, code: "challenge_required" });
    // Other accounts are not asked.
    const other = await createUser(desk, { password: "other-password" });
    expect(
      (await desk.api("POST", "/v1/auth/login", { body: { email: other.email, password: "other-password" } })).status,
    ).toBe(200);

    const solved = await solvedChallenge();
    const wrongSolution = { ...solved, solution: { ...solved.solution, counter: solved.solution.counter + 1 } };
    expect((await login({ password: "target-password", challenge: wrongSolution })).body.code).toBe("challenge_failed");
    const forged = {
      ...solved,
      challenge: { ...solved.challenge, parameters: { ...solved.challenge.parameters, keyPrefix: "0" } },
    };
    expect((await login({ password: "target-password", challenge: forged })).body.code).toBe("challenge_failed");
    expect((await login({ password: "target-password", challenge: { challenge: "x", solution: 1 } })).status).toBe(422);
    // A solved challenge with a wrong password is spent, and the failure still counts.
    expect((await login({ password: "still-wrong", challenge: solved })).status).toBe(401);
    expect((await login({ password: "target-password", challenge: solved })).body.code).toBe("challenge_failed");
    expect((await login({ password: "target-password", challenge: await solvedChallenge() })).status).toBe(200);
    // A success clears the account: the next sign-in needs no challenge.
    expect((await login({ password: "target-password" })).status).toBe(200);
  }, 30_000);

  test("per address over a real socket: fifty failures from one IP block every account from it", async () => {
    // Failed two-factor codes are cheap to make and count like failed passwords: five accounts x ten.
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(desk)));
    for (const p of people) {
      await desk.deps.db
        .update(users)
        .set({ mfaEnabled: true, mfaSecretSealed: desk.deps.secrets.seal("JBSWY3DPEHPK3PXP") })
        .where(eq(users.id, p.id));
    }
    const post = (path: string, body: unknown) =>
      fetch(`${desk.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    let failures = 0;
    for (const p of people) {
      const mfaToken = await desk.deps.tokens.sign("mfa", { sub: p.id });
      for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
        const res = await post("/v1/auth/mfa", { mfa_token: mfaToken, code: "000000" });
        expect(res.status).toBe(401);
        failures++;
      }
      expect((await post("/v1/auth/mfa", { mfa_token: mfaToken, code: "000000" })).status).toBe(429);
    }
    expect(failures).toBe(SIGN_IN_LIMITS.perIp);
    const fresh = await createUser(desk, { password: "fresh-password" });
    const blocked = await post("/v1/auth/login", { email: fresh.email, password: "fresh-password" });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    // The in-process caller (another address) is not blocked.
    expect(
      (await desk.api("POST", "/v1/auth/login", { body: { email: fresh.email, password: "fresh-password" } })).status,
    ).toBe(200);
  }, 30_000);
});
