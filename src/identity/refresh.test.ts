import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { addMember, createUser, createWorkspaceWithOwner, type TestUser } from "../../test/factories";
import { sessions } from "./identity.table";
import { NATIVE, TestBrowser } from "../../test/kit/browser";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";

const desk = await startTestDesk();
const signals: AccessEnded[] = [];
onAccessEnded(desk.deps.db, (s) => signals.push(s));

const sessionRow = async (id: string) =>
  first(await desk.deps.db.select().from(sessions).where(eq(sessions.id, id)).limit(1))!;
const sessionIdOf = (token: string) => token.split(".")[0]!;

/** A browser already holding the given people's refresh cookies. */
function browserWith(...people: TestUser[]): TestBrowser {
  const browser = new TestBrowser(desk);
  for (const p of people) browser.jar.set(`desk_rt_${p.id}`, p.refreshToken);
  return browser;
}

describe("refresh", () => {
  test("rotates on every use: the new cookie works, the old one is reuse and ends the session", async () => {
    const user = await createUser(desk);
    const browser = browserWith(user);
    const first = await browser.post("/v1/auth/refresh");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ expires_in: 900, user: { id: user.id } });
    const rotated = browser.jar.get(`desk_rt_${user.id}`)!;
    expect(rotated).not.toBe(user.refreshToken);
    expect(rotated.split(".")[1]).toBe("1");
    expect(
      (await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${first.body.access_token}` } })).status,
    ).toBe(200);

    expect((await browser.post("/v1/auth/refresh")).status).toBe(200);

    signals.length = 0;
    const thief = browserWith(user); // still holds generation 0
    const reused = await thief.post("/v1/auth/refresh");
    expect(reused.status).toBe(401);
    expect(reused.headers.getSetCookie()).toEqual([
      expect.stringMatching(new RegExp(`^desk_rt_${user.id}=; .*Max-Age=0`)),
    ]);
    expect(await sessionRow(user.sessionId)).toMatchObject({ revokedReason: "refresh_token_reused" });
    expect(signals).toEqual([{ kind: "sessions", userId: user.id, sessionIds: [user.sessionId] }]);
    // The legitimate holder is signed out too, and the access token stops working.
    expect((await browser.post("/v1/auth/refresh")).status).toBe(401);
    expect(
      (await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${first.body.access_token}` } })).status,
    ).toBe(401);
  });

  test("without a cookie: 401; a web request may not send refresh_token (422)", async () => {
    expect((await desk.api("POST", "/v1/auth/refresh", { body: {} })).status).toBe(401);
    const user = await createUser(desk);
    const res = await desk.api("POST", "/v1/auth/refresh", {
      headers: { origin: "http://localhost" },
      body: { refresh_token: user.refreshToken },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.refresh_token");
    expect((await sessionRow(user.sessionId)).generation).toBe(0);
  });

  test("a garbled or forged cookie is 401 and cleared", async () => {
    const user = await createUser(desk);
    const browser = new TestBrowser(desk);
    browser.jar.set(`desk_rt_${user.id}`, `${user.sessionId}.0.forged-secret`);
    const res = await browser.post("/v1/auth/refresh");
    expect(res.status).toBe(401);
    expect(browser.refreshCookies()).toEqual([]);
    expect((await sessionRow(user.sessionId)).revokedAt).toBeNull();
  });

  test("a cookie named for one person cannot carry another person's token", async () => {
    const [a, b] = [await createUser(desk), await createUser(desk)];
    const browser = new TestBrowser(desk);
    browser.jar.set(`desk_rt_${a.id}`, b.refreshToken);
    expect((await browser.post("/v1/auth/refresh", { user_id: a.id })).status).toBe(401);
    expect((await sessionRow(b.sessionId)).generation).toBe(0);
  });

  test("{ user_id } refreshes that account; without it the most recently used one", async () => {
    const [a, b] = [await createUser(desk), await createUser(desk)];
    await desk.deps.db
      .update(sessions)
      .set({ lastUsedAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(sessions.id, a.sessionId));
    const browser = browserWith(a, b);
    const latest = await browser.post("/v1/auth/refresh");
    expect(latest.body.user.id).toBe(b.id);
    expect(latest.headers.getSetCookie()).toHaveLength(1);
    const chosen = await browser.post("/v1/auth/refresh", { user_id: a.id });
    expect(chosen.status).toBe(200);
    expect(chosen.body.user.id).toBe(a.id);
    // a is now the most recently used.
    expect((await browser.post("/v1/auth/refresh")).body.user.id).toBe(a.id);
    const stranger = await createUser(desk);
    expect((await browser.post("/v1/auth/refresh", { user_id: stranger.id })).status).toBe(401);
  });

  test("the legacy desk_refresh cookie works once and moves to desk_rt_<user id>", async () => {
    const user = await createUser(desk);
    const browser = new TestBrowser(desk);
    browser.jar.set("desk_refresh", user.refreshToken);
    const res = await browser.post("/v1/auth/refresh");
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    const setCookies = res.headers.getSetCookie();
    expect(setCookies).toHaveLength(2);
    expect(setCookies.some((c) => c.startsWith(`desk_rt_${user.id}=${user.sessionId}.1.`))).toBe(true);
    expect(setCookies.some((c) => c.startsWith("desk_refresh=;") && c.includes("Max-Age=0"))).toBe(true);
    expect(browser.refreshCookies()).toEqual([`desk_rt_${user.id}`]);
    // The old legacy value was rotated away: presenting it again is reuse.
    const again = new TestBrowser(desk);
    again.jar.set("desk_refresh", user.refreshToken);
    expect((await again.post("/v1/auth/refresh")).status).toBe(401);
  });

  test("a refreshed access token keeps the sign-in time of the session", async () => {
    const user = await createUser(desk);
    const browser = browserWith(user);
    const res = await browser.post("/v1/auth/refresh");
    const { decodeJwt } = await import("jose");
    const claims = decodeJwt(res.body.access_token);
    expect(claims.auth_time).toBe(
      Math.floor(new Date((await sessionRow(user.sessionId)).authenticatedAt).getTime() / 1000),
    );
    expect(claims.sid).toBe(user.sessionId);
  });
});

describe("five accounts per browser", () => {
  test("a sixth distinct account answers 409 too_many_accounts; signing in again to one of the five is fine", async () => {
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(desk)));
    const sixth = await createUser(desk, { password: "sixth-password" });
    const browser = browserWith(...five);
    const res = await browser.post("/v1/auth/login", { email: sixth.email, password: "sixth-password" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("too_many_accounts");
    expect(res.headers.getSetCookie()).toEqual([]);

    const listed = await browser.post("/v1/auth/accounts");
    expect(listed.body.accounts).toHaveLength(5);

    // Signing out of one makes room.
    expect((await browser.post("/v1/auth/logout", { user_id: five[0]!.id })).status).toBe(204);
    const now = await browser.post("/v1/auth/login", { email: sixth.email, password: "sixth-password" });
    expect(now.status).toBe(200);
    expect(browser.refreshCookies()).toHaveLength(5);
  });

  test("re-signing in to an account already held replaces its old session, not counted as a sixth", async () => {
    const others = await Promise.all([1, 2, 3, 4].map(() => createUser(desk)));
    const held = await createUser(desk, { password: "held-password" });
    const browser = browserWith(...others, held);
    const res = await browser.post("/v1/auth/login", { email: held.email, password: "held-password" });
    expect(res.status).toBe(200);
    expect((await sessionRow(held.sessionId)).revokedReason).toBe("replaced");
    expect(browser.refreshCookies()).toHaveLength(5);
  });

  test("dead cookies (revoked sessions) do not count", async () => {
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(desk)));
    await desk.deps.db
      .update(sessions)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(sessions.id, five[0]!.sessionId));
    const sixth = await createUser(desk, { password: "sixth-password" });
    const res = await browserWith(...five).post("/v1/auth/login", { email: sixth.email, password: "sixth-password" });
    expect(res.status).toBe(200);
  });

  test("native clients are not counted", async () => {
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(desk)));
    const sixth = await createUser(desk, { password: "sixth-password" });
    const browser = new TestBrowser(desk, NATIVE);
    for (const p of five) browser.jar.set(`desk_rt_${p.id}`, p.refreshToken);
    const res = await desk.api("POST", "/v1/auth/login", {
      headers: { ...NATIVE, cookie: browser.cookieHeader() },
      body: { email: sixth.email, password: "sixth-password" },
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeString();
  });
});

