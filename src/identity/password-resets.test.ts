import { first, rowsOf } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { sessions } from "./identity.table";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import { manualClock } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { passwordResets } from "./password-resets.table";
import { RESET_LIMITS } from "./password-resets.service";

// System mail goes through the DESK_SMTP_URL relay: here a real SMTP server (Postfix's smtp-sink).
const sink = await startSmtpSink();
const clock = manualClock(new Date());
const desk = await startTestDesk({
  clock,
  env: { DESK_SMTP_URL: `smtp://127.0.0.1:${sink.port}?tls=none`, DESK_BASE_URL: "http://desk.test" },
});
afterAll(() => sink.stop());
const signals: AccessEnded[] = [];
onAccessEnded(desk.deps.db, (s) => signals.push(s));

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const resetsOf = async (userId: string) =>
  await desk.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, userId));
const sessionRow = async (id: string) =>
  first(await desk.deps.db.select().from(sessions).where(eq(sessions.id, id)).limit(1))!;
const forgot = (email: string, d: TestDesk = desk) => d.api("POST", "/v1/auth/password/forgot", { body: { email } });
const login = (email: string, password: string) => desk.api("POST", "/v1/auth/login", { body: { email, password } });

/** The reset mail to `address` that arrived at the sink, parsed; answers its text and the link's token. */
async function mailTo(address: string): Promise<{ text: string; subject: string; token: string; raw: string }> {
  for (let i = 0; i < 200; i++) {
    await desk.jobs.drain();
    const raw = sink.messages().find((m) => m.includes(address) && m.includes("Reset your Desk password"));
    if (raw) {
      const parsed = await simpleParser(raw.slice(raw.indexOf("\n", raw.indexOf("X-Rcpt-Args")) + 1));
      const link = /http:\/\/desk\.test\/reset-password#([A-Za-z0-9_-]+)/.exec(parsed.text ?? "");
      return { text: parsed.text ?? "", subject: parsed.subject ?? "", token: link?.[1] ?? "", raw };
    }
    await Bun.sleep(25);
  }
  throw new Error(`no reset mail to ${address}`);
}

