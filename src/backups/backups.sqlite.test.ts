import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";

// The operator's commands run as their own processes, against the data dir of a Desk that is serving.
const desk = await startTestDesk();
const MAIN = join(import.meta.dir, "..", "main.ts");
const { workspace, owner } = await createWorkspaceWithOwner(desk);

function cliEnv(dataDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    DESK_DATA_DIR: dataDir,
    DESK_SECRET: desk.deps.config.secret,
    DESK_INBOUND_SECRET: "test-inbound-secret",
    DESK_LOG_LEVEL: "silent",
  };
}

async function deskCli(args: string[], dataDir = desk.dataDir) {
  const run = Bun.spawn(["bun", MAIN, ...args], { env: cliEnv(dataDir), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  return { code, out, err };
}

const scratch = () => mkdtempSync(join(tmpdir(), "desk-backup-test-"));

async function createTicket(subject: string) {
  const created = await desk.api("POST", "/v1/tickets", {
    headers: owner.headers,
    body: { subject, contact: { email: "backup@example.com" } },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

// One archive, taken while tickets are being created, shared by the tests below.
const form = new FormData();
form.append("file", new File(["quarterly numbers"], "report.txt", { type: "text/plain" }));
const upload = await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: form });
const rawMail = join("mail", workspace.id, "2026-01", "original.eml");
mkdirSync(join(desk.dataDir, "mail", workspace.id, "2026-01"), { recursive: true });
writeFileSync(join(desk.dataDir, rawMail), "Subject: raw\r\n\r\nkept as received");
const before = await createTicket("before the backup");
const archive = join(scratch(), "desk-backup.tar.gz");
let writing = true;
let writtenDuring = 0;
const writer = (async () => {
  while (writing) {
    await createTicket(`during ${writtenDuring}`);
    writtenDuring++;
  }
})();
const backup = await deskCli(["backup", archive]);
writing = false;
await writer;

test("desk backup writes one archive with the database, attachments, raw mail and a manifest while Desk keeps writing", async () => {
  expect(upload.status).toBe(201);
  expect(backup.err).toBe("");
  expect(backup.code).toBe(0);
  expect(backup.out).toContain(`wrote ${archive}`);
  expect(writtenDuring).toBeGreaterThan(0);
  expect(statSync(archive).mode & 0o777).toBe(0o600);
  const files = await new Bun.Archive(readFileSync(archive)).files();
  const manifest = JSON.parse(await files.get("manifest.json")!.text());
  expect(manifest.format).toBe(1);
  expect(manifest.desk_version).toMatch(/^\d+\.\d+\.\d+/);
  expect(manifest.migrations).toContain("0000_foundation");
  expect(Date.parse(manifest.created_at)).not.toBeNaN();
  const paths = manifest.files.map((f: { path: string }) => f.path);
  expect(paths).toContain("desk.db");
  expect(paths).toContain(rawMail);
  expect(paths.some((p: string) => p.startsWith("attachments/"))).toBe(true);
  expect(paths).not.toContain("desk.db-wal");
  for (const entry of manifest.files) {
    const bytes = await files.get(entry.path)!.bytes();
    expect(entry.size).toBe(bytes.byteLength);
    expect(entry.sha256).toBe(new Bun.CryptoHasher("sha256").update(bytes).digest("hex"));
  }
  // The copy is one consistent snapshot: the ticket created before it is there.
  const copyPath = join(scratch(), "desk.db");
  writeFileSync(copyPath, await files.get("desk.db")!.bytes());
  const copy = new Database(copyPath, { readonly: true });
  expect(copy.query("SELECT id FROM tickets WHERE id = ?").get(before)).not.toBeNull();
  expect(copy.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
  copy.close();
});

test("desk backup --verify accepts a whole archive", async () => {
  const run = await deskCli(["backup", "--verify", archive]);
  expect(run.code).toBe(0);
  expect(run.out).toContain("ok:");
  expect(run.out).toContain("integrity ok");
});

test("desk backup --verify fails with a clear message on a flipped byte", async () => {
  const bytes = readFileSync(archive);
  bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
  const damaged = join(scratch(), "flipped.tar.gz");
  writeFileSync(damaged, bytes);
  const run = await deskCli(["backup", "--verify", damaged]);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/not a readable backup archive|is damaged/);
});

test("desk backup --verify names the file whose checksum no longer matches the manifest", async () => {
  const files = await new Bun.Archive(readFileSync(archive)).files();
  const contents: Record<string, Uint8Array> = {};
  for (const [path, blob] of files) contents[path] = await blob.bytes();
  contents[rawMail] = new TextEncoder().encode("Subject: raw\r\n\r\nkept as reseived");
  const tampered = join(scratch(), "tampered.tar.gz");
  writeFileSync(tampered, await new Bun.Archive(contents, { compress: "gzip" }).bytes());
  const run = await deskCli(["backup", "--verify", tampered]);
  expect(run.code).toBe(1);
  expect(run.err).toContain(`${rawMail}: checksum mismatch`);
});

test("desk restore into an empty dir gives a Desk that serves the same data", async () => {
  const target = join(scratch(), "restored");
  const run = await deskCli(["restore", archive, "--data-dir", target]);
  expect(run.err).toBe("");
  expect(run.code).toBe(0);
  expect(statSync(target).mode & 0o777).toBe(0o700);
  expect(statSync(join(target, "desk.db")).mode & 0o777).toBe(0o600);
  expect(statSync(join(target, "mail")).mode & 0o777).toBe(0o700);
  expect(statSync(join(target, rawMail)).mode & 0o777).toBe(0o600);
  expect(readFileSync(join(target, rawMail), "utf8")).toBe("Subject: raw\r\n\r\nkept as received");

  const restored = await startTestDesk({ config: { dataDir: target, databasePath: join(target, "desk.db") } });
  const ticket = await restored.api("GET", `/v1/tickets/${before}`, { headers: owner.headers });
  expect(ticket.status).toBe(200);
  expect(ticket.body.subject).toBe("before the backup");
  const url = new URL(upload.body.url, "http://localhost");
  const content = await restored.api("GET", `${url.pathname}${url.search}`);
  expect(content.status).toBe(200);
  expect(content.text).toBe("quarterly numbers");
});

test("desk restore refuses a data dir that is not empty, and changes nothing in it", async () => {
  const target = scratch();
  writeFileSync(join(target, "desk.db"), "live data");
  const run = await deskCli(["restore", archive, "--data-dir", target]);
  expect(run.code).toBe(1);
  expect(run.err).toContain("is not empty");
  expect(readFileSync(join(target, "desk.db"), "utf8")).toBe("live data");
});

test("desk restore refuses a damaged archive", async () => {
  const bytes = readFileSync(archive);
  // A whole byte: a single bit can land in the few bits deflate skips (a stored block's padding to a
  // byte boundary), which leaves the archive whole and the test failing by chance.
  bytes[Math.floor(bytes.length / 3)]! ^= 0xff;
  const damaged = join(scratch(), "damaged.tar.gz");
  writeFileSync(damaged, bytes);
  const target = join(scratch(), "restored");
  const run = await deskCli(["restore", damaged, "--data-dir", target]);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/not a readable backup archive|is damaged/);
});

test("desk restore checks the whole archive in a staging dir first: killed halfway, it leaves no data dir behind", async () => {
  const work = scratch();
  const fifo = join(work, "archive.fifo");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  const target = join(work, "restored");
  const run = Bun.spawn(["bun", MAIN, "restore", fifo, "--data-dir", target], {
    env: cliEnv(target),
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    // Half the archive: the database entry (the first) is partly written, the manifest (the last) not yet read.
    const bytes = readFileSync(archive);
    const fd = openSync(fifo, "w");
    writeSync(fd, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const written = () =>
      readdirSync(work).some((name) => name === "restored" || name.startsWith(".restored.restore-"));
    for (let i = 0; i < 100 && !written(); i++) await Bun.sleep(50);
    expect(readdirSync(work).some((name) => name.startsWith(".restored.restore-"))).toBe(true);
    expect(existsSync(target)).toBe(false);
    run.kill("SIGKILL");
    await run.exited;
    closeSync(fd);
    expect(existsSync(target)).toBe(false);
  } finally {
    run.kill("SIGKILL");
  }
});

test("desk restore refuses an archive from a newer Desk whose migrations this binary does not know", async () => {
  const files = await new Bun.Archive(readFileSync(archive)).files();
  const work = scratch();
  const dbPath = join(work, "desk.db");
  writeFileSync(dbPath, await files.get("desk.db")!.bytes());
  const db = new Database(dbPath);
  db.run("INSERT INTO __desk_migrations (tag, applied_at) VALUES ('9999_from_the_future', '2030-01-01T00:00:00Z')");
  db.close();
  const dbBytes = readFileSync(dbPath);
  const manifest = JSON.parse(await files.get("manifest.json")!.text());
  manifest.migrations.push("9999_from_the_future");
  manifest.desk_version = "9.0.0";
  const entry = manifest.files.find((f: { path: string }) => f.path === "desk.db");
  entry.size = dbBytes.byteLength;
  entry.sha256 = new Bun.CryptoHasher("sha256").update(dbBytes).digest("hex");
  const contents: Record<string, Uint8Array | string> = {};
  for (const [path, blob] of files) contents[path] = await blob.bytes();
  contents["desk.db"] = dbBytes;
  contents["manifest.json"] = JSON.stringify(manifest);
  const newer = join(work, "newer.tar.gz");
  writeFileSync(newer, await new Bun.Archive(contents, { compress: "gzip" }).bytes());

  expect((await deskCli(["backup", "--verify", newer])).code).toBe(0);
  const target = join(work, "restored");
  const run = await deskCli(["restore", newer, "--data-dir", target]);
  expect(run.code).toBe(1);
  expect(run.err).toContain("newer Desk (9.0.0");
  expect(run.err).toContain("9999_from_the_future");
  expect(() => statSync(target)).toThrow();
});

test("archives kept in the data dir's backups/ folder are not copied into the next one", async () => {
  const first = join(desk.dataDir, "backups", "first.tar.gz");
  const second = join(desk.dataDir, "backups", "second.tar.gz");
  expect((await deskCli(["backup", first])).code).toBe(0);
  expect((await deskCli(["backup", second])).code).toBe(0);
  const manifest = JSON.parse(await (await new Bun.Archive(readFileSync(second)).files()).get("manifest.json")!.text());
  expect(manifest.files.map((f: { path: string }) => f.path).filter((p: string) => p.startsWith("backups"))).toEqual(
    [],
  );
});

test("wrong usage exits 2", async () => {
  expect((await deskCli(["backup"])).code).toBe(2);
  expect((await deskCli(["restore"])).code).toBe(2);
  expect((await deskCli(["restore", archive, "--data-dir"])).code).toBe(2);
});
