import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { createUser, createWorkspaceWithOwner, type TestUser } from "../../test/factories";
import { sessions, users } from "./identity.table";
import { NATIVE, TestBrowser } from "../../test/kit/browser";

const BASE = "https://desk.example.test";
const desk = await startTestDesk({ env: { DESK_BASE_URL: BASE } });

const sessionRow = async (id: string) =>
  first(await desk.deps.db.select().from(sessions).where(eq(sessions.id, id)).limit(1))!;

const crossSite: Array<[string, Record<string, string>]> = [
  ["a foreign Origin", { origin: "http://evil.example" }],
  ["a sibling site's Origin", { origin: "https://other.desk.example.test" }],
  ["the base URL's host under another scheme", { origin: "http://desk.example.test:8443" }],
  ["Origin null", { origin: "null" }],
  ["no Origin, Sec-Fetch-Site cross-site", { origin: "", "sec-fetch-site": "cross-site" }],
  ["no Origin, Sec-Fetch-Site same-site", { origin: "", "sec-fetch-site": "same-site" }],
  ["no Origin, a foreign Referer", { origin: "", referer: "http://evil.example/page" }],
];

/** A browser holding one person's refresh cookie that sends exactly these headers (an empty value: header absent). */
function make(user: TestUser, headers: Record<string, string>) {
  const browser = new TestBrowser(desk);
  browser.jar.set(`desk_rt_${user.id}`, user.refreshToken);
  sent.set(browser, Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== "")));
  return browser;
}
const sent = new WeakMap<TestBrowser, Record<string, string>>();

// TestBrowser.post always adds a same-origin Origin; these requests control every header themselves.
async function post(browser: TestBrowser, path: string, body: unknown = {}) {
  const headers: Record<string, string> = { ...sent.get(browser) };
  const cookie = browser.cookieHeader();
  if (cookie) headers.cookie = cookie;
  return browser.absorb(await desk.api("POST", path, { headers, body }));
}

describe("cookie routes refuse cross-site browser requests", () => {
  test.each(crossSite)("%s: refresh, accounts and logout answer 403 and change nothing", async (_label, headers) => {
    const user = await createUser(desk);
    const browser = make(user, headers);
    for (const path of ["/v1/auth/refresh", "/v1/auth/accounts", "/v1/auth/logout"]) {
      const res = await post(browser, path);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 403, code: "forbidden", detail: expect.stringContaining("Cross-site") });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    // Neither rotated nor revoked: the real browser still holds a working cookie.
    expect(await sessionRow(user.sessionId)).toMatchObject({ generation: 0, revokedAt: null });
  });

  test("cross-site login is refused too (no forced sign-in into another account), before validation", async () => {
    const res = await desk.api("POST", "/v1/auth/login", {
      headers: { origin: "http://evil.example" },
      body: { email: 42 },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });

  test.each([
    ["the base URL's origin", { origin: BASE }],
    ["the request's own host (Desk reached under another name)", { origin: "http://localhost" }],
    ["no Origin, Sec-Fetch-Site same-origin", { origin: "", "sec-fetch-site": "same-origin" }],
    ["no Origin, Sec-Fetch-Site none (typed by the person)", { origin: "", "sec-fetch-site": "none" }],
    ["no Origin, a same-origin Referer", { origin: "", referer: `${BASE}/inbox/unassigned` }],
    ["no browser headers at all (scripts)", { origin: "" }],
  ])("%s: refresh, accounts and logout work", async (_label, headers) => {
    const user = await createUser(desk);
    const browser = make(user, headers);
    const refreshed = await post(browser, "/v1/auth/refresh");
    expect(refreshed.status).toBe(200);
    const accounts = await post(browser, "/v1/auth/accounts");
    expect(accounts.status).toBe(200);
    expect(accounts.body.accounts.map((a: { user: { id: string } }) => a.user.id)).toEqual([user.id]);
    expect((await post(browser, "/v1/auth/logout")).status).toBe(204);
    expect((await sessionRow(user.sessionId)).revokedReason).toBe("signed_out");
  });

  test("accepting an invitation as a new person (which starts a session) is refused cross-site before anyone is created", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const invited = await desk.api("POST", "/v1/invitations", {
      headers: owner.headers,
      body: { email: "cross@example.test", role: "agent" },
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.url).pathname.split("/").pop();
    const body = { token, name: "Cross Site", password: "long enough password" };
    const cross = await desk.api("POST", "/v1/invitations/accept", {
      headers: { origin: "http://evil.example" },
      body,
    });
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe("forbidden");
    expect(
      first(await desk.deps.db.select().from(users).where(eq(users.email, "cross@example.test")).limit(1)),
    ).toBeUndefined();
    const same = await desk.api("POST", "/v1/invitations/accept", { headers: { origin: BASE }, body });
    expect(same.status).toBe(201);
  });

  test("native apps send no Origin and use body tokens: unaffected", async () => {
    const user = await createUser(desk);
    const res = await desk.api("POST", "/v1/auth/refresh", {
      headers: NATIVE,
      body: { refresh_token: user.refreshToken },
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toEqual(expect.any(String));
  });
});
