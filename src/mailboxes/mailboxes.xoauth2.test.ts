import { execute, first, one, rowsOf } from "../db/store";
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { transact } from "../db/tx";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startDovecot } from "../../test/peers/dovecot";
import { scheduleMailboxSync } from "../inbound/inbound.imap";
import { mailboxes } from "./mailboxes.table";

/**
 * An OAuth mailbox (provider_a) polled over IMAPS with XOAUTH2 against real Dovecot, whose oauth2
 * passdb asks this introspection endpoint (RFC 7662) whether the access token is good.
 */
const GOOD_TOKEN = "access-good-token";
const introspected: string[] = [];
const introspection = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const token = new URLSearchParams(await request.text()).get("token") ?? "";
    introspected.push(token);
    return token === GOOD_TOKEN
      ? Response.json({ active: true, username: "alice@example.test" })
      : new Response("{}", { status: 401 });
  },
});
const dovecot = await startDovecot(
  { "alice@example.test": "alicepw" },
  { oauth2IntrospectionUrl: `http://127.0.0.1:${introspection.port}/introspect` },
);
const caFile = join(dovecot.dir, "cert.pem");
writeFileSync(caFile, dovecot.ca);
afterAll(async () => {
  introspection.stop(true);
  await dovecot.dispose();
});

const desk = await startTestDesk({
  env: {
    DESK_JOBS: "off",
    DESK_MAIL_CA_FILE: caFile,
    DESK_OAUTH_PROVIDER_A_AUTH_URL: "http://127.0.0.1:9/authorize",
    DESK_OAUTH_PROVIDER_A_TOKEN_URL: "http://127.0.0.1:9/token",
    DESK_OAUTH_PROVIDER_A_CLIENT_ID: "desk-client",
    DESK_OAUTH_PROVIDER_A_CLIENT_SECRET: "desk-secret",
    DESK_OAUTH_PROVIDER_A_IMAP_HOST: `127.0.0.1:${dovecot.imapsPort}`,
  },
});
const { workspace, owner } = await createWorkspaceWithOwner(desk);

/** A mailbox as the OAuth callback leaves it (that flow has its own tests): provider kind, sealed tokens, a sync job. */
async function oauthMailbox(email: string, accessToken: string): Promise<string> {
  const created = await desk.api("POST", "/v1/mailboxes", {
    headers: owner.headers,
    body: { name: email, email, inbound_kind: "forwarding", outbound_kind: "system", config: {} },
  });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  await transact(desk.deps.db, async (tx) => {
    const tokens = { access_token: accessToken, refresh_token: null, expires_at: null };
    const row = one(
      await tx
        .update(mailboxes)
        .set({
          inboundKind: "provider_a",
          oauthSealed: desk.deps.secrets.seal(JSON.stringify(tokens)),
          config: { oauth_email: "alice@example.test" },
        })
        .where(eq(mailboxes.id, id))
        .returning(),
    )!;
    await scheduleMailboxSync(tx, row);
  });
  return id;
}

const runSync = async () => {
  await execute(
    desk.deps.db,
    sql`UPDATE jobs SET run_at = ${new Date(0).toISOString()} WHERE kind = 'mailbox.sync' AND state = 'queued'`,
  );
  // The job idles when the server offers IDLE; close its session shortly so drain returns, and
  // again every half second: a retry of the previous test's job may log in after the first close
  // (on PostgreSQL its retry can commit after the UPDATE above, and so start a second later).
  const close = () => void import("../inbound/inbound.imap").then((m) => m.closeImapSessions(desk.deps.db));
  let closing: ReturnType<typeof setInterval> | undefined;
  const closer = setTimeout(() => {
    close();
    closing = setInterval(close, 500);
  }, 2000);
  await desk.jobs.drain();
  clearTimeout(closer);
  clearInterval(closing);
};
const row = async (id: string) =>
  first(await desk.deps.db.select().from(mailboxes).where(eq(mailboxes.id, id)).limit(1))!;

test("an OAuth mailbox logs in with XOAUTH2, is polled, and its mail becomes a ticket", async () => {
  const id = await oauthMailbox("alice@example.test", GOOD_TOKEN);
  dovecot.deliver(
    "alice@example.test",
    "From: Carol <carol@customer.test>\r\nTo: alice@example.test\r\nSubject: Via XOAUTH2\r\nMessage-ID: <xoauth2-1@customer.test>\r\n\r\nHello over OAuth\r\n",
  );
  await runSync();
  expect(introspected).toContain(GOOD_TOKEN);
  const tickets = await rowsOf<{ subject: string; mailbox_id: string }>(
    desk.deps.db,
    sql`SELECT subject, mailbox_id FROM tickets WHERE workspace_id = ${workspace.id}`,
  );
  expect(tickets).toEqual([{ subject: "Via XOAUTH2", mailbox_id: id }]);
  expect((await row(id)).status).toBe("active");
  expect((await row(id)).lastError).toBe("");
  expect((await row(id)).imapLastUid).toBe(1);
  // The login really was XOAUTH2 (not a password fallback): Dovecot logs the mechanism.
  const log = await Bun.file(join(dovecot.dir, "dovecot.log")).text();
  expect(log).toMatch(/Login: user=<alice@example\.test>, method=XOAUTH2/);
}, 30_000);

test("a token the provider rejects leaves the mailbox in status error with a readable last_error", async () => {
  const id = await oauthMailbox("bob@example.test", "access-revoked-token");
  await runSync();
  expect(introspected).toContain("access-revoked-token");
  expect((await row(id)).status).toBe("error");
  expect((await row(id)).lastError).toMatch(/^IMAP login failed/);
  const mailbox = await desk.api("GET", `/v1/mailboxes/${id}`, { headers: owner.headers });
  expect(mailbox.body.status).toBe("error");
  expect(mailbox.body.last_error).toMatch(/IMAP login failed/);
}, 30_000);
