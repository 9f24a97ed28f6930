import { first, one } from "../db/store";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt, notFound, tooLarge } from "../lib/errors";
import { deriveKey } from "../lib/crypto";
import { newId } from "../lib/ids";
import { attachments, type AttachmentRow } from "./attachments.table";
import { sniffContentType } from "./attachments.sniff";

export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
export const ATTACHMENT_URL_TTL_SECONDS = 5 * 60;

export type AttachmentJson = {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  inline: boolean;
  url: string;
};
type AttachmentDeps = Pick<Deps, "db" | "config" | "clock" | "blobs" | "logger">;

/** An attachment's file in the desk's store (`deps.blobs`): `attachments/<storage key>`. */
export const attachmentKey = (row: Pick<AttachmentRow, "storageKey">): string => `attachments/${row.storageKey}`;

/** Where the local store keeps an attachment's file, for tests looking at the data dir; nothing here reads or writes through it. */
export const attachmentFilePath = (deps: Pick<Deps, "config">, row: Pick<AttachmentRow, "storageKey">): string =>
  join(deps.config.dataDir, attachmentKey(row));

/** An attachment's bytes (a reply's files as it is mailed); a file gone from the store is an error. */
export async function attachmentBytes(
  deps: Pick<Deps, "blobs">,
  row: Pick<AttachmentRow, "id" | "storageKey">,
): Promise<Uint8Array> {
  const file = await deps.blobs.get(attachmentKey(row));
  if (!file) throw new Error(`attachment ${row.id}: its file is missing from the store`);
  return file.bytes();
}

const storageKeysOf = async (deps: Pick<Deps, "db">, workspaceId: string) =>
  await deps.db
    .select({ storageKey: attachments.storageKey })
    .from(attachments)
    .where(eq(attachments.workspaceId, workspaceId));

/** Removes the stored files of a workspace's attachments (its purge, before the rows go); answers how many. */
export async function removeAttachmentFilesOf(deps: Pick<Deps, "db" | "blobs">, workspaceId: string): Promise<number> {
  const keys = (await storageKeysOf(deps, workspaceId)).map(attachmentKey);
  // A few at a time: a workspace may hold hundreds of thousands of files.
  for (let i = 0; i < keys.length; i += 64) await Promise.all(keys.slice(i, i + 64).map((k) => deps.blobs.delete(k)));
  return keys.length;
}

/** A file name safe to store and to put in Content-Disposition: no paths, controls or quotes. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f"<>]/g, "")
    .trim()
    .slice(0, 200);
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "file" : cleaned;
}

/**
 * Stores an upload: the bytes go to the store (`attachments/<id>`) first, then the row; the file is
 * removed again when the row cannot be written. Unattached until a message references it. The local
 * store writes on the fs thread pool, so the event loop (the one SQLite writer) is not held by disk
 * writes while other mail and requests wait.
 */
export async function storeAttachmentAsync(
  ctx: RequestContext,
  input: { filename: string; content_type?: string; bytes: Uint8Array; inline?: boolean; content_id?: string | null },
  deps: AttachmentDeps,
): Promise<AttachmentRow> {
  if (input.bytes.byteLength > MAX_ATTACHMENT_BYTES) throw tooLarge("Attachments may be at most 25 MB.");
  const id = newId();
  const head = input.bytes.subarray(0, 4096);
  await deps.blobs.put(attachmentKey({ storageKey: id }), input.bytes, { contentType: sniffContentType(head) });
  return insertAttachmentRow(
    ctx,
    {
      id,
      filename: input.filename,
      head,
      size: input.bytes.byteLength,
      inline: input.inline,
      contentId: input.content_id,
    },
    deps,
  );
}

/** The HTTP upload: the file streams to disk (never held twice in memory), then the row is written. */
export async function storeUploadedFile(
  ctx: RequestContext,
  file: Blob & { name?: string },
  deps: AttachmentDeps,
): Promise<AttachmentRow> {
  if (file.size > MAX_ATTACHMENT_BYTES) throw tooLarge("Attachments may be at most 25 MB.");
  const id = newId();
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  await deps.blobs.put(attachmentKey({ storageKey: id }), file, { contentType: sniffContentType(head) });
  return insertAttachmentRow(ctx, { id, filename: file.name ?? "file", head, size: file.size }, deps);
}

async function insertAttachmentRow(
  ctx: RequestContext,
  input: { id: string; filename: string; head: Uint8Array; size: number; inline?: boolean; contentId?: string | null },
  deps: AttachmentDeps,
): Promise<AttachmentRow> {
  try {
    return await transact(deps.db, async (tx) =>
      one(
        await tx
          .insert(attachments)
          .values({
            id: input.id,
            workspaceId: ctx.workspaceId,
            messageId: null,
            filename: cleanFilename(input.filename),
            contentType: sniffContentType(input.head),
            sizeBytes: input.size,
            inline: input.inline ?? false,
            contentId: input.contentId ?? null,
            storageKey: input.id,
            uploadedBy: actorUserId(ctx),
            createdAt: deps.clock.now().toISOString(),
          })
          .returning(),
      ),
    );
  } catch (error) {
    await deps.blobs.delete(attachmentKey({ storageKey: input.id }));
    throw error;
  }
}