describe("accounts", () => {
  test("lists every account on this browser with its workspaces, most recent first, rotating nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    await desk.deps.db
      .update(sessions)
      .set({ lastUsedAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(sessions.id, owner.sessionId));
    const browser = browserWith(owner, agent);
    const before = [...browser.jar.entries()];
    const res = await browser.post("/v1/auth/accounts");
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.body.accounts.map((a: { user: { id: string } }) => a.user.id)).toEqual([agent.id, owner.id]);
    expect(res.body.accounts[1].workspaces).toEqual([
      { id: workspace.id, name: workspace.name, slug: workspace.slug, role: "owner" },
    ]);
    expect(res.body.accounts[0].workspaces).toEqual([
      { id: workspace.id, name: workspace.name, slug: workspace.slug, role: "agent" },
    ]);
    expect([...browser.jar.entries()]).toEqual(before);
    expect((await sessionRow(owner.sessionId)).generation).toBe(0);
  });

  test("no cookies: an empty list; stale cookies are not listed", async () => {
    expect((await desk.api("POST", "/v1/auth/accounts")).body).toEqual({ accounts: [] });
    const user = await createUser(desk);
    const browser = browserWith(user);
    await browser.post("/v1/auth/refresh");
    const stale = browserWith(user);
    expect((await stale.post("/v1/auth/accounts")).body).toEqual({ accounts: [] });
    // Listing does not treat the stale cookie as reuse.
    expect((await sessionRow(user.sessionId)).revokedAt).toBeNull();
  });
});

