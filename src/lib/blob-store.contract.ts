import { describe, expect, test } from "bun:test";
import { BlobKeyError, type BlobStore, checkBlobKey } from "./blob-store";

/**
 * What every BlobStore does, whatever keeps the files: the local store's tests and the S3 store's
 * run it (`blobStoreContract`), and each adds what only it can show (paths and modes on disk,
 * objects in the bucket). Not a test file itself: it only registers tests when a test file calls it.
 */
export type BlobStoreSubject = {
  /** A fresh, empty store. */
  fresh(): BlobStore | Promise<BlobStore>;
  /** Nothing half-written is left anywhere after the writes so far (the local store's tmp/). */
  nothingLeftBehind?(store: BlobStore): void | Promise<void>;
  /** Nothing at all is stored beside what the test put (hostile keys touched nothing). */
  storedKeys(store: BlobStore): string[] | Promise<string[]>;
};

export const bytes = (text: string) => new TextEncoder().encode(text);

export const collect = async (keys: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const key of keys) out.push(key);
  return out.sort();
};

/** A stream that sends `first`, then waits for `release()` before sending `rest` (or failing). */
export function pausedStream(first: Uint8Array, rest: Uint8Array | Error) {
  let release = () => {};
  const gate = new Promise<void>((done) => {
    release = done;
  });
  let sentFirst = false;
  let reachedGate = () => {};
  const atGate = new Promise<void>((done) => {
    reachedGate = done;
  });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentFirst) {
        sentFirst = true;
        controller.enqueue(first);
        return;
      }
      reachedGate();
      await gate;
      if (rest instanceof Error) controller.error(rest);
      else {
        controller.enqueue(rest);
        controller.close();
      }
    },
  });
  return { stream, release, atGate };
}

/** Keys no store may take, whoever built them. */
export const HOSTILE_KEYS = [
  "",
  "attachments",
  "desk.db",
  "secret.key",
  "../escape",
  "attachments/../secret.key",
  "attachments/../../etc/passwd",
  "/etc/passwd",
  "attachments//x",
  "attachments/x/",
  "attachments/./x",
  "attachments/.hidden",
  "attachments/a\0b",
  "attachments\\..\\secret.key",
  "attachments/a b",
  "attachments/a\nb",
  "tmp/x",
  "snapshots/pre-migrate-1.db",
  "backups/desk.tar.gz",
  "cache/libvips.so",
  `attachments/${"a".repeat(300)}`,
  `${"a/".repeat(600)}a`,
];

/** Registers the contract's tests for one kind of store. */
export function blobStoreContract(name: string, subject: BlobStoreSubject): void {
  describe(`${name}: the BlobStore contract`, () => {
    readsAndWrites(subject);
    safeWrites(subject);
  });
}

/** What a store answers: round trips, sizes and ranges, missing keys. */
function readsAndWrites(subject: BlobStoreSubject): void {
  test("put, get, has and delete round trip bytes, blobs and streams", async () => {
    const store = await subject.fresh();
    await store.put("attachments/a1", bytes("one"));
    await store.put("images/img_x-256.png", new Blob([bytes("two")]), { contentType: "image/png" });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes("thr"));
        controller.enqueue(bytes("ee"));
        controller.close();
      },
    });
    await store.put("mail/ws1/2026-11/m1.eml", stream);

    expect(await (await store.get("attachments/a1"))!.text()).toBe("one");
    expect(await (await store.get("images/img_x-256.png"))!.text()).toBe("two");
    expect(await (await store.get("mail/ws1/2026-11/m1.eml"))!.text()).toBe("three");

    expect(await store.has("attachments/a1")).toBe(true);
    await store.delete("attachments/a1");
    expect(await store.has("attachments/a1")).toBe(false);
    expect(await store.get("attachments/a1")).toBeNull();
    expect(await store.has("images/img_x-256.png")).toBe(true);
    await subject.nothingLeftBehind?.(store);
  });

  test("a stored file is a Blob of its size whose slices are ranges of it", async () => {
    const store = await subject.fresh();
    const text = Array.from({ length: 5000 }, (_, i) => String(i % 10)).join("");
    await store.put("attachments/ranged", bytes(text));
    const file = (await store.get("attachments/ranged"))!;
    expect(file).toBeInstanceOf(Blob);
    expect(file.size).toBe(5000);
    expect(await file.slice(1000, 1010).text()).toBe(text.slice(1000, 1010));
    expect(await file.slice(4990).text()).toBe(text.slice(4990));
    expect(await file.slice(-3).text()).toBe(text.slice(-3));
    expect(await new Response(file.stream()).text()).toBe(text);
  });

  test("a missing key answers null and false; deleting it is no error", async () => {
    const store = await subject.fresh();
    expect(await store.get("attachments/nothing")).toBeNull();
    expect(await store.has("attachments/nothing")).toBe(false);
    await store.delete("attachments/nothing");
    await store.put("mail/ws/2026-11/a.eml", bytes("x"));
    // A folder is not a file.
    expect(await store.get("mail/ws")).toBeNull();
    expect(await store.has("mail/ws/2026-11")).toBe(false);
  });
}

