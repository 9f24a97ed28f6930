import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localBlobStore } from "../lib/blob-store";
import { copyFiles, s3FilesOf } from "./migrate-to.files";

const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "desk-migrate-files-")));
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("every area's files are copied key for key, and a second run copies nothing again", async () => {
  const from = localBlobStore(dirs[0] ?? "");
  const to = localBlobStore(dirs[1] ?? "");
  await from.put("attachments/a1", new TextEncoder().encode("quarterly numbers"));
  await from.put("mail/w1/2026-01/m1.eml", new TextEncoder().encode("Subject: raw\r\n\r\nkept"));
  await from.put("images/u1-256.png", new Uint8Array([1, 2, 3]));
  const lines: string[] = [];
  expect(await copyFiles(from, to, (line) => lines.push(line))).toEqual({ files: 3, bytes: 17 + 20 + 3 });
  expect(await (await to.get("attachments/a1"))?.text()).toBe("quarterly numbers");
  expect(await (await to.get("mail/w1/2026-01/m1.eml"))?.text()).toBe("Subject: raw\r\n\r\nkept");
  expect(lines).toEqual(["files attachments/: 1", "files images/: 1", "files mail/: 1"]);
  expect(await copyFiles(from, to)).toEqual({ files: 3, bytes: 40 });
});

test("the bucket is read from the command's environment as the configuration reads it", () => {
  expect(s3FilesOf({})).toBeNull();
  expect(s3FilesOf({ DESK_FILES_URL: "s3://desk-files/prod", DESK_S3_ENDPOINT: "https://s3.example.com" })).toEqual({
    url: "s3://desk-files/prod",
    endpoint: "https://s3.example.com",
    region: null,
    accessKeyId: null,
    secretAccessKey: null,
  });
});
