/**
 * A small S3-compatible server for tests, on 127.0.0.1 (Bun.serve), written from the S3 API
 * reference: path-style addressing (`/<bucket>/<key>`), PutObject, GetObject (with Range),
 * HeadObject, DeleteObject, ListObjectsV2 (prefix, delimiter, continuation-token, start-after,
 * max-keys) and the multipart upload calls a streamed write uses (CreateMultipartUpload, UploadPart,
 * CompleteMultipartUpload, AbortMultipartUpload). Buckets exist as soon as they are named.
 *
 * It accepts ANY signature (and none): it checks no credentials at all, so it proves what Desk asks
 * of the storage, not that its requests are signed right (Bun's client signs them).
 *
 * An object is stored only once its whole body arrived (a PUT, or a completed multipart upload), as
 * S3 does: a reader sees the old object or the new one, never part of it.
 */

type StoredObject = { body: Uint8Array<ArrayBuffer>; type: string; etag: string; lastModified: Date };
type Upload = { bucket: string; key: string; type: string; parts: Map<number, Uint8Array<ArrayBuffer>> };

export type FakeS3 = {
  /** The endpoint (`http://127.0.0.1:<port>`), for DESK_S3_ENDPOINT or `Bun.S3Client({ endpoint })`. */
  url: string;
  /** The bucket's keys, sorted as S3 lists them. */
  keys(bucket: string): string[];
  /** One object's bytes, or null: what is really stored, read around the client under test. */
  object(bucket: string, key: string): Uint8Array | null;
  /** The requests served, as `METHOD /path?query` (a test may count round trips or look for a Range). */
  requests: { method: string; path: string; range: string | null }[];
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads(): number;
  stop(): Promise<void>;
};

const xmlEscape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const xml = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, {
    status,
    headers: { "content-type": "application/xml", ...headers },
  });

const s3Error = (status: number, code: string, message: string, resource = "") =>
  xml(
    status,
    `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource></Error>`,
  );

const md5Hex = (bytes: Uint8Array) => new Bun.CryptoHasher("md5").update(bytes).digest("hex");

/** Byte order, as S3 lists keys (UTF-8 binary order); JavaScript's default sort is UTF-16 order. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` → [start, end] inclusive; null: not satisfiable; undefined: no (usable) range. */
function parseRange(header: string | null, size: number): [number, number] | null | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return null;
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return null;
  return [start, end];
}

/**
 * The body of a request as sent. A client sending `aws-chunked` (streaming SigV4) frames its chunks
 * as `<hex size>;chunk-signature=…\r\n<data>\r\n`: unframed here, signatures unread.
 */