/** What a store refuses or survives: torn writes, failed streams, hostile keys; and its listing. */
function safeWrites(subject: BlobStoreSubject): void {
  test("an overwrite is atomic: while it is being written, readers see the whole old file", async () => {
    const store = await subject.fresh();
    const old = "old ".repeat(50_000);
    await store.put("attachments/f", bytes(old));
    const { stream, release, atGate } = pausedStream(bytes("new ".repeat(50_000)), bytes("end"));
    const writing = store.put("attachments/f", stream);
    await atGate;
    await Bun.sleep(20);
    expect(await (await store.get("attachments/f"))!.text()).toBe(old);
    release();
    await writing;
    expect(await (await store.get("attachments/f"))!.text()).toBe(`${"new ".repeat(50_000)}end`);
    await subject.nothingLeftBehind?.(store);
  });

  test("a write that fails half-way leaves the old file and no partial one", async () => {
    const store = await subject.fresh();
    await store.put("attachments/g", bytes("kept"));
    const { stream, release } = pausedStream(bytes("half"), new Error("peer went away"));
    const writing = store.put("attachments/g", stream);
    release();
    await expect(writing).rejects.toThrow("peer went away");
    expect(await (await store.get("attachments/g"))!.text()).toBe("kept");
    await subject.nothingLeftBehind?.(store);
  });

  test("hostile keys are refused by every method, and nothing is stored for them", async () => {
    const store = await subject.fresh();
    for (const key of HOSTILE_KEYS) {
      expect(() => checkBlobKey(key)).toThrow(BlobKeyError);
      await expect(store.put(key, bytes("x"))).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.has(key)).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(BlobKeyError);
      expect(() => store.describe(key)).toThrow(BlobKeyError);
    }
    expect(() => store.list("../")).toThrow(BlobKeyError);
    expect(() => store.list("")).toThrow(BlobKeyError);
    expect(() => store.list("tmp/")).toThrow(BlobKeyError);
    expect(await subject.storedKeys(store)).toEqual([]);
    for (const key of ["attachments/0190a7c2-5e1b-7cde-8f00-112233445566", "outbox/2026-11-28T21-38-35-123Z-a@b.c.eml"])
      expect(checkBlobKey(key)).toBe(key);
  });

  test("list answers the keys under a prefix; a file put again after a purge is found again", async () => {
    const store = await subject.fresh();
    await store.put("mail/ws1/2026-10/a.eml", bytes("a"));
    await store.put("mail/ws1/2026-11/b.eml", bytes("b"));
    await store.put("mail/ws2/2026-11/c.eml", bytes("c"));
    await store.put("mail/ws10/2026-11/d.eml", bytes("d"));
    expect(await collect(store.list("mail/ws1/"))).toEqual(["mail/ws1/2026-10/a.eml", "mail/ws1/2026-11/b.eml"]);
    expect(await collect(store.list("mail/ws1"))).toHaveLength(3);
    expect(await collect(store.list("mail/ws1/2026-11/"))).toEqual(["mail/ws1/2026-11/b.eml"]);
    expect(await collect(store.list("outbox/"))).toEqual([]);
    for await (const key of store.list("mail/ws1/")) await store.delete(key);
    expect(await collect(store.list("mail/"))).toEqual(["mail/ws10/2026-11/d.eml", "mail/ws2/2026-11/c.eml"]);
    await store.put("mail/ws1/2026-11/e.eml", bytes("e"));
    expect(await collect(store.list("mail/ws1/"))).toEqual(["mail/ws1/2026-11/e.eml"]);
    expect(await (await store.get("mail/ws1/2026-11/e.eml"))!.text()).toBe("e");
  });
}
