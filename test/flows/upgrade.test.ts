import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../migrations/index";
import { restoreBackup } from "../../src/backups/backups.service";
import { startTestDesk } from "../harness";
import { onPostgres } from "../kit/postgres";
import expected from "../fixtures/release-0.1.0.json" with { type: "json" };
import { sql } from "drizzle-orm";
import { rowsOf } from "../../src/db/store";

/**
 * Upgrades from the first release: test/fixtures/release-0.1.0.tar.gz is a `desk backup` taken by
 * Desk 0.1.0 (tag v0.1.0) of a workspace built through its API (test/fixtures/make-release-fixture.ts).
 * Today's Desk restores it, starts on it (applying every migration since, after a pre-migrate
 * snapshot), and everything the old release stored reads back through today's API.
 */
const SECRET = "upgrade-fixture-secret-long-enough-0123456789";
const work = mkdtempSync(join(tmpdir(), "desk-upgrade-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Release 0.1.0 ran on SQLite only: its data dir is a SQLite file, restored and migrated in place (a
// pre-migrate snapshot of the file first). A PostgreSQL database starts at today's lineage.
test.skipIf(onPostgres)(
  "a 0.1.0 data dir restores, migrates in one start and reads back through today's API",
  async () => {
    const dataDir = join(work, "data");
    const manifest = await restoreBackup({
      file: join(import.meta.dir, "..", "fixtures", "release-0.1.0.tar.gz"),
      dataDir,
      migrations,
    });
    expect(manifest.desk_version).toBe("0.1.0");
    const pending = migrations.filter((m) => !manifest.migrations.includes(m.tag));
    expect(pending.length).toBeGreaterThan(0);

    const desk = await startTestDesk({ env: { DESK_DATA_DIR: dataDir, DESK_SECRET: SECRET } });
    // Migrating an existing database first copies it aside.
    expect(readdirSync(join(dataDir, "snapshots")).some((f) => f.startsWith("pre-migrate-"))).toBe(true);
    const applied = (await rowsOf<{ tag: string }>(desk.deps.db, sql`SELECT tag FROM __desk_migrations`)).map(
      (r) => r.tag,
    );
    expect(applied.sort()).toEqual(migrations.map((m) => m.tag).sort());

    // People sign in with the passwords they had.
    const login = await desk.api("POST", "/v1/auth/login", {
      body: { email: expected.owner.email, password: expected.owner.password },
    });
    expect(login.status).toBe(200);
    const as = { authorization: `Bearer ${login.body.access_token}`, "desk-workspace": expected.workspace_id };

    // Tickets, their messages, labels, fields, attachments and the full-text index.
    const list = await desk.api("GET", "/v1/tickets?limit=100&status=open,pending,on_hold,solved", { headers: as });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(expected.ticket_count);
    const first = await desk.api("GET", `/v1/tickets/${expected.first_ticket.id}`, { headers: as });
    expect(first.body).toMatchObject({
      number: expected.first_ticket.number,
      subject: "Refund for the flamingo lamp",
      priority: "high",
      tags: [expect.objectContaining({ name: "Billing" })],
      fields: { [expected.field_key]: "A-1001" },
    });
    const messages = await desk.api("GET", `/v1/tickets/${expected.first_ticket.id}/messages`, { headers: as });
    expect(messages.body.data.map((m: { kind: string }) => m.kind)).toEqual(["reply", "note"]);
    const attachment = messages.body.data[0].attachments[0];
    expect(attachment.id).toBe(expected.attachment.id);
    const file = await fetch(
      `${desk.url}${new URL(attachment.url, desk.url).pathname}${new URL(attachment.url, desk.url).search}`,
      {
        headers: as,
      },
    );
    expect(await file.text()).toBe(expected.attachment.content);
    const solved = await desk.api("GET", `/v1/tickets/${expected.solved_ticket_id}`, { headers: as });
    expect(solved.body.status).toBe("solved");
    const search = await desk.api("GET", "/v1/search?q=flamingo", { headers: as });
    expect(JSON.stringify(search.body)).toContain(expected.first_ticket.id);

    // Contacts and companies, views, saved replies, webhooks, mailboxes and their sealed secrets.
    const contact = await desk.api("GET", `/v1/contacts/${expected.contact_id}`, { headers: as });
    expect(contact.body).toMatchObject({
      email: "homer@globex.test",
      company: expect.objectContaining({ name: "Globex" }),
    });
    expect((await desk.api("GET", `/v1/views/${expected.view_id}`, { headers: as })).body.name).toBe("Billing queue");
    expect((await desk.api("GET", `/v1/saved-replies/${expected.saved_reply_id}`, { headers: as })).body.title).toBe(
      "Thanks",
    );
    expect((await desk.api("GET", `/v1/webhooks/${expected.webhook_id}`, { headers: as })).status).toBe(200);
    const sealed = (
      await rowsOf<{ smtp_password_sealed: string }>(
        desk.deps.db,
        sql`SELECT smtp_password_sealed FROM mailboxes WHERE id = ${expected.mailbox_id}`,
      )
    )[0];
    expect(desk.deps.secrets.open(sealed!.smtp_password_sealed)).toBe(expected.smtp_password);

    // API keys keep working, within their scopes.
    const key = { authorization: `Bearer ${expected.api_key}` };
    expect((await desk.api("GET", `/v1/tickets/${expected.first_ticket.id}`, { headers: key })).status).toBe(200);
    expect((await desk.api("POST", "/v1/tickets", { headers: key, body: { subject: "x" } })).status).toBe(403);

    // And the upgraded desk takes new writes.
    const created = await desk.api("POST", "/v1/tickets", { headers: as, body: { subject: "After the upgrade" } });
    expect(created.status).toBe(201);
    expect(created.body.number).toBe(expected.ticket_count + 1);
    expect(existsSync(join(dataDir, "desk.db"))).toBe(true);
  },
);
