import { first, one } from "../db/store";
import { and, desc, eq, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt } from "../lib/errors";
import { applyLabelWrite, labelsOf } from "../labels/labels.public";
import { messages } from "./messages.table";
import { findVisibleTicket, reloadTicket } from "./tickets.repo";
import { tickets, type TicketRow } from "./tickets.table";
import { emitTicketUpdated, recordActivity } from "./tickets.timeline";

const later = (a: string | null, b: string | null) => (a && b ? (a > b ? a : b) : (a ?? b));
const earlier = (a: string | null, b: string | null) => (a && b ? (a < b ? a : b) : (a ?? b));

/**
 * Merges ticket `ref` into `intoRef`: its messages move to the target, its labels are added
 * there, it is closed and points at the target, and a `merged` activity `{ into }` is logged.
 * Required fields do not block a merge. Answers the target.
 */
export async function mergeTicket(ctx: RequestContext, ref: string, intoRef: string, deps: Deps): Promise<TicketRow> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const source = await findVisibleTicket(tx, ctx, ref, { includeMerged: false });
    let target: TicketRow;
    try {
      target = await findVisibleTicket(tx, ctx, intoRef, { includeMerged: false });
    } catch {
      throw invalidAt("body.into_id", "No such ticket to merge into.");
    }
    if (target.id === source.id) throw invalidAt("body.into_id", "A ticket cannot be merged into itself.");

    const moved = (
      await tx
        .update(messages)
        .set({ ticketId: target.id })
        .where(eq(messages.ticketId, source.id))
        .returning({ id: messages.id })
    ).length;
    const latestReply = first(
      await tx
        .select({ bodyText: messages.bodyText })
        .from(messages)
        .where(and(eq(messages.ticketId, target.id), eq(messages.kind, "reply")))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1),
    );
    const sourceTags = (await labelsOf(tx, "tickets", [source.id])).get(source.id) ?? [];
    if (sourceTags.length)
      await applyLabelWrite(tx, ctx, "tickets", target.id, { add_tags: sourceTags.map((t) => t.name) }, deps.ports);
    await tx
      .update(tickets)
      .set({
        messageCount: sql`${tickets.messageCount} + ${moved}`,
        lastMessageAt: later(target.lastMessageAt, source.lastMessageAt)!,
        lastCustomerMessageAt: later(target.lastCustomerMessageAt, source.lastCustomerMessageAt),
        firstRespondedAt: earlier(target.firstRespondedAt, source.firstRespondedAt),
        lastMessagePreview: latestReply
          ? latestReply.bodyText.replace(/\s+/g, " ").trim().slice(0, 200)
          : target.lastMessagePreview,
        updatedAt: now,
      })
      .where(eq(tickets.id, target.id));
    const closed = one(
      await tx
        .update(tickets)
        .set({
          status: "closed",
          mergedIntoId: target.id,
          messageCount: 0,
          solvedAt: source.solvedAt ?? now,
          snoozedUntil: null,
          updatedAt: now,
        })
        .where(eq(tickets.id, source.id))
        .returning(),
    )!;
    await recordActivity(tx, ctx, closed, "merged", { into: target.id, into_number: target.number }, now);
    if (source.status !== "closed")
      await recordActivity(tx, ctx, closed, "status_changed", { from: source.status, to: "closed" }, now);
    await emitTicketUpdated(tx, closed, ["status", "merged_into_id", "message_count"]);
    const updatedTarget = await reloadTicket(tx, target.id);
    await emitTicketUpdated(tx, updatedTarget, [
      "message_count",
      "last_message_at",
      ...(sourceTags.length ? ["tags"] : []),
    ]);
    return updatedTarget;
  });
}