/**
 * Links unattached uploads of this workspace to a message; any other id answers 422 at `location`.
 * Answers the linked rows in presentation order (created_at, id), as attachmentsOfMessages would.
 */
export async function attachToMessage(
  tx: Tx,
  workspaceId: string,
  messageId: string,
  ids: string[],
  location: string,
): Promise<AttachmentRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const linked = await tx
    .update(attachments)
    .set({ messageId })
    .where(
      and(eq(attachments.workspaceId, workspaceId), inArray(attachments.id, unique), isNull(attachments.messageId)),
    )
    .returning();
  if (linked.length !== unique.length) {
    const found = new Set(linked.map((r) => r.id));
    const bad = unique.findIndex((id) => !found.has(id));
    throw invalidAt(`${location}.${ids.indexOf(unique[bad]!)}`, "Not an unattached upload of this workspace.");
  }
  return linked.sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

export async function attachmentsOfMessages(
  db: Queryable,
  messageIds: string[],
): Promise<Map<string, AttachmentRow[]>> {
  const out = new Map<string, AttachmentRow[]>();
  if (messageIds.length === 0) return out;
  const rows = await db
    .select()
    .from(attachments)
    .where(inArray(attachments.messageId, messageIds))
    .orderBy(attachments.createdAt, attachments.id);
  for (const row of rows) {
    const list = out.get(row.messageId!) ?? [];
    list.push(row);
    out.set(row.messageId!, list);
  }
  return out;
}

export async function findAttachment(db: Queryable, workspaceId: string, id: string): Promise<AttachmentRow> {
  const row = first(
    await db
      .select()
      .from(attachments)
      .where(and(eq(attachments.id, id), eq(attachments.workspaceId, workspaceId)))
      .limit(1),
  );
  if (!row) throw notFound("Attachment");
  return row;
}

/**
 * Signs attachment URLs synchronously (presenters run inside transactions): an HS256 JWT with
 * purpose "attachment", made with the same key as the token service so `tokens.verify` accepts it.
 */
export type AttachmentLinks = { url(row: Pick<AttachmentRow, "id" | "workspaceId">): string };

/** The signing key per secret: HKDF costs more than presenting a message, and the secret never changes. */
const signingKeys = new Map<string, ReturnType<typeof deriveKey>>();

export function attachmentLinks(deps: Pick<Deps, "config" | "clock">): AttachmentLinks {
  let key = signingKeys.get(deps.config.secret);
  if (!key) {
    key = deriveKey(deps.config.secret, "jwt-hs256");
    signingKeys.set(deps.config.secret, key);
  }
  const signingKey = key;
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const header = encode({ alg: "HS256", typ: "JWT" });
  return {
    url(row) {
      const iat = Math.floor(deps.clock.now().getTime() / 1000);
      // Rounded to the minute so one message presents the same URL across a burst of requests.
      const issued = iat - (iat % 60);
      const payload = encode({
        sub: row.id,
        ws: row.workspaceId,
        purpose: "attachment",
        iat: issued,
        exp: issued + ATTACHMENT_URL_TTL_SECONDS + 60,
      });
      const signature = createHmac("sha256", signingKey).update(`${header}.${payload}`).digest("base64url");
      return `${deps.config.baseUrl}/v1/attachments/${row.id}/content?token=${header}.${payload}.${signature}`;
    },
  };
}

export function presentAttachment(row: AttachmentRow, links: AttachmentLinks): AttachmentJson {
  return {
    id: row.id,
    filename: row.filename,
    content_type: row.contentType,
    size_bytes: row.sizeBytes,
    inline: row.inline,
    url: links.url(row),
  };
}

/**
 * Removes the files of rows already deleted. Never rejects (a caller may not wait): a file that
 * could not be removed is logged and stays, as a leftover costs disk only.
 */
async function removeFiles(deps: AttachmentDeps, rows: { storageKey: string }[]): Promise<void> {
  const results = await Promise.allSettled(rows.map((row) => deps.blobs.delete(attachmentKey(row))));
  for (const result of results)
    if (result.status === "rejected")
      deps.logger.warn({ err: String(result.reason) }, "attachments: a removed upload's file could not be deleted");
}

/** Removes uploads stored for something that then did not happen (a mail refused or a duplicate after all). */
export async function discardAttachments(deps: AttachmentDeps, ids: string[]): Promise<void> {
  if (ids.length === 0) return Promise.resolve();
  const removed = await transact(
    deps.db,
    async (tx) =>
      await tx
        .delete(attachments)
        .where(and(inArray(attachments.id, ids), isNull(attachments.messageId)))
        .returning({ storageKey: attachments.storageKey }),
  );
  return removeFiles(deps, removed);
}

/** Removes uploads nobody attached within a day: rows first, then their files. */
export async function removeOrphanAttachments(deps: AttachmentDeps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - 24 * 3600 * 1000).toISOString();
  const removed = await transact(
    deps.db,
    async (tx) =>
      await tx
        .delete(attachments)
        .where(and(isNull(attachments.messageId), lt(attachments.createdAt, cutoff)))
        .returning({ storageKey: attachments.storageKey }),
  );
  await removeFiles(deps, removed);
  return removed.length;
}
