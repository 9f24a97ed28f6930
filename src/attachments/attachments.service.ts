import { createHmac } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { withTx } from "../db/tx";
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
type AttachmentDeps = Pick<Deps, "db" | "config" | "clock">;

export const attachmentsDir = (deps: Pick<Deps, "config">): string => join(deps.config.dataDir, "attachments");
export const attachmentFilePath = (deps: Pick<Deps, "config">, row: Pick<AttachmentRow, "storageKey">): string =>
  join(attachmentsDir(deps), row.storageKey);

/** The stored files of a workspace's attachments (its purge removes them once the rows are gone). */
export function attachmentFilesOf(deps: Pick<Deps, "db" | "config">, workspaceId: string): string[] {
  return deps.db
    .select({ storageKey: attachments.storageKey })
    .from(attachments)
    .where(eq(attachments.workspaceId, workspaceId))
    .all()
    .map((row) => attachmentFilePath(deps, row));
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
 * Stores an upload: the bytes go to <data dir>/attachments/<id> first, then the row; the file is
 * removed again when the row cannot be written. Unattached until a message references it.
 */
export function storeAttachment(
  ctx: RequestContext,
  input: { filename: string; content_type?: string; bytes: Uint8Array; inline?: boolean; content_id?: string | null },
  deps: AttachmentDeps,
): AttachmentRow {
  if (input.bytes.byteLength > MAX_ATTACHMENT_BYTES) throw tooLarge("Attachments may be at most 25 MB.");
  const id = newId();
  mkdirSync(attachmentsDir(deps), { recursive: true });
  writeFileSync(join(attachmentsDir(deps), id), input.bytes);
  return insertAttachmentRow(
    ctx,
    {
      id,
      filename: input.filename,
      head: input.bytes.subarray(0, 4096),
      size: input.bytes.byteLength,
      inline: input.inline,
      contentId: input.content_id,
    },
    deps,
  );
}

/**
 * storeAttachment for the inbound pipeline: the file is written on the fs thread pool, so the event
 * loop (the one SQLite writer) is not held by disk writes while other mail and requests wait.
 */
export async function storeAttachmentAsync(
  ctx: RequestContext,
  input: { filename: string; content_type?: string; bytes: Uint8Array; inline?: boolean; content_id?: string | null },
  deps: AttachmentDeps,
): Promise<AttachmentRow> {
  if (input.bytes.byteLength > MAX_ATTACHMENT_BYTES) throw tooLarge("Attachments may be at most 25 MB.");
  const id = newId();
  await mkdir(attachmentsDir(deps), { recursive: true });
  await writeFile(join(attachmentsDir(deps), id), input.bytes);
  return insertAttachmentRow(
    ctx,
    {
      id,
      filename: input.filename,
      head: input.bytes.subarray(0, 4096),
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
  mkdirSync(attachmentsDir(deps), { recursive: true });
  await Bun.write(join(attachmentsDir(deps), id), file);
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  return insertAttachmentRow(ctx, { id, filename: file.name ?? "file", head, size: file.size }, deps);
}

function insertAttachmentRow(
  ctx: RequestContext,
  input: { id: string; filename: string; head: Uint8Array; size: number; inline?: boolean; contentId?: string | null },
  deps: AttachmentDeps,
): AttachmentRow {
  try {
    return withTx(deps.db, (tx) =>
      tx
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
        .returning()
        .get(),
    );
  } catch (error) {
    rmSync(join(attachmentsDir(deps), input.id), { force: true });
    throw error;
  }
}

/**
 * Links unattached uploads of this workspace to a message; any other id answers 422 at `location`.
 * Answers the linked rows in presentation order (created_at, id), as attachmentsOfMessages would.
 */
export function attachToMessage(
  tx: Tx,
  workspaceId: string,
  messageId: string,
  ids: string[],
  location: string,
): AttachmentRow[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const linked = tx
    .update(attachments)
    .set({ messageId })
    .where(
      and(eq(attachments.workspaceId, workspaceId), inArray(attachments.id, unique), isNull(attachments.messageId)),
    )
    .returning()
    .all();
  if (linked.length !== unique.length) {
    const found = new Set(linked.map((r) => r.id));
    const bad = unique.findIndex((id) => !found.has(id));
    throw invalidAt(`${location}.${ids.indexOf(unique[bad]!)}`, "Not an unattached upload of this workspace.");
  }
  return linked.sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

export function attachmentsOfMessages(db: Queryable, messageIds: string[]): Map<string, AttachmentRow[]> {
  const out = new Map<string, AttachmentRow[]>();
  if (messageIds.length === 0) return out;
  const rows = db
    .select()
    .from(attachments)
    .where(inArray(attachments.messageId, messageIds))
    .orderBy(attachments.createdAt, attachments.id)
    .all();
  for (const row of rows) {
    const list = out.get(row.messageId!) ?? [];
    list.push(row);
    out.set(row.messageId!, list);
  }
  return out;
}

export function findAttachment(db: Queryable, workspaceId: string, id: string): AttachmentRow {
  const row = db
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, id), eq(attachments.workspaceId, workspaceId)))
    .get();
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

/** Removes uploads stored for something that then did not happen (a mail refused or a duplicate after all). */
export function discardAttachments(deps: AttachmentDeps, ids: string[]): void {
  if (ids.length === 0) return;
  const removed = withTx(deps.db, (tx) =>
    tx
      .delete(attachments)
      .where(and(inArray(attachments.id, ids), isNull(attachments.messageId)))
      .returning({ storageKey: attachments.storageKey })
      .all(),
  );
  for (const row of removed) rmSync(attachmentFilePath(deps, row), { force: true });
}

/** Removes uploads nobody attached within a day: rows first, then their files. */
export function removeOrphanAttachments(deps: AttachmentDeps): number {
  const cutoff = new Date(deps.clock.now().getTime() - 24 * 3600 * 1000).toISOString();
  const removed = withTx(deps.db, (tx) =>
    tx
      .delete(attachments)
      .where(and(isNull(attachments.messageId), lt(attachments.createdAt, cutoff)))
      .returning({ storageKey: attachments.storageKey })
      .all(),
  );
  for (const row of removed) rmSync(attachmentFilePath(deps, row), { force: true });
  return removed.length;
}
