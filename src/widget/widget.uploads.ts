import { systemContext, type VisitorContext } from "../auth/context";
import {
  attachmentLinks,
  discardAttachments,
  presentAttachment,
  storeAttachmentAsync,
} from "../attachments/attachments.public";
import { inArray, lt } from "drizzle-orm";
import { z } from "zod";
import { defineJob, type JobContext } from "../jobs/define";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { readUploadedFile } from "../http/multipart";
import { DeskError, invalidAt } from "../lib/errors";
import { checkUploadVolume, spendUploadVolume } from "./widget.limits";
import { widgetUploads } from "./widget.table";

/** A visitor's file: at most 10 MB (agents may send 25). */
export const MAX_WIDGET_UPLOAD_BYTES = 10 * 1024 * 1024;

/** What a visitor may send, by the type its content shows, and the names such files may carry. */
const ALLOWED: Record<string, readonly string[]> = {
  "image/png": ["png"],
  "image/jpeg": ["jpg", "jpeg"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
  "text/plain": ["txt", "log", "csv", "md"],
};

const unsupported = (detail: string) =>
  new DeskError(422, "unsupported_file", detail, [{ location: "body.file", message: detail }]);

/** The visitor's file from multipart field `file`, read capped while the body streams. */
async function readUpload(request: Request): Promise<File> {
  const file = await readUploadedFile(request, {
    maxBytes: MAX_WIDGET_UPLOAD_BYTES,
    tooLarge: "Files may be at most 10 MB.",
    noun: "file",
  });
  if (file.size === 0) throw invalidAt("body.file", "The file is empty.");
  return file;
}

/** The type from the first bytes (the same sniffing attachments use); null for anything not allowed. */
function sniff(head: Uint8Array): string | null {
  const at = (offset: number, bytes: number[]) => bytes.every((v, i) => head[offset + i] === v);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (at(0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (at(0, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return "image/webp";
  if (at(0, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  if (head.includes(0)) return null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    // Markup is not plain text: an HTML or SVG file renamed .txt is refused, not stored.
    return /^\s*<(!doctype|html|svg|\?xml|script)/i.test(text) ? null : "text/plain";
  } catch {
    return null;
  }
}

/**
 * POST /v1/widget/attachments: the content decides the type; a name whose extension says another
 * type (a program named .png, a page named .pdf) is refused as disguised. Stored unattached and
 * remembered as this visitor's, so only they can attach it.
 */
export async function uploadVisitorFile(deps: Deps, visitor: VisitorContext, request: Request) {
  await checkUploadVolume(deps, request, visitor);
  const file = await readUpload(request);
  await spendUploadVolume(deps, visitor, file.size);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniff(bytes.subarray(0, 4096));
  if (!type) throw unsupported("Send a picture (PNG, JPEG, GIF, WebP), a PDF or a plain text file.");
  const extension = /\.([a-z0-9]{1,8})$/i.exec(file.name)?.[1]?.toLowerCase();
  if (extension && !ALLOWED[type]!.includes(extension))
    throw unsupported(`The file's content is ${type}, which its name (.${extension}) does not match.`);
  const ctx = systemContext(visitor.workspaceId, visitor.requestId);
  const row = await storeAttachmentAsync(ctx, { filename: file.name || "file", bytes }, deps);
  await transact(
    deps.db,
    async (tx) =>
      await tx.insert(widgetUploads).values({
        attachmentId: row.id,
        workspaceId: visitor.workspaceId,
        contactId: visitor.contactId,
        createdAt: deps.clock.now().toISOString(),
      }),
  );
  return presentAttachment(row, attachmentLinks(deps));
}

/** Visitor uploads no message took within this long are removed (README "Chat widget"). */
export const WIDGET_UPLOAD_TTL_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 500;

/**
 * Removes visitors' uploads that no message took within WIDGET_UPLOAD_TTL_MS (rows and files; the
 * attachments' own day-long sweep is too slow for anonymous senders), a bounded batch per run; a
 * file that was attached stays, only its widget record goes. Answers how many records went.
 */
export async function sweepVisitorUploads(deps: Deps): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - WIDGET_UPLOAD_TTL_MS).toISOString();
  const ids = (
    await deps.db
      .select({ id: widgetUploads.attachmentId })
      .from(widgetUploads)
      .where(lt(widgetUploads.createdAt, cutoff))
      .limit(SWEEP_BATCH)
  ).map((r) => r.id);
  if (ids.length === 0) return 0;
  await discardAttachments(deps, ids);
  await transact(deps.db, async (tx) => await tx.delete(widgetUploads).where(inArray(widgetUploads.attachmentId, ids)));
  return ids.length;
}

export const sweepVisitorUploadsJob = defineJob({
  name: "widget.sweep_uploads",
  schema: z.object({}),
  schedule: "*/10 * * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<Deps>) {
    // Bounded batches until done: a flood's leftovers go in one run, never in an unbounded statement.
    for (let i = 0; i < 20 && (await sweepVisitorUploads(deps)) === SWEEP_BATCH; i++);
  },
});