describe("logout", () => {
  test("with the bearer token: ends that session, clears its cookie, keeps the other accounts, closes sockets", async () => {
    const [a, b] = [await createUser(desk), await createUser(desk)];
    const browser = browserWith(a, b);
    signals.length = 0;
    const res = await browser.post("/v1/auth/logout", {}, { authorization: `Bearer ${a.token}` });
    expect(res.status).toBe(204);
    expect((await sessionRow(a.sessionId)).revokedReason).toBe("signed_out");
    expect((await sessionRow(b.sessionId)).revokedAt).toBeNull();
    expect(browser.refreshCookies()).toEqual([`desk_rt_${b.id}`]);
    expect(signals).toEqual([{ kind: "sessions", userId: a.id, sessionIds: [a.sessionId] }]);
    expect((await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(401);
  });

  test("{ all: true } ends every account presented in this browser", async () => {
    const people = [await createUser(desk), await createUser(desk), await createUser(desk)];
    const bystander = await createUser(desk);
    const browser = browserWith(...people);
    signals.length = 0;
    const res = await browser.post("/v1/auth/logout", { all: true });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie()).toHaveLength(3);
    for (const p of people) expect((await sessionRow(p.sessionId)).revokedAt).not.toBeNull();
    expect((await sessionRow(bystander.sessionId)).revokedAt).toBeNull();
    expect(browser.refreshCookies()).toEqual([]);
    expect(signals.map((s) => (s.kind === "sessions" ? s.userId : null)).sort()).toEqual(
      people.map((p) => p.id).sort(),
    );
  });

  test("without a bearer or user_id: signs out the most recently used account only", async () => {
    const [a, b] = [await createUser(desk), await createUser(desk)];
    await desk.deps.db
      .update(sessions)
      .set({ lastUsedAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(sessions.id, a.sessionId));
    const browser = browserWith(a, b);
    await browser.post("/v1/auth/logout");
    expect((await sessionRow(b.sessionId)).revokedAt).not.toBeNull();
    expect((await sessionRow(a.sessionId)).revokedAt).toBeNull();
  });

  test("a forged cookie cannot sign someone else out", async () => {
    const victim = await createUser(desk);
    const browser = new TestBrowser(desk);
    browser.jar.set(`desk_rt_${victim.id}`, `${victim.sessionId}.0.not-the-secret`);
    expect((await browser.post("/v1/auth/logout", { all: true })).status).toBe(204);
    expect((await sessionRow(victim.sessionId)).revokedAt).toBeNull();
  });

  test("{ all: 'yes' } is 422", async () => {
    expect((await desk.api("POST", "/v1/auth/logout", { body: { all: "yes" } })).status).toBe(422);
  });
});

describe("native clients", () => {
  test("refresh and logout take { refresh_token } in the body; no cookies anywhere", async () => {
    const user = await createUser(desk, { password: "native-password" });
    const login = await desk.api("POST", "/v1/auth/login", {
      headers: NATIVE,
      body: { email: user.email, password: "native-password" },
    });
    expect(login.status).toBe(200);
    expect(login.headers.getSetCookie()).toEqual([]);
    const token0 = login.body.refresh_token as string;
    expect((await sessionRow(sessionIdOf(token0))).client).toBe("native");

    const refreshed = await desk.api("POST", "/v1/auth/refresh", { headers: NATIVE, body: { refresh_token: token0 } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.getSetCookie()).toEqual([]);
    const token1 = refreshed.body.refresh_token as string;
    expect(token1).not.toBe(token0);

    const missing = await desk.api("POST", "/v1/auth/refresh", { headers: NATIVE, body: {} });
    expect(missing.status).toBe(422);

    const out = await desk.api("POST", "/v1/auth/logout", { headers: NATIVE, body: { refresh_token: token1 } });
    expect(out.status).toBe(204);
    expect((await sessionRow(sessionIdOf(token1))).revokedReason).toBe("signed_out");
    expect(
      (await desk.api("POST", "/v1/auth/refresh", { headers: NATIVE, body: { refresh_token: token1 } })).status,
    ).toBe(401);
  });

  test("a reused native refresh token ends the session", async () => {
    const user = await createUser(desk);
    const first = await desk.api("POST", "/v1/auth/refresh", {
      headers: NATIVE,
      body: { refresh_token: user.refreshToken },
    });
    expect(first.status).toBe(200);
    const again = await desk.api("POST", "/v1/auth/refresh", {
      headers: NATIVE,
      body: { refresh_token: user.refreshToken },
    });
    expect(again.status).toBe(401);
    expect((await sessionRow(user.sessionId)).revokedReason).toBe("refresh_token_reused");
    expect(
      (
        await desk.api("POST", "/v1/auth/refresh", {
          headers: NATIVE,
          body: { refresh_token: first.body.refresh_token },
        })
      ).status,
    ).toBe(401);
  });
});

describe("over a real socket", () => {
  test("several Set-Cookie headers arrive separately (legacy migration)", async () => {
    const user = await createUser(desk);
    const res = await fetch(`${desk.url}/v1/auth/refresh`, {
      method: "POST",
      headers: { cookie: `desk_refresh=${user.refreshToken}`, "content-type": "application/json", origin: desk.url },
      body: "{}",
    });
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies.map((c) => c.split("=")[0]).sort()).toEqual(["desk_refresh", `desk_rt_${user.id}`].sort());
  });
});
