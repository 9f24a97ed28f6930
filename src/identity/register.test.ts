import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { users } from "./identity.table";
import { NATIVE, TestBrowser } from "../../test/kit/browser";

describe("register on a closed instance", async () => {
  const desk = await startTestDesk();

  test("the first person may register; the answer is a session with a refresh cookie", async () => {
    const browser = new TestBrowser(desk);
    const res = await browser.post("/v1/auth/register", {
      email: "  Founder@Example.TEST ",
      password: "correct horse",
      name: "Founder",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      expires_in: 900,
      user: { email: "founder@example.test", name: "Founder", mfa_enabled: false },
    });
    expect(typeof res.body.access_token).toBe("string");
    expect(res.body.refresh_token).toBeUndefined();
    expect(browser.refreshCookies()).toEqual([`desk_rt_${res.body.user.id}`]);
    const cookie = res.headers.getSetCookie()[0]!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/v1/auth");
    expect(cookie).toContain("Max-Age=2592000");
    expect(cookie).not.toContain("Secure");

    const row = first(await desk.deps.db.select().from(users).where(eq(users.id, res.body.user.id)).limit(1))!;
    expect(row.email).toBe("founder@example.test");
    expect(row.passwordHash!.startsWith("$argon2id$")).toBe(true);
    expect(await Bun.password.verify("correct horse", row.passwordHash!)).toBe(true);

    const me = await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${res.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(res.body.user.id);
  });

  test("once a person exists, sign-up is closed: 403 forbidden with a clear detail, nothing stored", async () => {
    const before = (await desk.deps.db.select().from(users)).length;
    const res = await desk.api("POST", "/v1/auth/register", {
      body: { email: "second@example.test", password: "password-2", name: "Second" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, code: "forbidden" });
    expect(res.body.detail).toMatch(/sign-up is closed/i);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await desk.deps.db.select().from(users)).length).toBe(before);
  });
});

describe("register with DESK_OPEN_SIGNUP=true", async () => {
  const desk = await startTestDesk({ env: { DESK_OPEN_SIGNUP: "true" } });

  test("anyone may register; emails are unique regardless of case (409 conflict)", async () => {
    const first = await desk.api("POST", "/v1/auth/register", {
      body: { email: "ann@example.test", password: "password-1", name: "Ann" },
    });
    expect(first.status).toBe(201);
    const second = await desk.api("POST", "/v1/auth/register", {
      body: { email: "bob@example.test", password: "password-2", name: "Bob" },
    });
    expect(second.status).toBe(201);
    const dup = await desk.api("POST", "/v1/auth/register", {
      body: { email: "ANN@example.test", password: "password-3", name: "Ann 2" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
    expect(await desk.deps.db.select().from(users).where(eq(users.email, "ann@example.test"))).toHaveLength(1);
  });

  test("a native client gets refresh_token in the body and no cookie", async () => {
    const res = await desk.api("POST", "/v1/auth/register", {
      headers: NATIVE,
      body: { email: "ios@example.test", password: "password-1", name: "Phone" },
    });
    expect(res.status).toBe(201);
    expect(res.body.refresh_token).toMatch(/^[0-9a-f-]{36}\.0\.[A-Za-z0-9_-]+$/);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("with an Origin header the same DESK-Client is a browser: cookie, no body token", async () => {
    const res = await desk.api("POST", "/v1/auth/register", {
      headers: { ...NATIVE, origin: "http://localhost" },
      body: { email: "web@example.test", password: "password-1", name: "Web" },
    });
    expect(res.status).toBe(201);
    expect(res.body.refresh_token).toBeUndefined();
    expect(res.headers.getSetCookie()).toHaveLength(1);
  });

  test("a browser already holding five accounts cannot register a sixth: 409 too_many_accounts, no user made", async () => {
    const { createUser } = await import("../../test/factories");
    const browser = new TestBrowser(desk);
    for (let i = 0; i < 5; i++) {
      const held = await createUser(desk);
      browser.jar.set(`desk_rt_${held.id}`, held.refreshToken);
    }
    const res = await browser.post("/v1/auth/register", {
      email: "sixth@example.test",
      password: "password-6",
      name: "Sixth",
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("too_many_accounts");
    expect(
      first(await desk.deps.db.select().from(users).where(eq(users.email, "sixth@example.test")).limit(1)),
    ).toBeUndefined();
  });

  test.each([
    ["short password", { email: "x1@example.test", password: "short", name: "X" }, "body.password"],
    ["bad email", { email: "not-an-email", password: "password-1", name: "X" }, "body.email"],
    ["missing name", { email: "x2@example.test", password: "password-1" }, "body.name"],
    ["blank name", { email: "x3@example.test", password: "password-1", name: "   " }, "body.name"],
    ["number password", { email: "x4@example.test", password: 12345678, name: "X" }, "body.password"],
    ["unknown field", { email: "x5@example.test", password: "password-1", name: "X", role: "owner" }, "body"],
    ["hostile name", { email: "x6@example.test", password: "password-1", name: "x".repeat(101) }, "body.name"],
  ])("%s answers 422 and stores nothing", async (_label, body, location) => {
    const before = (await desk.deps.db.select().from(users)).length;
    const res = await desk.api("POST", "/v1/auth/register", { body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    expect((await desk.deps.db.select().from(users)).length).toBe(before);
  });

  test("a body that is not JSON is refused without a 500", async () => {
    const res = await desk.api("POST", "/v1/auth/register", {
      raw: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("register in production-like settings", async () => {
  const desk = await startTestDesk({ config: { secureCookies: true } });
  test("cookies are Secure when the base URL is https", async () => {
    const res = await desk.api("POST", "/v1/auth/register", {
      body: { email: "sec@example.test", password: "password-1", name: "Sec" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.getSetCookie()[0]).toContain("; Secure");
  });
});
