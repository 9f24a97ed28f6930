import { describe, expect, test } from "bun:test";
import { createUser } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { eq } from "drizzle-orm";
import { SIGN_IN_LIMITS } from "../identity/auth.service";
import { users } from "../identity/identity.table";
import { manualClock } from "../lib/clock";
import { RESET_LIMITS } from "../identity/password-resets.service";

// Wherever a limit applies, answers carry the IETF draft's RateLimit-Limit, -Remaining and -Reset
// (and a 429 keeps Retry-After, equal to RateLimit-Reset).
const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });
const window = SIGN_IN_LIMITS.windowMs / 1000;

const budget = (headers: Headers) => ({
  limit: headers.get("ratelimit-limit"),
  remaining: headers.get("ratelimit-remaining"),
  reset: headers.get("ratelimit-reset"),
});

describe("RateLimit-* headers", () => {
  test("sign-in: failures spend the account's budget, a success restores it, the 429 says when", async () => {
    const person = await createUser(desk, { password: "right-password" });
    const login = (password: string) => desk.api("POST", "/v1/auth/login", { body: { email: person.email, password } });
    const failed = await login("wrong-1");
    expect(failed.status).toBe(401);
    expect(budget(failed.headers)).toEqual({
      limit: String(SIGN_IN_LIMITS.perAccount),
      remaining: String(SIGN_IN_LIMITS.perAccount - 1),
      reset: String(window),
    });
    clock.advance(60_000);
    const ok = await login("right-password");
    expect(ok.status).toBe(200);
    expect(budget(ok.headers)).toEqual({
      limit: String(SIGN_IN_LIMITS.perAccount),
      remaining: String(SIGN_IN_LIMITS.perAccount),
      reset: "0",
    });
  });

  test("a second factor past the account's budget: 429 with Retry-After equal to RateLimit-Reset", async () => {
    const person = await createUser(desk);
    await desk.deps.db
      .update(users)
      .set({ mfaEnabled: true, mfaSecretSealed: desk.deps.secrets.seal("JBSWY3DPEHPK3PXP") })
      .where(eq(users.id, person.id));
    const mfaToken = await desk.deps.tokens.sign("mfa", { sub: person.id });
    const attempt = () => desk.api("POST", "/v1/auth/mfa", { body: { mfa_token: mfaToken, code: "000000" } });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      const res = await attempt();
      expect(res.status).toBe(401);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(SIGN_IN_LIMITS.perAccount - 1 - i));
    }
    clock.advance(5_000);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(budget(limited.headers)).toEqual({
      limit: String(SIGN_IN_LIMITS.perAccount),
      remaining: "0",
      reset: String(window - 5),
    });
    expect(limited.headers.get("retry-after")).toBe(String(window - 5));
  });

  test("the password-reset request shows the address budget only", async () => {
    const ask = () =>
      fetch(`${desk.url}/v1/auth/password/forgot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "nobody@example.test" }),
      });
    for (let i = 0; i < RESET_LIMITS.perIp; i++) {
      const res = await ask();
      expect(res.status).toBe(202);
      expect(res.headers.get("ratelimit-limit")).toBe(String(RESET_LIMITS.perIp));
      expect(res.headers.get("ratelimit-remaining")).toBe(String(RESET_LIMITS.perIp - 1 - i));
    }
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-reset")).toBe(limited.headers.get("retry-after"));
  });
});
