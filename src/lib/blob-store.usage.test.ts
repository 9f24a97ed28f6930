import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import sharp from "sharp";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { fakeS3DeskEnv, startFakeS3 } from "../../test/kit/s3";
import { runImportToEnd } from "../../test/kit/imports";
import { removeAttachmentFilesOf } from "../attachments/attachments.public";
import { removeWorkspaceMail } from "../inbound/inbound.public";
import type { BlobStore } from "./blob-store";
import { sql } from "drizzle-orm";
import { execute, rowsOf } from "../db/store";

const SRC = join(import.meta.dir, "..");

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(relative(join(SRC, ".."), path));
  }
  return out;
}

/** Reads or writes files itself. */
const TOUCHES_FILES = /from "node:fs(\/promises)?"|Bun\.write\(|Bun\.file\(/;
/** Names the data dir, or a path helper into one of its file areas. */
const NAMES_DATA_DIR = /\b(dataDir|attachmentFilePath|imagePath|csvPathOf|originalPath)\b/;

/** Files that touch the data dir for what is not a blob, and why. */
const NOT_BLOBS: Record<string, string> = {
  "src/lib/blob-store.ts": "the local store itself",
  "src/config/config.ts": "generated secrets (*.key) beside the database",
  "src/backups/backups.service.ts": "backup and restore copy the whole data dir, store files included",
  "src/backups/backups.runs.ts": "archives in DESK_BACKUP_DIR",
  "src/doctor/doctor.ts": "permissions and free space of the data dir",
  "src/db/storage.ts": "the database file and free space",
  "src/system/system.service.ts": "sizes of the database and the disk",
  "src/pictures/pictures.native.ts": "libvips unpacked from the executable: the loader needs a path on disk",
  "src/migrate-to/migrate-to.cli.ts": "the way back makes a new, empty data dir and writes its secrets there",
};

/**
 * Files of other features that still read or write store files around it. May only shrink: each
 * names what it should call instead.
 */
const AROUND_THE_STORE: Record<string, string> = {};

describe("files go through the desk's store", () => {
  test("no file in src reads or writes under the data dir around deps.blobs, beyond the listed ones", () => {
    const offenders: string[] = [];
    const stillAround = new Set<string>();
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(join(SRC, "..", file), "utf8");
      if (!TOUCHES_FILES.test(text) || !NAMES_DATA_DIR.test(text)) continue;
      if (file in AROUND_THE_STORE) stillAround.add(file);
      else if (!(file in NOT_BLOBS)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
    // A file moved to the store leaves the list.
    expect([...stillAround].sort()).toEqual(Object.keys(AROUND_THE_STORE).sort());
  });

  test("the features that own store files never touch the file system themselves", () => {
    const folders = ["attachments", "pictures", "inbound", "outbound", "mail"];
    const touching = sourceFiles(SRC).filter(
      (file) =>
        folders.includes(file.split("/")[1]!) &&
        !(file in NOT_BLOBS) &&
        TOUCHES_FILES.test(readFileSync(join(SRC, "..", file), "utf8")),
    );
    expect(touching).toEqual([]);
  });
});

/** Wraps the desk's store, recording each call's method and key. */
function recording(store: BlobStore) {
  const calls: string[] = [];
  const noted = (call: string) => {
    calls.push(call);
  };
  const wrapped: BlobStore = {
    put(key, body, options) {
      noted(`put ${key}`);
      return store.put(key, body, options);
    },
    get(key) {
      noted(`get ${key}`);
      return store.get(key);
    },
    has(key) {
      noted(`has ${key}`);
      return store.has(key);
    },
    delete(key) {
      noted(`delete ${key}`);
      return store.delete(key);
    },
    list(prefix) {
      noted(`list ${prefix}`);
      return store.list(prefix);
    },
    describe: (key) => store.describe(key),
  };
  return { wrapped, calls };
}

/**
 * Where a desk's store keeps its files, read around the store: the data dir, or the bucket of the
 * fake S3 server (test/kit/s3.ts) for a desk started with DESK_FILES_URL. The same tests run on both.
 */
type FilesPlace = {
  name: string;
  env: () => Record<string, string>;
  /** The text stored under `key` (null: nothing there). */
  stored(desk: TestDesk, key: string): string | null;
  /** The names directly below a folder of the store (`attachments` → the attachments' ids). */
  entries(desk: TestDesk, folder: string): string[];
};

const dataDirFiles: FilesPlace = {
  name: "in the data dir",
  env: () => ({}),
  stored: (desk, key) => (existsSync(join(desk.dataDir, key)) ? readFileSync(join(desk.dataDir, key), "utf8") : null),
  entries: (desk, folder) =>
    existsSync(join(desk.dataDir, folder)) ? readdirSync(join(desk.dataDir, folder)).sort() : [],
};

const fakeS3 = startFakeS3();
afterAll(() => fakeS3.stop());
const BUCKET = "desk-usage";
const S3_PREFIX = "tenant-a";
const s3Files: FilesPlace = {
  name: "in S3 (DESK_FILES_URL)",
  env: () => fakeS3DeskEnv(fakeS3, BUCKET, S3_PREFIX),
  stored: (_desk, key) => {
    const object = fakeS3.object(BUCKET, `${S3_PREFIX}/${key}`);
    return object ? new TextDecoder().decode(object) : null;
  },
  entries: (_desk, folder) => [
    ...new Set(
      fakeS3
        .keys(BUCKET)
        .filter((key) => key.startsWith(`${S3_PREFIX}/${folder}/`))
        .map((key) => key.slice(`${S3_PREFIX}/${folder}/`.length).split("/")[0]!),
    ),
  ],
};

for (const files of [dataDirFiles, s3Files])
  describe(`features use deps.blobs, files ${files.name}`, async () => {
    const desk = await startTestDesk({ env: { DESK_INBOUND_DOMAIN: "desk.test", ...files.env() } });
    const { wrapped, calls } = recording(desk.deps.blobs);
    desk.deps.blobs = wrapped;
    const { workspace, owner } = await createWorkspaceWithOwner(desk);

    test("an upload lands under attachments/<id>, is served back from the store and mailed from it to the outbox", async () => {
      const form = new FormData();
      form.append("file", new File(["quarterly figures"], "figures.txt", { type: "text/plain" }));
      const upload = await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: form });
      expect(upload.status).toBe(201);
      const key = `attachments/${upload.body.id}`;
      expect(calls).toContain(`put ${key}`);
      expect(files.stored(desk, key)).toBe("quarterly figures");

      const link = new URL(upload.body.url);
      const served = await desk.api("GET", `${link.pathname}${link.search}`);
      expect(served.status).toBe(200);
      expect(served.text).toBe("quarterly figures");
      expect(served.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(calls).toContain(`get ${key}`);

      // A system mailbox without a relay: the reply, its attachment read from the store, goes to outbox/.
      const mailbox = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: { name: "Help", email: "help@acme.test", inbound_kind: "forwarding", outbound_kind: "system" },
      });
      const ticket = await desk.api("POST", "/v1/tickets", {
        headers: owner.headers,
        body: {
          subject: "Figures",
          channel: "email",
          mailbox_id: mailbox.body.id,
          contact: { email: "carol@customer.test" },
          kind: "note",
          body_html: "<p>x</p>",
        },
      });
      calls.length = 0;
      const reply = await desk.api("POST", `/v1/tickets/${ticket.body.id}/messages`, {
        headers: owner.headers,
        body: { kind: "reply", body_html: "<p>Attached.</p>", attachment_ids: [upload.body.id] },
      });
      expect(reply.status).toBe(201);
      await desk.jobs.drain();
      expect(calls).toContain(`get ${key}`);
      const outboxPut = calls.find((c) => c.startsWith("put outbox/"));
      expect(outboxPut).toMatch(/^put outbox\/[0-9T-]+Z-.+\.eml$/);
      const raw = files.stored(desk, outboxPut!.slice(4));
      expect(raw).toContain("To: carol@customer.test");
      expect(raw).toContain(`filename=figures.txt`);
    });

    test("a picture's two sizes land under images/ and are served from the store", async () => {
      const png = await sharp({ create: { width: 90, height: 60, channels: 3, background: "#c33" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("file", new File([png], "me.png", { type: "image/png" }));
      calls.length = 0;
      const set = await desk.api("PUT", "/v1/me/avatar", { headers: owner.headers, raw: form });
      expect(set.status).toBe(200);
      const id = /\/v1\/images\/(img_[A-Za-z0-9_-]+)/.exec(JSON.stringify(set.body))![1]!;
      expect(calls).toEqual([`put images/${id}-256.png`, `put images/${id}-64.png`]);
      const served = await desk.api("GET", `/v1/images/${id}?s=64`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(calls).toContain(`get images/${id}-64.png`);
    });

    test("a received mail's original lands under mail/<workspace>/<month>/ and the key is its original_path", async () => {
      const mailbox = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: { name: "In", email: "in@acme.test", inbound_kind: "forwarding", outbound_kind: "system" },
      });
      expect(mailbox.status).toBe(201);
      calls.length = 0;
      const raw = [
        "From: Dana <dana@customer.test>",
        "To: in@acme.test",
        "Subject: Hello",
        "Message-ID: <blob-store-usage@customer.test>",
        "Auto-Submitted: auto-generated",
        "",
        "Hi.",
        "",
      ].join("\r\n");
      const posted = await desk.api("POST", "/v1/inbound/email?to=in%40acme.test", {
        headers: { "content-type": "message/rfc822", "desk-inbound-secret": "test-inbound-secret" },
        raw,
      });
      expect(posted.body.status).toBe("created");
      const put = calls.find((c) => c.startsWith("put mail/"));
      expect(put).toMatch(/^put mail\/[0-9a-f-]{36}\/\d{4}-\d{2}\/[0-9a-f-]{36}\.eml$/);
      const stored = (
        await rowsOf<{ original_path: string }>(
          desk.deps.db,
          sql`SELECT original_path FROM messages WHERE id = ${posted.body.message_id}`,
        )
      )[0]!;
      expect(stored.original_path).toBe(put!.slice(4));
      expect(files.stored(desk, stored.original_path)).toBe(raw);
    });

    test("a message's original and its full text are read from the store by original_path", async () => {
      // A workspace of its own: the purge below counts the first workspace's mail.
      const { owner } = await createWorkspaceWithOwner(desk);
      const mailbox = await desk.api("POST", "/v1/mailboxes", {
        headers: owner.headers,
        body: { name: "Orig", email: "orig@acme.test", inbound_kind: "forwarding", outbound_kind: "system" },
      });
      expect(mailbox.status).toBe(201);
      const raw = [
        "From: Erin <erin@customer.test>",
        "To: orig@acme.test",
        "Subject: Original",
        "Message-ID: <blob-store-original@customer.test>",
        "Auto-Submitted: auto-generated",
        "",
        "New words.",
        "",
        "> the quoted history",
        "",
      ].join("\r\n");
      const posted = await desk.api("POST", "/v1/inbound/email?to=orig%40acme.test", {
        headers: { "content-type": "message/rfc822", "desk-inbound-secret": "test-inbound-secret" },
        raw,
      });
      expect(posted.body.status).toBe("created");
      const id = posted.body.message_id as string;
      const key = (
        await rowsOf<{ original_path: string }>(desk.deps.db, sql`SELECT original_path FROM messages WHERE id = ${id}`)
      )[0]!.original_path;
      const setPath = async (path: string) =>
        await execute(desk.deps.db, sql`UPDATE messages SET original_path = ${path} WHERE id = ${id}`);
      const original = () => desk.api("GET", `/v1/messages/${id}/original`, { headers: owner.headers });

      calls.length = 0;
      const source = await original();
      expect(source.status).toBe(200);
      expect(source.text).toBe(raw);
      expect(source.headers.get("x-original-content-type")).toBe("message/rfc822");
      const text = await desk.api("GET", `/v1/messages/${id}/original?view=text`, { headers: owner.headers });
      expect(text.status).toBe(200);
      expect(text.text).toContain("> the quoted history");
      expect(calls).toEqual([`get ${key}`, `get ${key}`]);

      // A row from before the store holding an absolute path under the data dir: read by its key.
      await setPath(join(desk.dataDir, key));
      calls.length = 0;
      expect((await original()).text).toBe(raw);
      expect(calls).toEqual([`get ${key}`]);

      // Anything outside the store's keys is never read: the stored body answers, as before.
      const outside = join(mkdtempSync(join(tmpdir(), "desk-outside-")), "secret.eml");
      writeFileSync(outside, "Subject: not yours\r\n\r\nsecret");
      mkdirSync(join(desk.dataDir, "tmp"), { recursive: true });
      writeFileSync(join(desk.dataDir, "tmp", "secret.eml"), "Subject: not yours\r\n\r\nsecret");
      const refused = [
        outside,
        relative(desk.dataDir, outside),
        "tmp/secret.eml",
        join(desk.dataDir, "tmp/secret.eml"),
      ];
      for (const path of refused) {
        await setPath(path);
        const answer = await original();
        expect(answer.status).toBe(200);
        expect(answer.headers.get("x-original-content-type")).toBe("text/html; charset=utf-8");
        expect(answer.text).not.toContain("secret");
        const decoded = await desk.api("GET", `/v1/messages/${id}/original?view=text`, { headers: owner.headers });
        expect(decoded.text).not.toContain("secret");
      }
      await desk.deps.blobs.delete(key);
    });

    test("an uploaded CSV waits under imports/<id>.csv in the store, is read by its job and removed when it ends", async () => {
      const { owner } = await createWorkspaceWithOwner(desk);
      const csvForm = (text: string) => {
        const form = new FormData();
        form.set("source", "csv");
        form.set("kind", "contacts");
        form.set("file", new Blob([text], { type: "text/csv" }), "people.csv");
        return form;
      };
      const csv = "email,name\r\nfay@customer.test,Fay\r\n";
      calls.length = 0;
      const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, raw: csvForm(csv) });
      expect(started.status).toBe(202);
      const key = `imports/${started.body.id}.csv`;
      // The job may start at once: only the upload's own call is certain by now.
      expect(calls[0]).toBe(`put ${key}`);
      expect((await runImportToEnd(desk, owner, started.body.id)).status).toBe("succeeded");
      expect(calls.filter((c) => c.includes(" imports/"))).toEqual([`put ${key}`, `get ${key}`, `delete ${key}`]);
      expect(files.entries(desk, "imports")).toEqual([]);

      // An import that cannot start (one of the same account still runs) leaves no file behind.
      const running = async (status: string) =>
        await execute(desk.deps.db, sql`UPDATE imports SET status = ${status} WHERE id = ${started.body.id}`);
      await running("running");
      calls.length = 0;
      const refused = await desk.api("POST", "/v1/imports", { headers: owner.headers, raw: csvForm(csv) });
      await running("succeeded");
      expect(refused.status).toBe(409);
      expect(calls).toHaveLength(2);
      expect(calls[0]).toMatch(/^put imports\/[^/]+\.csv$/);
      expect(calls[1]).toBe(`delete ${calls[0]!.slice(4)}`);
      expect(files.entries(desk, "imports")).toEqual([]);
    });

    test("Desk's own mail without a relay is written to outbox/ in the desk's store", async () => {
      const { owner } = await createWorkspaceWithOwner(desk);
      calls.length = 0;
      const invited = await desk.api("POST", "/v1/invitations", {
        headers: owner.headers,
        body: { email: "gil@team.test", role: "agent" },
      });
      expect(invited.status).toBe(201);
      const forgot = await desk.api("POST", "/v1/auth/password/forgot", { body: { email: owner.email } });
      expect(forgot.status).toBe(202);
      await desk.jobs.drain();
      const written = calls.filter((c) => c.startsWith("put outbox/")).map((c) => c.slice(4));
      const mails = written.map((key) => files.stored(desk, key) ?? "");
      expect(mails.filter((m) => m.includes("To: gil@team.test"))).toHaveLength(1);
      expect(mails.filter((m) => m.includes(`To: ${owner.email}`))).toHaveLength(1);
    });

    test("a purge removes one workspace's attachment files and original mail through the store, no other's", async () => {
      const other = await createWorkspaceWithOwner(desk);
      const form = new FormData();
      form.append("file", new File(["theirs"], "theirs.txt", { type: "text/plain" }));
      const theirs = await desk.api("POST", "/v1/attachments", { headers: other.owner.headers, raw: form });
      await desk.deps.blobs.put(`mail/${other.workspace.id}/2026-11/kept.eml`, new TextEncoder().encode("kept"));
      const ours = files.entries(desk, "attachments").filter((id) => id !== theirs.body.id);
      expect(ours.length).toBeGreaterThan(0);
      calls.length = 0;

      expect(await removeAttachmentFilesOf(desk.deps, workspace.id)).toBe(ours.length);
      expect(await removeWorkspaceMail(desk.deps, workspace.id)).toBe(1);
      expect(calls).toContain(`list mail/${workspace.id}/`);
      expect(calls.filter((c) => c.startsWith("delete ")).length).toBe(ours.length + 1);
      expect(files.entries(desk, "attachments")).toEqual([theirs.body.id]);
      expect(files.entries(desk, "mail")).toEqual([other.workspace.id]);
    });

    if (files === s3Files)
      test("with DESK_FILES_URL nothing of the store is written in the data dir; it names its files by s3:// URL", async () => {
        for (const area of ["attachments", "images", "mail", "outbox", "imports"])
          expect(existsSync(join(desk.dataDir, area))).toBe(false);
        expect(desk.deps.blobs.describe("attachments/x")).toBe(`s3://${BUCKET}/${S3_PREFIX}/attachments/x`);
      });
  });
