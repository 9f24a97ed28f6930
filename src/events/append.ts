import type { Tx } from "../db/database";
import { deskClock } from "../db/desk-clock";
import { afterCommit, dbOf } from "../db/tx";
import { newId } from "../lib/ids";
import { schemaDrift } from "../http/response-check";
import { currentEventCause } from "./cause";
import type { AnyEventDefinition, EventData } from "./define";
import { teamTopic, userTopic, workspaceTopic, type StoredEvent, type Visibility } from "./envelope";
import { eventBusOf } from "./bus";
import { eventStatements } from "./events.statements";
import { FEED_ON, publishOwnCommit } from "./feed";

/** What a writer says about one event besides its type; `data` is checked against the type's schema at compile time. */
export type NewEvent<E extends AnyEventDefinition = AnyEventDefinition> = {
  workspaceId: string;
  data: EventData<E>;
  visibility?: Visibility;
  /** The private team the event concerns: its full form then goes to that team's topic only. */
  privateTeamId?: string | null;
  /**
   * A personal event (a notification): its main topic is this person's `user:<uid>` instead of the
   * workspace's, and only they see it in full (live and in replay); others get stand-ins.
   */
  personalTo?: string;
  /** `user:<uid>`, `contact:<wid>:<cid>` and similar extra fan-out topics. */
  extraTopics?: string[];
  occurredAt?: string;
  /**
   * What made the change (e.g. `auto_reply`), told to in-transaction hooks only: never stored or
   * published. Lets a caller pass a fact to the outbox hook explicitly instead of through module state.
   */
  origin?: string;
};

const pending = new WeakMap<Tx, StoredEvent[]>();
/** PostgreSQL: the workspaces each change has told the other nodes of (one notification each). */
const notified = new WeakMap<Tx, Set<string>>();

/**
 * Stores an event of the `event` definition in the caller's transaction: the seq comes from the
 * workspace's counter row, which the transaction holds until commit, so seqs are contiguous and
 * never repeat.
 * Published after commit. The data is not parsed here (this runs on every write); with response
 * checks on (tests, `bun run dev`) it is checked against the definition's schema, extra fields
 * included, so an emitter drifting from its documented shape fails its tests.
 */
export async function appendEvent<E extends AnyEventDefinition>(
  tx: Tx,
  event: E,
  input: NewEvent<E>,
): Promise<StoredEvent> {
  if (eventBusOf(dbOf(tx)).checkData) {
    const drift = schemaDrift(event.schema, input.data);
    if (drift) throw new Error(`${event.type} event data does not match its definition: ${drift}`);
  }
  return await storeEvent(tx, event.type, input);
}

async function storeEvent(tx: Tx, type: string, input: NewEvent): Promise<StoredEvent> {
  const statements = eventStatements(tx);
  // Run when the event is appended, not at commit: the event row, its hooks and its publication
  // need the seq then; holding the workspace's counter row for the rest of the transaction is the price.
  const seq = await statements.nextSeq(input.workspaceId);
  // A counter just started is the only moment a missing workspace shows. The counter goes again
  // even when the caller catches the error and commits the rest, so the next try checks too.
  if (seq === 1 && !(await statements.workspaceExists(input.workspaceId))) {
    await statements.dropNewCounter(input.workspaceId);
    throw new Error(`appendEvent: workspace ${input.workspaceId} does not exist`);
  }
  const privateTeamId = input.privateTeamId ?? null;
  const mainTopic = input.personalTo
    ? userTopic(input.personalTo)
    : privateTeamId
      ? teamTopic(input.workspaceId, privateTeamId)
      : workspaceTopic(input.workspaceId);
  const event: StoredEvent = {
    id: newId(),
    seq,
    workspace_id: input.workspaceId,
    type,
    visibility: input.visibility ?? "agents",
    topics: [mainTopic, ...(input.extraTopics ?? [])],
    data: input.data,
    occurred_at: input.occurredAt ?? deskClock(dbOf(tx)).now().toISOString(),
    private_team_id: privateTeamId,
  };
  const cause = currentEventCause(tx);
  await statements.insertEvent({
    id: event.id,
    workspaceId: event.workspace_id,
    seq: event.seq,
    type: event.type,
    visibility: event.visibility,
    privateTeamId,
    topicsJson: JSON.stringify(event.topics),
    dataJson: JSON.stringify(event.data),
    occurredAt: event.occurred_at,
    causeConsumer: cause?.consumer ?? null,
    causeDepth: cause?.depth ?? 0,
  });

  const hooks = eventBusOf(dbOf(tx));
  for (const hook of hooks.inTx) {
    // Awaited only when it answered a Promise: most hooks pass most events over synchronously.
    const pending = hook(tx, event, input.origin);
    if (pending) await pending;
  }

  if (FEED_ON) return await feedEvent(tx, statements, event);
  let batch = pending.get(tx);
  if (!batch) {
    const fresh: StoredEvent[] = [];
    pending.set(tx, fresh);
    batch = fresh;
    afterCommit(tx, () => {
      pending.delete(tx);
      for (const listener of hooks.committed) listener(fresh);
    });
  }
  batch.push(event);
  return event;
}

/**
 * PostgreSQL: the change tells every node of its workspace (`pg_notify`, delivered on commit), and
 * its events reach this node's listeners through the feed, which publishes each seq once and in order
 * whichever of the commit and the notification comes first.
 */
async function feedEvent(
  tx: Tx,
  statements: ReturnType<typeof eventStatements>,
  event: StoredEvent,
): Promise<StoredEvent> {
  let told = notified.get(tx);
  if (!told) {
    told = new Set();
    notified.set(tx, told);
  }
  if (!told.has(event.workspace_id)) {
    told.add(event.workspace_id);
    await statements.notifyAppended(event.workspace_id);
  }
  let batch = pending.get(tx);
  if (!batch) {
    const fresh: StoredEvent[] = [];
    pending.set(tx, fresh);
    batch = fresh;
    afterCommit(tx, () => {
      pending.delete(tx);
      notified.delete(tx);
      publishOwnCommit(dbOf(tx), fresh);
    });
  }
  batch.push(event);
  return event;
}
