import { first } from "../db/store";
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import { transact } from "../db/tx";
import type { Clock } from "../lib/clock";
import { forbidden } from "../lib/errors";
import { getTicket, visibleTicketsAmong } from "../tickets/tickets.public";
import { ticketReads } from "./ticket-reads.table";

/** Read marks kept per person and workspace: past it the oldest are dropped (those tickets read as unread again). */
export const READS_PER_MEMBER = 5000;
/** Tickets one read-state request may ask about (a page of the inbox). */
export const READS_PER_REQUEST = 100;

type Deps = { db: Db; clock: Clock };

const personOf = (ctx: RequestContext): string => {
  const userId = actorUserId(ctx);
  if (!userId) throw forbidden("Read marks belong to a person, not an API key.");
  return userId;
};

/** Marks a ticket the person may see as seen now; 404 for one they may not see or another workspace's. */
export async function markTicketSeen(
  ctx: RequestContext,
  ticketId: string,
  deps: Deps,
): Promise<{ ticket_id: string; seen_at: string }> {
  const userId = personOf(ctx);
  const ticket = await getTicket(deps.db, ctx, ticketId);
  const seenAt = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => {
    await tx
      .insert(ticketReads)
      .values({ workspaceId: ctx.workspaceId, userId, ticketId: ticket.id, seenAt })
      .onConflictDoUpdate({ target: [ticketReads.userId, ticketReads.ticketId], set: { seenAt } });
    const mine = and(eq(ticketReads.workspaceId, ctx.workspaceId), eq(ticketReads.userId, userId));
    // The newest mark past the cap, if any: everything older than it goes.
    const edge = first(
      await tx
        .select({ seenAt: ticketReads.seenAt })
        .from(ticketReads)
        .where(mine)
        .orderBy(desc(ticketReads.seenAt))
        .limit(1)
        .offset(READS_PER_MEMBER - 1),
    );
    if (edge) await tx.delete(ticketReads).where(and(mine, lt(ticketReads.seenAt, edge.seenAt)));
  });
  return { ticket_id: ticket.id, seen_at: seenAt };
}

/** The person's read marks among the given tickets (only those they may see). */
export async function readsAmong(ctx: RequestContext, ticketIds: string[], deps: Deps) {
  const userId = personOf(ctx);
  const visible = (await visibleTicketsAmong(deps.db, ctx, ticketIds, READS_PER_REQUEST)).map((t) => t.id);
  if (visible.length === 0) return { data: [] };
  const rows = await deps.db
    .select({ ticketId: ticketReads.ticketId, seenAt: ticketReads.seenAt })
    .from(ticketReads)
    .where(
      and(
        eq(ticketReads.workspaceId, ctx.workspaceId),
        eq(ticketReads.userId, userId),
        inArray(ticketReads.ticketId, visible),
      ),
    );
  return { data: rows.map((r) => ({ ticket_id: r.ticketId, seen_at: r.seenAt })) };
}
