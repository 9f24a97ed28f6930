import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { untilCommitted } from "../db/tx";
import { loadConfig } from "./config";

// The common shell umask, under which files were created 0644 and folders 0755.
const umaskBefore = process.umask(0o022);
const parent = mkdtempSync(join(tmpdir(), "desk-perm-"));
const dataDir = join(parent, "data");
afterAll(() => {
  rmSync(parent, { recursive: true, force: true });
  process.umask(umaskBefore);
});

/** Every path under `dir` with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: string }[] {
  const found: { path: string; dir: boolean; mode: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    found.push({ path: path.slice(dataDir.length), dir: entry.isDirectory(), mode: (statSync(path).mode & 0o777).toString(8) });
    if (entry.isDirectory()) found.push(...modes(path));
  }
  return found;
}

describe("data dir permissions", () => {
  test("under umask 022 the data dir is 0700 and every file Desk creates is 0600", async () => {
    // Generated secrets (no DESK_SECRET), then a Desk on the same dir.
    loadConfig({ DESK_DATA_DIR: dataDir, DESK_SMTP_PORT: "0" });
    const desk = await startTestDesk({ config: { dataDir } });
    const { owner } = await createWorkspaceWithOwner(desk);

    const upload = new FormData();
    upload.set("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    expect((await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: upload })).status).toBe(201);

    const mailbox = await desk.api("POST", "/v1/mailboxes", { headers: owner.headers, body: { name: "Support", email: "support@perm.test" } });
    expect(mailbox.status).toBe(201);
    const raw = ["From: carol@customer.test", "To: support@perm.test", "Subject: Hi", "Message-ID: <perm@customer.test>", "", "Hello", ""].join("\r\n");
    const inbound = await desk.api("POST", "/v1/inbound/email?to=support@perm.test", {
      headers: { "content-type": "message/rfc822", "desk-inbound-secret": desk.deps.config.inboundSecret },
      raw,
    });
    expect(inbound.status).toBeLessThan(300);

    expect((await desk.api("POST", "/v1/invitations", { headers: owner.headers, body: { email: "new@perm.test", role: "agent" } })).status).toBe(201);
    await desk.jobs.drain();
    await untilCommitted(desk.deps.db);

    const found = modes(dataDir);
    const names = found.map((f) => f.path);
    for (const expected of ["/desk.db", "/desk.db-wal", "/desk.db-shm", "/secret.key", "/inbound-secret.key"]) expect(names).toContain(expected);
    for (const folder of ["/attachments", "/mail", "/outbox"]) {
      expect(names).toContain(folder);
      expect(found.some((f) => f.path.startsWith(`${folder}/`) && !f.dir)).toBe(true);
    }
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe("700");
    expect(found.filter((f) => f.mode !== (f.dir ? "700" : "600"))).toEqual([]);
  });

  test("a data dir an earlier version made 0755 is tightened to 0700", () => {
    const old = join(parent, "old");
    loadConfig({ DESK_DATA_DIR: old, DESK_SECRET: "test-secret-that-is-long-enough-0123456789", DESK_INBOUND_SECRET: "x".repeat(8) });
    chmodSync(old, 0o755);
    expect(existsSync(old)).toBe(true);
    loadConfig({ DESK_DATA_DIR: old, DESK_SECRET: "test-secret-that-is-long-enough-0123456789", DESK_INBOUND_SECRET: "x".repeat(8) });
    expect((statSync(old).mode & 0o777).toString(8)).toBe("700");
  });
});
