import { first, one } from "../db/store";
import { and, asc, eq } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { savedReplyCreated, savedReplyDeleted, savedReplyUpdated } from "./saved-replies.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { sanitizeHtmlBody } from "../lib/sanitize";
import { savedReplyStatements } from "./saved-replies.statements";
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

export async function findSavedReply(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<SavedReplyRow | undefined> {
  return first(
    await db
      .select()
      .from(savedReplies)
      .where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.id, id)))
      .limit(1),
  );
}

export async function listSavedReplies(db: Queryable, ctx: RequestContext) {
  return (
    await db
      .select()
      .from(savedReplies)
      .where(eq(savedReplies.workspaceId, ctx.workspaceId))
      .orderBy(savedReplyStatements(db).textAscending(savedReplies.title), asc(savedReplies.id))
  ).map(presentSavedReply);
}

const shortcutKey = (shortcut: string | null | undefined) => (shortcut ? shortcut.toLowerCase() : null);

async function assertShortcutFree(tx: Tx, workspaceId: string, key: string | null, exceptId: string | null) {
  if (!key) return;
  const taken = first(
    await tx
      .select({ id: savedReplies.id })
      .from(savedReplies)
      .where(and(eq(savedReplies.workspaceId, workspaceId), eq(savedReplies.shortcutKey, key)))
      .limit(1),
  );
  if (taken && taken.id !== exceptId) throw conflict("A saved reply with this shortcut already exists.");
}

function cleanBody(html: string): string {
  const body = sanitizeHtmlBody(html);
  if (body.trim() === "") throw invalidAt("body.body_html", "the reply has no content left after sanitizing");
  return body;
}

export async function createSavedReply(
  ctx: RequestContext,
  input: Required<Pick<SavedReplyInput, "title" | "body_html">> & SavedReplyInput,
  deps: Deps,
): Promise<SavedReplyRow> {
  const bodyHtml = cleanBody(input.body_html);
  return await transact(deps.db, async (tx) => {
    const key = shortcutKey(input.shortcut);
    await assertShortcutFree(tx, ctx.workspaceId, key, null);
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
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
        .returning(),
    );
    await appendEvent(tx, savedReplyCreated, {
      workspaceId: ctx.workspaceId,
      data: { saved_reply: presentSavedReply(row) },
    });
    return row;
  });
}

export async function updateSavedReply(
  ctx: RequestContext,
  id: string,
  input: SavedReplyInput,
  deps: Deps,
): Promise<SavedReplyRow> {
  const bodyHtml = input.body_html !== undefined ? cleanBody(input.body_html) : undefined;
  return await transact(deps.db, async (tx) => {
    if (!(await findSavedReply(tx, ctx.workspaceId, id))) throw notFound("Saved reply");
    const patch: Partial<SavedReplyRow> = {};
    if (input.title !== undefined) patch.title = input.title;
    if (input.shortcut !== undefined) {
      patch.shortcut = input.shortcut;
      patch.shortcutKey = shortcutKey(input.shortcut);
      await assertShortcutFree(tx, ctx.workspaceId, patch.shortcutKey, id);
    }
    if (bodyHtml !== undefined) patch.bodyHtml = bodyHtml;
    const row = one(
      await tx
        .update(savedReplies)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(savedReplies.id, id))
        .returning(),
    );
    await appendEvent(tx, savedReplyUpdated, {
      workspaceId: ctx.workspaceId,
      data: { saved_reply: presentSavedReply(row) },
    });
    return row;
  });
}

export async function deleteSavedReply(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    if (!(await findSavedReply(tx, ctx.workspaceId, id))) throw notFound("Saved reply");
    await tx.delete(savedReplies).where(eq(savedReplies.id, id));
    await appendEvent(tx, savedReplyDeleted, { workspaceId: ctx.workspaceId, data: { saved_reply_id: id } });
  });
}
