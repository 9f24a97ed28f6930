import type { RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { ReadScopeOf } from "./catalogue";
import { type Envelope, storedEventOf } from "./envelope";
import { eventStatements, type PublicEventRow } from "./events.statements";
import { eventAsSeenBy, type ReadGrant } from "./visibility";

/**
 * A visitor's missed public events: those of the workspace after `since` that went to their contact
 * topic (`topic`), at most `limit`; a row's topics still need an exact check.
 */
export const publicEventsSince = (
  db: Db,
  workspaceId: string,
  since: number,
  topic: string,
  limit: number,
): Promise<PublicEventRow[]> => eventStatements(db).publicEventsSince(workspaceId, since, topic, limit);

/**
 * Replays stored events after `since`, ascending. Events the caller may not read (a private team it
 * does not see, or for an API key a resource outside its scopes) come back as stand-ins.
 */
export async function replayEvents(
  db: Db,
  ctx: Pick<RequestContext, "workspaceId"> & ReadGrant,
  since: number,
  limit: number,
  readScopeOf: ReadScopeOf,
): Promise<{ data: Envelope[]; next_cursor: string | null }> {
  const rows = await eventStatements(db).eventsSince(ctx.workspaceId, since, limit + 1);
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const data = kept.map((row) => eventAsSeenBy(ctx, storedEventOf(row), readScopeOf));
  return { data, next_cursor: more ? String(kept.at(-1)!.seq) : null };
}
