import { describe, expect, test } from "bun:test";
import { decodeJwt } from "jose";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { TestBrowser } from "../../test/kit/browser";

const desk = await startTestDesk();
const alice = await createUser(desk, { email: "alice@example.test", password: "alice-password" });

describe("POST /v1/auth/login", () => {
  test("right email (any case) and password: access token, user and refresh cookie", async () => {
    const browser = new TestBrowser(desk);
    const res = await browser.post("/v1/auth/login", { email: "ALICE@example.test", password: "alice-password" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ expires_in: 900, user: { id: alice.id, email: "alice@example.test" } });
    expect(res.body.user.password_hash).toBeUndefined();
    expect(browser.refreshCookies()).toEqual([`desk_rt_${alice.id}`]);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({ sub: alice.id, purpose: "access", amr: ["pwd"] });
    expect(typeof claims.auth_time).toBe("number");
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  test("a wrong password and an unknown email get the same 401 with the same detail and no cookie", async () => {
    const wrong = await desk.api("POST", "/v1/auth/login", {
      body: { email: "alice@example.test", password: "nope-nope" },
    });
    const unknown = await desk.api("POST", "/v1/auth/login", {
      body: { email: "nobody@example.test", password: "nope-nope" },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("unauthorized");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  test("a person without a password (invited, OAuth) cannot sign in with one", async () => {
    const nopass = await createUser(desk, { email: "nopass@example.test" });
    const res = await desk.api("POST", "/v1/auth/login", { body: { email: nopass.email, password: "" } });
    expect(res.status).toBe(422);
    const res2 = await desk.api("POST", "/v1/auth/login", {
      body: { email: nopass.email, password: "anything-at-all" },
    });
    expect(res2.status).toBe(401);
  });

  test.each([
    ["missing password", { email: "alice@example.test" }, "body.password"],
    ["wrong type", { email: ["alice@example.test"], password: "alice-password" }, "body.email"],
    ["unknown field", { email: "alice@example.test", password: "alice-password", admin: true }, "body"],
  ])("%s answers 422", async (_label, body, location) => {
    const res = await desk.api("POST", "/v1/auth/login", { body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
  });

  test("the access token works; it is refused once the session is revoked", async () => {
    const res = await desk.api("POST", "/v1/auth/login", {
      body: { email: "alice@example.test", password: "alice-password" },
    });
    const headers = { authorization: `Bearer ${res.body.access_token}` };
    expect((await desk.api("GET", "/v1/me", { headers })).status).toBe(200);
    const out = await desk.api("POST", "/v1/auth/logout", { headers });
    expect(out.status).toBe(204);
    expect((await desk.api("GET", "/v1/me", { headers })).status).toBe(401);
  });
});

describe("token purposes are not interchangeable", () => {
  test("an mfa token used as an access token is 401", async () => {
    const mfaToken = await desk.deps.tokens.sign("mfa", { sub: alice.id, sid: alice.sessionId });
    const res = await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${mfaToken}` } });
    expect(res.status).toBe(401);
  });

  test("an access token used as an mfa token is 401", async () => {
    const res = await desk.api("POST", "/v1/auth/mfa", { body: { mfa_token: alice.token, code: "123456" } });
    expect(res.status).toBe(401);
  });

  test("a token signed with another secret is 401", async () => {
    const { createTokenService } = await import("../auth/tokens");
    const forged = await createTokenService("another-secret-that-is-long-enough", () => desk.deps.clock.now()).sign(
      "access",
      {
        sub: alice.id,
        sid: alice.sessionId,
      },
    );
    expect((await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
  });
});