async function bodyOf(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const raw = new Uint8Array(await request.arrayBuffer());
  const sha = request.headers.get("x-amz-content-sha256") ?? "";
  if (!sha.startsWith("STREAMING-")) return raw;
  const out: Uint8Array<ArrayBuffer>[] = [];
  let at = 0;
  const text = new TextDecoder("latin1");
  while (at < raw.length) {
    const lineEnd = raw.indexOf(0x0a, at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(text.decode(raw.subarray(at, lineEnd)).split(";")[0]!.trim(), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(raw.subarray(lineEnd + 1, lineEnd + 1 + size));
    at = lineEnd + 1 + size + 2;
  }
  return Buffer.concat(out);
}

function listObjectsV2(bucketName: string, objects: Map<string, StoredObject>, query: URLSearchParams): Response {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const maxKeys = Math.max(0, Math.min(1000, Number(query.get("max-keys") ?? 1000) || 0));
  const token = query.get("continuation-token");
  const startAfter = query.get("start-after") ?? "";
  // The token is opaque to clients: here, the last key (or common prefix) of the previous page.
  const after = token !== null ? Buffer.from(token, "base64url").toString() : startAfter;
  const entries: { key: string; common: boolean }[] = [];
  const commons = new Set<string>();
  for (const key of [...objects.keys()].sort(byteOrder)) {
    if (!key.startsWith(prefix)) continue;
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    if (cut >= 0) {
      const common = key.slice(0, cut + delimiter.length);
      if (!commons.has(common)) {
        commons.add(common);
        entries.push({ key: common, common: true });
      }
    } else entries.push({ key, common: false });
  }
  const pending = entries.filter((entry) => byteOrder(entry.key, after) > 0);
  const page = pending.slice(0, maxKeys);
  const truncated = pending.length > page.length;
  const contents = page
    .filter((entry) => !entry.common)
    .map((entry) => {
      const object = objects.get(entry.key)!;
      return `<Contents><Key>${xmlEscape(entry.key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>&quot;${object.etag}&quot;</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    })
    .join("");
  const prefixes = page
    .filter((entry) => entry.common)
    .map((entry) => `<CommonPrefixes><Prefix>${xmlEscape(entry.key)}</Prefix></CommonPrefixes>`)
    .join("");
  const next =
    truncated && page.length > 0
      ? `<NextContinuationToken>${Buffer.from(page.at(-1)!.key).toString("base64url")}</NextContinuationToken>`
      : "";
  return xml(
    200,
    `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucketName)}</Name><Prefix>${xmlEscape(prefix)}</Prefix>${delimiter ? `<Delimiter>${xmlEscape(delimiter)}</Delimiter>` : ""}<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token !== null ? `<ContinuationToken>${xmlEscape(token)}</ContinuationToken>` : ""}${next}${contents}${prefixes}</ListBucketResult>`,
  );
}

/** Starts the server on a free port of 127.0.0.1 (`unref`: it keeps no process alive). */
export function startFakeS3(options: { unref?: boolean } = {}): FakeS3 {
  const buckets = new Map<string, Map<string, StoredObject>>();
  const uploads = new Map<string, Upload>();
  const requests: FakeS3["requests"] = [];
  const bucketOf = (name: string) => {
    const bucket = buckets.get(name) ?? new Map<string, StoredObject>();
    buckets.set(name, bucket);
    return bucket;
  };
  const store = (bucket: string, key: string, body: Uint8Array<ArrayBuffer>, type: string) => {
    const etag = md5Hex(body);
    bucketOf(bucket).set(key, { body, type, etag, lastModified: new Date() });
    return etag;
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const range = request.headers.get("range");
      requests.push({ method: request.method, path: `${url.pathname}${url.search}`, range });
      // Path-style: /<bucket>/<key…>; the key is sent percent-encoded (each segment).
      const slash = url.pathname.indexOf("/", 1);
      const bucketName = decodeURIComponent(slash < 0 ? url.pathname.slice(1) : url.pathname.slice(1, slash));
      const key = slash < 0 ? "" : decodeURIComponent(url.pathname.slice(slash + 1));
      const query = url.searchParams;
      if (!bucketName) return s3Error(400, "InvalidRequest", "path-style addressing only: /<bucket>/<key>");
      const objects = bucketOf(bucketName);

      if (key === "") {
        if (request.method === "GET" && query.get("list-type") === "2")
          return listObjectsV2(bucketName, objects, query);
        if (request.method === "HEAD") return new Response(null, { status: 200 });
        return s3Error(501, "NotImplemented", `${request.method} on a bucket`, url.pathname);
      }

      const uploadId = query.get("uploadId");
      switch (request.method) {
        case "PUT": {
          const body = await bodyOf(request);
          if (uploadId !== null) {
            const upload = uploads.get(uploadId);
            if (!upload) return s3Error(404, "NoSuchUpload", "The specified upload does not exist.", url.pathname);
            upload.parts.set(Number(query.get("partNumber")), body);
            return new Response(null, { status: 200, headers: { etag: `"${md5Hex(body)}"` } });
          }
          const etag = store(bucketName, key, body, request.headers.get("content-type") ?? "application/octet-stream");
          return new Response(null, { status: 200, headers: { etag: `"${etag}"` } });
        }
        case "POST": {
          if (query.has("uploads")) {
            const id = crypto.randomUUID();
            uploads.set(id, {
              bucket: bucketName,
              key,
              type: request.headers.get("content-type") ?? "application/octet-stream",
              parts: new Map(),
            });
            return xml(
              200,
              `<InitiateMultipartUploadResult><Bucket>${xmlEscape(bucketName)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
            );
          }
          if (uploadId !== null) {
            const upload = uploads.get(uploadId);
            if (!upload) return s3Error(404, "NoSuchUpload", "The specified upload does not exist.", url.pathname);
            const listed = [...(await request.text()).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) =>
              Number(m[1]),
            );
            if (listed.some((n) => !upload.parts.has(n)))
              return s3Error(400, "InvalidPart", "One or more of the specified parts could not be found.");
            const etag = store(
              upload.bucket,
              upload.key,
              Buffer.concat(listed.map((n) => upload.parts.get(n)!)),
              upload.type,
            );
            uploads.delete(uploadId);
            return xml(
              200,
              `<CompleteMultipartUploadResult><Bucket>${xmlEscape(bucketName)}</Bucket><Key>${xmlEscape(key)}</Key><ETag>&quot;${etag}&quot;</ETag></CompleteMultipartUploadResult>`,
            );
          }
          return s3Error(501, "NotImplemented", "POST without uploads or uploadId", url.pathname);
        }
        case "DELETE": {
          if (uploadId !== null) uploads.delete(uploadId);
          else objects.delete(key);
          return new Response(null, { status: 204 });
        }
        case "GET":
        case "HEAD": {
          const object = objects.get(key);
          const head = request.method === "HEAD";
          if (!object)
            return head
              ? new Response(null, { status: 404 })
              : s3Error(404, "NoSuchKey", "The specified key does not exist.", url.pathname);
          const headers: Record<string, string> = {
            "content-type": object.type,
            etag: `"${object.etag}"`,
            "last-modified": object.lastModified.toUTCString(),
            "accept-ranges": "bytes",
          };
          const size = object.body.length;
          const wanted = parseRange(range, size);
          if (wanted === null)
            return head
              ? new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } })
              : s3Error(416, "InvalidRange", "The requested range is not satisfiable.", url.pathname);
          const [start, end] = wanted ?? [0, size - 1];
          const body = object.body.subarray(start, end + 1);
          if (wanted) headers["content-range"] = `bytes ${start}-${end}/${size}`;
          headers["content-length"] = String(body.length);
          return new Response(head ? null : body, { status: wanted ? 206 : 200, headers });
        }
        default:
          return s3Error(405, "MethodNotAllowed", `${request.method} is not allowed.`, url.pathname);
      }
    },
  });

  if (options.unref) server.unref();
  return {
    url: `http://127.0.0.1:${server.port}`,
    keys: (bucket) => [...bucketOf(bucket).keys()].sort(byteOrder),
    object: (bucket, key) => bucketOf(bucket).get(key)?.body ?? null,
    requests,
    openUploads: () => uploads.size,
    stop: () => server.stop(true),
  };
}

