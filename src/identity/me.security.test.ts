import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { startTestDesk } from "../../test/harness";
import { ALL_SCOPES, createKey, createUser, createWorkspaceWithOwner } from "../../test/factories";
import { sessions } from "./identity.table";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import { passwordResets } from "./password-resets.table";
import { issueOperatorReset } from "./password-resets.service";
import { PASSWORD_CHANGE_LIMIT } from "./me.security.service";

const desk = await startTestDesk();
const signals: AccessEnded[] = [];
onAccessEnded(desk.deps.db, (s) => signals.push(s));

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionRow = async (id: string) =>
  first(await desk.deps.db.select().from(sessions).where(eq(sessions.id, id)).limit(1))!;
const login = (email: string, password: string) =>
  desk.api("POST", "/v1/auth/login", { headers: { "user-agent": "Firefox test" }, body: { email, password } });

/** A person with a password and two more sign-ins (three sessions in all). */
async function personWithSessions(password = "current-password") {
  const person = await createUser(desk, { password });
  const second = await login(person.email, password);
  const third = await login(person.email, password);
  expect(second.status).toBe(200);
  return { person, others: [second.body.access_token as string, third.body.access_token as string] };
}

describe("POST /v1/me/password", () => {
  test("needs the current password; signs out every other session, keeps this one, retires reset links", async () => {
    const { person, others } = await personWithSessions();
    const link = (await issueOperatorReset(desk.deps, person.email))!;
    signals.length = 0;
    const res = await desk.api("POST", "/v1/me/password", {
      headers: auth(person.token),
      body: { current_password: "current-password", new_password: "next-password-2" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signed_out_sessions: 2 });
    expect((await desk.api("GET", "/v1/me", { headers: auth(person.token) })).status).toBe(200);
    for (const token of others) expect((await desk.api("GET", "/v1/me", { headers: auth(token) })).status).toBe(401);
    expect(signals).toEqual([{ kind: "sessions", userId: person.id, sessionIds: expect.any(Array) }]);
    expect((await sessionRow(person.sessionId)).revokedAt).toBeNull();
    expect((await login(person.email, "current-password")).status).toBe(401);
    expect((await login(person.email, "next-password-2")).status).toBe(200);
    const token = link.url.split("#")[1]!;
    expect(
      (await desk.api("POST", "/v1/auth/password/reset", { body: { token, password: "third-password" } })).status,
    ).toBe(422);
    expect(
      (await desk.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, person.id))).every(
        (r) => r.usedAt,
      ),
    ).toBe(true);
  }, 20_000);

  test("a wrong current password is 422 and changes nothing; after 5 wrong tries 429", async () => {
    const { person, others } = await personWithSessions();
    for (let i = 0; i < PASSWORD_CHANGE_LIMIT.attempts; i++) {
      const res = await desk.api("POST", "/v1/me/password", {
        headers: auth(person.token),
        body: { current_password: "wrong-one", new_password: "next-password-2" },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "invalid_password", errors: [{ location: "body.current_password" }] });
    }
    const limited = await desk.api("POST", "/v1/me/password", {
      headers: auth(person.token),
      body: { current_password: "current-password", new_password: "next-password-2" },
    });
    expect(limited.status).toBe(429);
    expect((await desk.api("GET", "/v1/me", { headers: auth(others[0]!) })).status).toBe(200);
    expect((await login(person.email, "current-password")).status).toBe(200);
  }, 20_000);

  test.each([
    ["short new password", { current_password: "x", new_password: "short" }, "body.new_password"],
    ["missing current", { new_password: "long-enough-2" }, "body.current_password"],
  ])("%s is 422", async (_label, body, location) => {
    const person = await createUser(desk);
    const res = await desk.api("POST", "/v1/me/password", { headers: auth(person.token), body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
  });

  test("no credential 401, API key 403", async () => {
    expect((await desk.api("POST", "/v1/me/password", { body: {} })).status).toBe(401);
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ALL_SCOPES);
    expect(
      (
        await desk.api("POST", "/v1/me/password", {
          headers: key.headers,
          body: { current_password: "a", new_password: "bbbbbbbbb" },
        })
      ).status,
    ).toBe(403);
    expect((await desk.api("GET", "/v1/me/sessions", { headers: key.headers })).status).toBe(403);
  });
});

describe("/v1/me/sessions", () => {
  test("lists live sessions, current marked; another person's session is 404; one or all others can be signed out", async () => {
    const { person, others } = await personWithSessions();
    const stranger = await createUser(desk);
    const list = await desk.api("GET", "/v1/me/sessions", { headers: auth(person.token) });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data.filter((s: { current: boolean }) => s.current).map((s: { id: string }) => s.id)).toEqual([
      person.sessionId,
    ]);
    expect(list.body.data.find((s: { current: boolean }) => !s.current)).toMatchObject({
      client: "web",
      user_agent: "Firefox test",
      mfa_verified: false,
    });
    expect(JSON.stringify(list.body)).not.toContain("refresh");

    expect(
      (await desk.api("DELETE", `/v1/me/sessions/${stranger.sessionId}`, { headers: auth(person.token) })).status,
    ).toBe(404);
    expect((await sessionRow(stranger.sessionId)).revokedAt).toBeNull();

    const victim = list.body.data.find((s: { current: boolean }) => !s.current).id as string;
    signals.length = 0;
    expect((await desk.api("DELETE", `/v1/me/sessions/${victim}`, { headers: auth(person.token) })).status).toBe(204);
    expect(signals).toEqual([{ kind: "sessions", userId: person.id, sessionIds: [victim] }]);
    expect((await desk.api("DELETE", `/v1/me/sessions/${victim}`, { headers: auth(person.token) })).status).toBe(404);
    expect((await desk.api("GET", "/v1/me/sessions", { headers: auth(person.token) })).body.data).toHaveLength(2);

    const rest = await desk.api("POST", "/v1/me/sessions/sign-out-others", { headers: auth(person.token) });
    expect(rest.body).toEqual({ signed_out_sessions: 1 });
    for (const token of others) expect((await desk.api("GET", "/v1/me", { headers: auth(token) })).status).toBe(401);
    const after = await desk.api("GET", "/v1/me/sessions", { headers: auth(person.token) });
    expect(after.body.data.map((s: { id: string }) => s.id)).toEqual([person.sessionId]);
  }, 20_000);
});
