import { afterAll, describe, expect, test } from "bun:test";
import { FAKE_S3_CREDENTIALS, startFakeS3 } from "../../test/kit/s3";
import { blobStoreOf, parseFilesUrl, s3BlobStore } from "./blob-store";
import { blobStoreContract, bytes, collect } from "./blob-store.contract";

const fake = startFakeS3();
afterAll(() => fake.stop());

const BUCKET = "desk-files";
let stores = 0;
/** Each store its own prefix in one bucket, as desks sharing a bucket would have. */
const filesConfig = (prefix = `desk-${++stores}`) => ({
  url: `s3://${BUCKET}/${prefix}`,
  endpoint: fake.url,
  region: "us-east-1",
  ...FAKE_S3_CREDENTIALS,
});
const prefixOf = new WeakMap<object, string>();
function freshStore(options: { listPage?: number } = {}) {
  const config = filesConfig();
  const store = s3BlobStore(config, options);
  prefixOf.set(store, `${parseFilesUrl(config.url).prefix}`);
  return store;
}
/** The objects really in the bucket under a store's prefix, read around the client. */
const objectsOf = (store: object) => fake.keys(BUCKET).filter((key) => key.startsWith(prefixOf.get(store)!));

blobStoreContract("S3 blob store", {
  fresh: () => freshStore(),
  // A streamed write that failed left no multipart upload open (nothing billed, nothing half-made).
  nothingLeftBehind: () => expect(fake.openUploads()).toBe(0),
  storedKeys: objectsOf,
});

describe("S3 blob store", () => {
  test("each key is one object at prefix + key, with its content type; describe names its s3:// URL", async () => {
    const store = freshStore();
    const prefix = prefixOf.get(store)!;
    await store.put("attachments/a1", bytes("one"), { contentType: "text/plain" });
    await store.put("images/img_x-64.png", new Blob([bytes("png")]), { contentType: "image/png" });
    expect(objectsOf(store)).toEqual([`${prefix}attachments/a1`, `${prefix}images/img_x-64.png`]);
    expect(new TextDecoder().decode(fake.object(BUCKET, `${prefix}attachments/a1`)!)).toBe("one");
    expect((await store.get("images/img_x-64.png"))!.type).toBe("image/png");
    expect(store.describe("attachments/a1")).toBe(`s3://${BUCKET}/${prefix}attachments/a1`);
    // A missing object is found so without reading any body, and deleting it asks S3 once.
    const before = fake.requests.length;
    expect(await store.has("attachments/none")).toBe(false);
    expect(fake.requests.slice(before).map((r) => r.method)).toEqual(["HEAD"]);
  });

  test("DESK_FILES_URL: bucket and prefix, with or without slashes; blobStoreOf picks S3 only when set", () => {
    expect(parseFilesUrl("s3://bucket")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseFilesUrl("s3://bucket/")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseFilesUrl("s3://bucket/desk")).toEqual({ bucket: "bucket", prefix: "desk/" });
    expect(parseFilesUrl("s3://bucket/a/b/")).toEqual({ bucket: "bucket", prefix: "a/b/" });
    expect(() => parseFilesUrl("https://bucket/x")).toThrow("DESK_FILES_URL");
    const s3 = blobStoreOf({ dataDir: "/nowhere", files: filesConfig("chosen") });
    expect(s3.describe("attachments/x")).toBe(`s3://${BUCKET}/chosen/attachments/x`);
    expect(blobStoreOf({ dataDir: "/nowhere", files: null }).describe("attachments/x")).toBe("/nowhere/attachments/x");
  });

  test("the bucket's root as the prefix: keys are the object names", async () => {
    const bucket = "desk-root";
    const store = s3BlobStore({ ...filesConfig(), url: `s3://${bucket}` });
    await store.put("mail/ws/2026-11/a.eml", bytes("a"));
    expect(fake.keys(bucket)).toEqual(["mail/ws/2026-11/a.eml"]);
    expect(await collect(store.list("mail/"))).toEqual(["mail/ws/2026-11/a.eml"]);
  });

  test("list pages through the bucket (continuation tokens) and answers only its own blobs", async () => {
    const store = freshStore({ listPage: 7 });
    const prefix = prefixOf.get(store)!;
    const keys = Array.from({ length: 40 }, (_, i) => `mail/ws1/2026-11/${String(i).padStart(3, "0")}.eml`);
    await Promise.all(keys.map((key) => store.put(key, bytes(key))));
    // Another desk's objects beside it, and an object of no key's shape under its prefix.
    const neighbour = freshStore();
    await neighbour.put("mail/ws1/2026-11/theirs.eml", bytes("theirs"));
    const client = new Bun.S3Client({ bucket: BUCKET, endpoint: fake.url, ...FAKE_S3_CREDENTIALS });
    await client.write(`${prefix}mail/ws1/2026-11/.partial`, "x");
    const before = fake.requests.length;
    expect(await collect(store.list("mail/ws1/"))).toEqual(keys);
    const lists = fake.requests.slice(before).filter((r) => r.path.includes("list-type=2"));
    expect(lists.length).toBe(Math.ceil(41 / 7));
    expect(lists.slice(1).every((r) => r.path.includes("continuation-token="))).toBe(true);
    // A purge through list and delete removes this desk's files only.
    for await (const key of store.list("mail/ws1/")) await store.delete(key);
    expect(objectsOf(store)).toEqual([`${prefix}mail/ws1/2026-11/.partial`]);
    expect(await neighbour.has("mail/ws1/2026-11/theirs.eml")).toBe(true);
  });

  test("a stream larger than a part goes up in parts (one multipart upload) and is stored whole", async () => {
    const store = freshStore();
    const size = 12 * 1024 * 1024 + 5;
    const body = new Uint8Array(size).map((_, i) => i % 251);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close();
        const chunk = body.subarray(sent, sent + 1024 * 1024);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const before = fake.requests.length;
    await store.put("attachments/large", stream, { contentType: "application/octet-stream" });
    const calls = fake.requests
      .slice(before)
      .map((r) => `${r.method} ${r.path.replace(/uploadId=[^&]+/, "uploadId=…")}`);
    expect(calls[0]).toMatch(/^POST .*attachments\/large\?uploads/);
    expect(calls.filter((c) => c.startsWith("PUT ") && c.includes("partNumber=")).length).toBeGreaterThan(1);
    expect(calls.at(-1)).toMatch(/^POST .*attachments\/large\?uploadId=…/);
    expect(fake.object(BUCKET, `${prefixOf.get(store)}attachments/large`)).toEqual(body);
    expect(fake.openUploads()).toBe(0);
    const file = (await store.get("attachments/large"))!;
    expect(file.size).toBe(size);
    expect(new Uint8Array(await file.slice(size - 10).arrayBuffer())).toEqual(body.subarray(size - 10));
  });
});