/** Credentials the fake never checks, so a client under test has some to sign with. */
export const FAKE_S3_CREDENTIALS = { accessKeyId: "desk-test", secretAccessKey: "desk-test-secret" } as const;

/**
 * The environment of a test desk keeping its files in `bucket` under `prefix` on the fake (for
 * `startTestDesk({ env })`).
 */
export const fakeS3DeskEnv = (fake: FakeS3, bucket: string, prefix: string): Record<string, string> => ({
  DESK_FILES_URL: `s3://${bucket}/${prefix}`,
  DESK_S3_ENDPOINT: fake.url,
  DESK_S3_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: FAKE_S3_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: FAKE_S3_CREDENTIALS.secretAccessKey,
});

/**
 * For the harness (not wired yet, see the report): a test process run with DESK_TEST_FILES=s3 gives
 * each test desk its own prefix on one fake server for the process, so any test file can run with
 * its files in S3. Empty otherwise.
 */
export const onFakeS3 = process.env.DESK_TEST_FILES === "s3";
let processFake: FakeS3 | null = null;
export function testDeskFilesEnv(): Record<string, string> {
  if (!onFakeS3) return {};
  processFake ??= startFakeS3({ unref: true });
  return fakeS3DeskEnv(processFake, "desk-test", `desk-${crypto.randomUUID()}`);
}
