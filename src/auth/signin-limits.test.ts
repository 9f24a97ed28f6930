import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { manualClock } from "../lib/clock";
import { users } from "./auth.table";
import { SIGN_IN_LIMITS } from "./auth.service";

const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });

describe("sign-in rate limits", () => {
  test("ten failures for one account: the next attempt is 429 with Retry-After, even with the right password", async () => {
    const target = await createUser(desk, { password: "target-password" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      const res = await desk.api("POST", "/v1/auth/login", { body: { email: target.email, password: `guess-${i}` } });
      expect(res.status).toBe(401);
    }
    const blocked = await desk.api("POST", "/v1/auth/login", { body: { email: target.email.toUpperCase(), password: "target-password" } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ status: 429, code: "rate_limited" });
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Other accounts are unaffected.
    const other = await createUser(desk, { password: "other-password" });
    expect((await desk.api("POST", "/v1/auth/login", { body: { email: other.email, password: "other-password" } })).status).toBe(200);

    clock.advance(retryAfter * 1000);
    expect((await desk.api("POST", "/v1/auth/login", { body: { email: target.email, password: "target-password" } })).status).toBe(200);
  }, 30_000);

  test("per address over a real socket: fifty failures from one IP block every account from it", async () => {
    // Failed two-factor codes are cheap to make and count like failed passwords: five accounts x ten.
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(desk)));
    for (const p of people) {
      desk.deps.db.update(users).set({ mfaEnabled: true, mfaSecretSealed: desk.deps.secrets.seal("JBSWY3DPEHPK3PXP") }).where(eq(users.id, p.id)).run();
    }
    const post = (path: string, body: unknown) =>
      fetch(`${desk.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
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
    expect((await desk.api("POST", "/v1/auth/login", { body: { email: fresh.email, password: "fresh-password" } })).status).toBe(200);
  }, 30_000);
});
