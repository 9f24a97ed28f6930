import { and, asc, eq } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { withTx } from "../db/tx";
import { savedReplyCreated, savedReplyDeleted, savedReplyUpdated } from "./saved-replies.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { sanitizeHtmlBody } from "../lib/sanitize";
import { savedReplies } from "./saved-replies.table";
import type { Clock } from "../lib/clock";

type Deps = { db: Db; clock: Clock };
export type SavedReplyRow = typeof savedReplies.$inferSelect;
export type SavedReplyInput = { title?: string; shortcut?: string | null; body_html?: string };

export const presentSavedReply = (row: SavedReplyRow) => ({
  id: row.id,
  title: row.title,
  shortcut: row.shortcut,
  body_html: row.bodyHtml,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export function findSavedReply(db: Queryable, workspaceId: string, id: string): SavedReplyRow | undefined {
  return db
    .select()
    .from(savedReplies)
    .where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.id, id)))
    .get();
}

export function listSavedReplies(db: Queryable, ctx: RequestContext) {
  return db
    .select()
    .from(savedReplies)
    .where(eq(savedReplies.workspaceId, ctx.workspaceId))
    .orderBy(asc(savedReplies.title), asc(savedReplies.id))
    .all()
    .map(presentSavedReply);
}

const shortcutKey = (shortcut: string | null | undefined) => (shortcut ? shortcut.toLowerCase() : null);

function assertShortcutFree(tx: Tx, workspaceId: string, key: string | null, exceptId: string | null) {
  if (!key) return;
  const taken = tx
    .select({ id: savedReplies.id })
    .from(savedReplies)
    .where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.shortcutKey, key)))
    .get();
  if (taken && taken.id !== exceptId) throw conflict("A saved reply with this shortcut already exists.");
}

function cleanBody(html: string): string {
  const body = sanitizeHtmlBody(html);
  if (body.trim() === "") throw invalidAt("body.body_html", "the reply has no content left after sanitizing");
  return body;
}

export function createSavedReply(
  ctx: RequestContext,
  input: Required<Pick<SavedReplyInput, "title" | "body_html">> & SavedReplyInput,
  deps: Deps,
): SavedReplyRow {
  const bodyHtml = cleanBody(input.body_html);
  return withTx(deps.db, (tx) => {
    const key = shortcutKey(input.shortcut);
    assertShortcutFree(tx, ctx.workspaceId, key, null);
    const now = deps.clock.now().toISOString();
    const row = tx
      .insert(savedReplies)
      .values({
        id: newId(),
        workspaceId: ctx.workspaceId,
        title: input.title,
        shortcut: input.shortcut ?? null,
        shortcutKey: key,
        bodyHtml,
        createdBy: actorUserId(ctx),
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    appendEvent(tx, savedReplyCreated, {
      workspaceId: ctx.workspaceId,
      data: { saved_reply: presentSavedReply(row) },
    });
    return row;
  });
}

export function updateSavedReply(ctx: RequestContext, id: string, input: SavedReplyInput, deps: Deps): SavedReplyRow {
  const bodyHtml = input.body_html !== undefined ? cleanBody(input.body_html) : undefined;
  return withTx(deps.db, (tx) => {
    if (!findSavedReply(tx, ctx.workspaceId, id)) throw notFound("Saved reply");
    const patch: Partial<SavedReplyRow> = {};
    if (input.title !== undefined) patch.title = input.title;
    if (input.shortcut !== undefined) {
      patch.shortcut = input.shortcut;
      patch.shortcutKey = shortcutKey(input.shortcut);
      assertShortcutFree(tx, ctx.workspaceId, patch.shortcutKey, id);
    }
    if (bodyHtml !== undefined) patch.bodyHtml = bodyHtml;
    const row = tx
      .update(savedReplies)
      .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
      .where(eq(savedReplies.id, id))
      .returning()
      .get();
    appendEvent(tx, savedReplyUpdated, {
      workspaceId: ctx.workspaceId,
      data: { saved_reply: presentSavedReply(row) },
    });
    return row;
  });
}

export function deleteSavedReply(ctx: RequestContext, id: string, deps: Deps): void {
  withTx(deps.db, (tx) => {
    if (!findSavedReply(tx, ctx.workspaceId, id)) throw notFound("Saved reply");
    tx.delete(savedReplies).where(eq(savedReplies.id, id)).run();
    appendEvent(tx, savedReplyDeleted, { workspaceId: ctx.workspaceId, data: { saved_reply_id: id } });
  });
}
