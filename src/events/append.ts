import { sql } from "drizzle-orm";
import type { Tx } from "../db/database";
import { afterCommit, currentDb } from "../db/tx";
import { newId } from "../lib/ids";
import { hooksOf } from "./bus";
import { teamTopic, workspaceTopic, type StoredEvent, type Visibility } from "./envelope";
import { events } from "./events.table";

export type NewEvent = {
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  visibility?: Visibility;
  /** The private team the event concerns: its full form then goes to that team's topic only. */
  privateTeamId?: string | null;
  /** `user:<uid>`, `contact:<wid>:<cid>` and similar extra fan-out topics. */
  extraTopics?: string[];
  occurredAt?: string;
};

const pending = new WeakMap<Tx, StoredEvent[]>();

/**
 * Stores an event in the caller's transaction: the seq comes from the workspace row, which the
 * IMMEDIATE transaction holds, so seqs are contiguous and never repeat. Published after commit.
 */
export function appendEvent(tx: Tx, input: NewEvent): StoredEvent {
  const [row] = tx.all<{ event_seq: number }>(
    sql`UPDATE workspaces SET event_seq = event_seq + 1 WHERE id = ${input.workspaceId} RETURNING event_seq`,
  );
  if (!row) throw new Error(`appendEvent: workspace ${input.workspaceId} does not exist`);
  const privateTeamId = input.privateTeamId ?? null;
  const mainTopic = privateTeamId ? teamTopic(input.workspaceId, privateTeamId) : workspaceTopic(input.workspaceId);
  const event: StoredEvent = {
    id: newId(),
    seq: row.event_seq,
    workspace_id: input.workspaceId,
    type: input.type,
    visibility: input.visibility ?? "agents",
    topics: [mainTopic, ...(input.extraTopics ?? [])],
    data: input.data,
    occurred_at: input.occurredAt ?? new Date().toISOString(),
    private_team_id: privateTeamId,
  };
  tx.insert(events)
    .values({
      id: event.id,
      workspaceId: event.workspace_id,
      seq: event.seq,
      type: event.type,
      visibility: event.visibility,
      privateTeamId,
      topics: event.topics,
      data: event.data,
      occurredAt: event.occurred_at,
    })
    .run();

  const db = currentDb();
  const hooks = hooksOf(db);
  for (const hook of hooks.inTx) hook(tx, event);

  let batch = pending.get(tx);
  if (!batch) {
    const fresh: StoredEvent[] = [];
    pending.set(tx, fresh);
    batch = fresh;
    afterCommit(() => {
      pending.delete(tx);
      for (const listener of hooks.committed) listener(fresh);
    });
  }
  batch.push(event);
  return event;
}