describe("POST /v1/auth/password/forgot", () => {
  test("answers 202 the same whether or not the email has an account; only a person gets mail", async () => {
    const person = await createUser(desk, { password: "old-password-1" });
    const known = await forgot(person.email.toUpperCase());
    const unknown = await forgot(`nobody-${Date.now()}@example.test`);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());

    const mail = await mailTo(person.email);
    expect(mail.subject).toBe("Reset your Desk password");
    expect(mail.raw).toContain("Auto-Submitted: auto-generated");
    expect(mail.token.length).toBeGreaterThan(30);
    // Only the hash is stored; the job payload holds the link sealed.
    const [row] = await resetsOf(person.id);
    expect(row).toMatchObject({ tokenHash: sha256Hex(mail.token), requestedBy: "email", usedAt: null });
    expect(new Date(row!.expiresAt).getTime() - new Date(row!.createdAt).getTime()).toBe(3600_000);
    const payloads = await rowsOf<{ payload: string }>(
      desk.deps.db,
      sql`SELECT CAST(payload AS text) AS payload FROM jobs WHERE kind = 'password_reset.mail'`,
    );
    for (const { payload } of payloads) expect(payload).not.toContain(mail.token);
  });

  test("bad input is 422; a cross-site browser request is 403", async () => {
    const res = await desk.api("POST", "/v1/auth/password/forgot", { body: { email: "" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.email");
    const cross = await desk.api("POST", "/v1/auth/password/forgot", {
      headers: { origin: "http://evil.example" },
      body: { email: "a@b.test" },
    });
    expect(cross.status).toBe(403);
  });

  test(`rate limited: at most ${RESET_LIMITS.perEmail} links per email an hour (the answer stays 202), ${RESET_LIMITS.perIp} requests per address (429)`, async () => {
    const person = await createUser(desk);
    for (let i = 0; i < RESET_LIMITS.perEmail + 2; i++) expect((await forgot(person.email)).status).toBe(202);
    expect(await resetsOf(person.id)).toHaveLength(RESET_LIMITS.perEmail);
    clock.advance(RESET_LIMITS.windowMs + 1000);
    expect((await forgot(person.email)).status).toBe(202);
    expect(await resetsOf(person.id)).toHaveLength(RESET_LIMITS.perEmail + 1);

    // Over a real socket the client address counts.
    const over = async () =>
      fetch(`${desk.url}/v1/auth/password/forgot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "x@example.test" }),
      });
    for (let i = 0; i < RESET_LIMITS.perIp; i++) expect((await over()).status).toBe(202);
    const limited = await over();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ status: 429, code: "rate_limited" });
    clock.advance(RESET_LIMITS.windowMs + 1000);
  });
});

test("the reset mail speaks the person's own language; one Desk does not ship falls back to English", async () => {
  const person = await createUser(desk);
  const arabic = await createUser(desk);
  for (const [who, locale] of [
    [person, "de"],
    [arabic, "ar"],
  ] as const)
    expect((await desk.api("PATCH", "/v1/me", { headers: auth(who.token), body: { locale } })).status).toBe(200);
  expect((await forgot(person.email)).status).toBe(202);
  expect((await forgot(arabic.email)).status).toBe(202);
  const parsedTo = async (address: string) => {
    for (let i = 0; i < 200; i++) {
      await desk.jobs.drain();
      const raw = sink.messages().find((m) => m.includes(address));
      if (raw) return simpleParser(raw.slice(raw.indexOf("\n", raw.indexOf("X-Rcpt-Args")) + 1));
      await Bun.sleep(25);
    }
    throw new Error(`no reset mail to ${address}`);
  };
  const german = await parsedTo(person.email);
  expect(german.subject).toBe("Setzen Sie Ihr Desk-Passwort zurück");
  expect(german.text).toContain(`Hallo ${person.name},`);
  expect(german.text).toContain("Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail");
  expect(german.text).toMatch(/http:\/\/desk\.test\/reset-password#[A-Za-z0-9_-]{30,}/);
  expect((await parsedTo(arabic.email)).subject).toBe("Reset your Desk password");
});

describe("POST /v1/auth/password/reset", () => {
  test("sets the password once, retires the other links and ends every session of the account", async () => {
    const person = await createUser(desk, { password: "old-password-1" });
    const second = await login(person.email, "old-password-1");
    expect(second.status).toBe(200);
    await forgot(person.email);
    const { token } = await mailTo(person.email);
    await forgot(person.email); // a second, still-open link
    expect(await resetsOf(person.id)).toHaveLength(2);

    signals.length = 0;
    const done = await desk.api("POST", "/v1/auth/password/reset", { body: { token, password: "brand-new-password" } });
    expect(done.status).toBe(204);
    expect(await sessionRow(person.sessionId)).toMatchObject({ revokedReason: "password_reset" });
    expect((await desk.api("GET", "/v1/me", { headers: auth(person.token) })).status).toBe(401);
    expect((await desk.api("GET", "/v1/me", { headers: auth(second.body.access_token) })).status).toBe(401);
    expect(signals).toEqual([
      { kind: "sessions", userId: person.id, sessionIds: expect.arrayContaining([person.sessionId]) },
    ]);
    expect(signals[0]!.kind === "sessions" && signals[0]!.sessionIds.length).toBe(2);
    expect((await resetsOf(person.id)).every((r) => r.usedAt !== null)).toBe(true);

    expect((await login(person.email, "old-password-1")).status).toBe(401);
    expect((await login(person.email, "brand-new-password")).status).toBe(200);

    // Single use.
    const again = await desk.api("POST", "/v1/auth/password/reset", { body: { token, password: "another-password" } });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: "invalid_token", errors: [{ location: "body.token" }] });
    expect((await login(person.email, "brand-new-password")).status).toBe(200);
  }, 20_000);

  test("expires after an hour", async () => {
    const person = await createUser(desk, { password: "old-password-1" });
    await forgot(person.email);
    const { token } = await mailTo(person.email);
    clock.advance(60 * 60_000 + 1);
    const res = await desk.api("POST", "/v1/auth/password/reset", { body: { token, password: "brand-new-password" } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("invalid_token");
    expect((await sessionRow(person.sessionId)).revokedAt).toBeNull();
    expect((await login(person.email, "old-password-1")).status).toBe(200);
  }, 20_000);

  test.each([
    ["unknown token", { token: "nope", password: "long-enough-1" }, "body.token"],
    ["short password", { token: "nope", password: "short" }, "body.password"],
    ["missing token", { password: "long-enough-1" }, "body.token"],
    ["unknown field", { token: "x", password: "long-enough-1", user_id: "u" }, "body"],
  ])("%s is 422", async (_label, body, location) => {
    const res = await desk.api("POST", "/v1/auth/password/reset", { body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
  });
});

test("without DESK_SMTP_URL the reset mail is written to the outbox", async () => {
  const local = await startTestDesk();
  const person = await createUser(local);
  expect((await forgot(person.email, local)).status).toBe(202);
  const outbox = join(local.dataDir, "outbox");
  let raw = "";
  for (let i = 0; i < 200 && !raw; i++) {
    await local.jobs.drain();
    raw = existsSync(outbox)
      ? (readdirSync(outbox)
          .map((f) => readFileSync(join(outbox, f), "utf8"))
          .find((m) => m.includes(person.email)) ?? "")
      : "";
    if (!raw) await Bun.sleep(25);
  }
  expect(raw).toContain("Subject: Reset your Desk password");
  expect((await simpleParser(raw)).text).toMatch(/\/reset-password#[A-Za-z0-9_-]{40,}/);
});
