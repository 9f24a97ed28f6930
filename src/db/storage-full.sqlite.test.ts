import { afterAll, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";

// A real full file system: a small tmpfs (we run as root in CI). Where mounting is not permitted
// the tests are skipped, saying why, rather than faked.
const mountPoint = mkdtempSync(join(tmpdir(), "desk-full-"));
const mount = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mountPoint], { stderr: "pipe" });
const mounted = mount.exitCode === 0;
if (!mounted)
  console.warn(
    `storage-full tests skipped: cannot mount a tmpfs (${mount.stderr.toString().trim() || "mount failed"}); run as root`,
  );

let desk: TestDesk | null = null;
afterAll(async () => {
  await desk?.stop().catch(() => {});
  if (mounted) Bun.spawnSync(["umount", "-l", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system with one file until ENOSPC, big chunks then small ones. */
function fill(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1 << 20, 1 << 14, 1 << 10, 64]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

test.skipIf(!mounted)(
  "a full disk answers 507 storage_full and turns /readyz red; both recover once space is freed",
  async () => {
    const dataDir = join(mountPoint, "data");
    mkdirSync(dataDir);
    desk = await startTestDesk({ env: { DESK_DATA_DIR: dataDir }, keepAlive: true });
    const { owner } = await createWorkspaceWithOwner(desk);
    const create = (i: number) =>
      desk!.api("POST", "/v1/tickets", {
        headers: owner.headers,
        body: { subject: `Full ${i}`, contact: { email: "full@example.com" }, body_text: `${i} `.repeat(40_000) },
      });
    expect((await create(0)).status).toBe(201);
    expect((await desk.api("GET", "/readyz")).status).toBe(200);

    // Checkpointed, the WAL's frames are reused from its start by the next commits without growing it.
    desk.deps.db.$client.exec("PRAGMA wal_checkpoint(PASSIVE)");
    const filler = join(mountPoint, "filler");
    fill(filler);
    // Before any write fails: the probe alone could still fit in the WAL, the free space says otherwise.
    const early = await desk.api("GET", "/readyz");
    expect(early.status).toBe(503);
    expect(early.body.checks.database.detail).toContain("free");
    // Small commits may still fit in WAL frames allocated earlier: the first write that needs new space fails.
    let refused = null;
    for (let i = 1; i <= 40 && !refused; i++) {
      const res = await create(i);
      if (res.status !== 201) refused = res;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body).toEqual({
      status: 507,
      code: "storage_full",
      detail: expect.stringContaining("storage is full"),
    });
    const red = await desk.api("GET", "/readyz");
    expect(red.status).toBe(503);
    expect(red.body.checks.database.ok).toBe(false);

    const form = new FormData();
    form.append("file", new File([Buffer.alloc(2 << 20, 1)], "big.bin", { type: "application/octet-stream" }));
    const upload = await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: form });
    expect(upload.status).toBe(507);
    expect(upload.body.code).toBe("storage_full");

    rmSync(filler);
    expect((await create(100)).status).toBe(201);
    const green = await desk.api("GET", "/readyz");
    expect(green.body.checks.database).toEqual({ ok: true });
    expect(green.status).toBe(200);
  },
  60_000,
);

test.skipIf(!mounted)(
  "serve on a read-only data dir refuses to start with one clear line on stderr and exit 1",
  async () => {
    const readOnly = join(mountPoint, "ro");
    mkdirSync(readOnly);
    writeFileSync(join(readOnly, "desk.db"), "");
    const bind = Bun.spawnSync(["mount", "--bind", "-o", "ro", readOnly, readOnly], { stderr: "pipe" });
    expect(bind.exitCode).toBe(0);
    try {
      for (const dataDir of [readOnly, join(readOnly, "absent")]) {
        const run = Bun.spawn(["bun", join(import.meta.dir, "..", "main.ts"), "serve"], {
          env: {
            PATH: process.env.PATH ?? "/usr/bin:/bin",
            DESK_DATA_DIR: dataDir,
            DESK_HOST: "127.0.0.1",
            DESK_PORT: "0",
            DESK_SMTP_PORT: "0",
            DESK_SECRET: "test-secret-that-is-long-enough-0123456789",
            DESK_INBOUND_SECRET: "test-inbound-secret",
            DESK_LOG_LEVEL: "silent",
          },
          stdout: "pipe",
          stderr: "pipe",
        });
        const timer = setTimeout(() => run.kill("SIGKILL"), 30_000);
        const [err, code] = await Promise.all([new Response(run.stderr).text(), run.exited]);
        clearTimeout(timer);
        expect(code).toBe(1);
        const lines = err.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toStartWith(`desk: refusing to start: the data dir ${dataDir} is not writable (EROFS)`);
      }
    } finally {
      Bun.spawnSync(["umount", readOnly]);
    }
  },
  60_000,
);
