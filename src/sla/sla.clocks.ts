import { and, eq } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { slaClocks } from "./sla.table";

/** The SLA clocks of a workspace's unsolved tickets: the next deadline and whether one was missed. */
export async function openSlaClocksOf(
  db: Queryable,
  workspaceId: string,
): Promise<Array<{ ticketId: string; nextDueAt: string | null; breached: boolean }>> {
  return await db
    .select({ ticketId: slaClocks.ticketId, nextDueAt: slaClocks.nextDueAt, breached: slaClocks.breached })
    .from(slaClocks)
    .where(and(eq(slaClocks.workspaceId, workspaceId), eq(slaClocks.solved, false)));
}
