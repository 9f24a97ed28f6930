import { SQL } from "bun";
import { processEngine } from "../config/engine";
import { activeChange } from "../db/change";
import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import type { Logger } from "../lib/logger";
import { eventBusOf } from "./bus";
import { type StoredEvent, storedEventOf } from "./envelope";
import { eventStatements } from "./events.statements";

/**
 * Several nodes on one PostgreSQL database (DECISIONS.md "Past one machine"): a change that stored
 * events notifies `desk_events` with the workspace's id (src/events/append.ts, delivered on commit),
 * and every node's feed reads that workspace's events past the last seq it published and hands them
 * to the same listeners its own commits reach (`onEventsCommitted`: the gateway, the consumer
 * runner's wake), in seq order, each once. The node's own commits go through the feed too: published
 * at once when they are next in line (as on SQLite), else after the seqs before them are read; a seq
 * published from the notification is not published again by the commit (or the other way round).
 * A notification sent while the listening connection was down is lost: after a reconnect (`onlisten`
 * again) and on a slow timer, the feed compares every workspace's counter with what it published. SQLite (one process) has no feed: its commits publish as before.
 *
 * Besides a workspace id, a payload `quiet:<workspace id>` tells the nodes that what consumers'
 * `quiet.when` reads changed without an event (`reactionStateChanged`).
 */
export const FEED_ON = processEngine === "postgres";
const FEED_CHANNEL = "desk_events";
const QUIET_PREFIX = "quiet:";
/** The counters compared with what was published, when no notification came (lost ones). */
const CATCH_UP_MS = 5_000;
/** Events read per query while catching a workspace up. */
const PAGE = 500;

type Feed = {
  /** The last seq handed to the listeners, per workspace (0 when none: a workspace made after start). */
  published: Map<string, number>;
  /** Workspaces to read past their published seq, and own commits to publish, one at a time in order. */
  dirty: Set<string>;
  chain: Promise<void>;
  draining: boolean;
  stopped: boolean;
  logger: Logger;
};

const feedOf = deskState("events.feed", () => ({ feed: null as Feed | null }));
/** Listeners told when another node says a workspace's quiet answers changed (the consumer runner's cache). */
export const quietListenersOf = deskState("events.feed-quiet", () => new Set<(workspaceId: string) => void>());

/**
 * Starts this node's feed: LISTEN first, then the counters as they stand (what is already out is
 * nobody's news), so no commit falls between the two. Answers its stop.
 */
export async function startEventFeed(
  db: Db,
  databaseUrl: string,
  logger: Logger,
  options: { catchUpMs?: number } = {},
): Promise<{ stop(): Promise<void> }> {
  const slot = feedOf(db);
  // Nothing is read or published before the counters are known (a notification may come first).
  let opened!: () => void;
  const feed: Feed = {
    published: new Map(),
    dirty: new Set(),
    chain: new Promise<void>((resolve) => {
      opened = resolve;
    }),
    draining: false,
    stopped: false,
    logger,
  };
  let listened = 0;
  // The feed's own connection (Bun keeps a LISTEN on a connection of its own, reconnected when it drops).
  const client = new SQL(databaseUrl, { max: 1, connectionTimeout: 10 });
  const subscription = await client.listen(
    FEED_CHANNEL,
    (payload) => {
      if (feed.stopped) return;
      if (payload.startsWith(QUIET_PREFIX)) {
        const workspaceId = payload.slice(QUIET_PREFIX.length);
        for (const listener of quietListenersOf(db)) listener(workspaceId);
        return;
      }
      feed.dirty.add(payload);
      drainSoon(db, feed);
    },
    () => {
      // Again after a reconnect: what was sent meanwhile never arrives, so compare the counters.
      if (++listened > 1 && !feed.stopped) {
        for (const listener of quietListenersOf(db)) listener("*");
        catchUpAll(db, feed);
      }
    },
  );
  // Commits meanwhile wait on the chain behind the counters (a seq past a gap is read, never guessed).
  slot.feed = feed;
  try {
    for (const row of await eventStatements(db).counters())
      feed.published.set(row.workspace_id, Math.max(row.last_seq, feed.published.get(row.workspace_id) ?? 0));
  } catch (error) {
    feed.stopped = true;
    if (slot.feed === feed) slot.feed = null;
    opened();
    await subscription.unlisten().catch(() => {});
    await client.close({ timeout: 5 }).catch(() => {});
    throw error;
  }
  opened();
  const every = options.catchUpMs ?? CATCH_UP_MS;
  const timer = setInterval(() => catchUpAll(db, feed), every);
  return {
    async stop() {
      feed.stopped = true;
      clearInterval(timer);
      if (slot.feed === feed) slot.feed = null;
      await subscription.unlisten().catch(() => {});
      await client.close({ timeout: 5 }).catch(() => {});
      await feed.chain;
    },
  };
}

/**
 * A commit of this node: its events are published here unless the feed already did (the
 * notification came first); a seq of another node still unpublished before them is read first.
 * Without a running feed (a CLI command), straight to the listeners as on SQLite.
 */
export function publishOwnCommit(db: Db, events: StoredEvent[]): void {
  const feed = feedOf(db).feed;
  if (!feed) {
    for (const listener of eventBusOf(db).committed) listener(events);
    return;
  }
  const byWorkspace = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const list = byWorkspace.get(event.workspace_id);
    if (list) list.push(event);
    else byWorkspace.set(event.workspace_id, [event]);
  }
  for (const [workspaceId, list] of byWorkspace) {
    const from = feed.published.get(workspaceId) ?? 0;
    // A change's seqs of one workspace are contiguous (it holds the counter row until commit): next
    // in line, they are published now, as on SQLite; past a gap, the gap is read first.
    if (list[0]!.seq === from + 1) deliver(db, feed, workspaceId, list);
    else if (list.at(-1)!.seq > from) {
      feed.dirty.add(workspaceId);
      drainSoon(db, feed);
    }
  }
}

function enqueue(feed: Feed, work: () => Promise<void>): void {
  feed.chain = feed.chain.then(work).catch((error: unknown) => {
    feed.logger.error({ err: error }, "event feed failed to publish");
  });
}

/** Publishes the events past the workspace's published seq (a read may overlap a commit published meanwhile). */
function deliver(db: Db, feed: Feed, workspaceId: string, all: StoredEvent[]): void {
  const from = feed.published.get(workspaceId) ?? 0;
  const events = all[0] && all[0].seq <= from ? all.filter((event) => event.seq > from) : all;
  if (events.length === 0) return;
  feed.published.set(workspaceId, events.at(-1)!.seq);
  for (const listener of eventBusOf(db).committed) {
    try {
      listener(events);
    } catch (error) {
      feed.logger.error({ err: error }, "an event listener failed");
    }
  }
}

/** Reads and publishes the workspace's committed events past its published seq. */
async function readPast(db: Db, feed: Feed, workspaceId: string): Promise<void> {
  const statements = eventStatements(db);
  while (!feed.stopped) {
    const from = feed.published.get(workspaceId) ?? 0;
    const rows = await statements.eventsSince(workspaceId, from, PAGE);
    deliver(db, feed, workspaceId, rows.map(storedEventOf));
    if (rows.length < PAGE) return;
  }
}

function drainSoon(db: Db, feed: Feed): void {
  if (feed.draining) return;
  feed.draining = true;
  enqueue(feed, async () => {
    feed.draining = false;
    const workspaces = [...feed.dirty];
    feed.dirty.clear();
    for (const workspaceId of workspaces) {
      if (feed.stopped) return;
      await readPast(db, feed, workspaceId);
    }
  });
}

/** Every workspace whose counter is past what was published becomes dirty (lost notifications). */
function catchUpAll(db: Db, feed: Feed): void {
  if (feed.stopped) return;
  enqueue(feed, async () => {
    for (const row of await eventStatements(db).counters())
      if (row.last_seq > (feed.published.get(row.workspace_id) ?? 0)) feed.dirty.add(row.workspace_id);
    if (feed.dirty.size > 0) drainSoon(db, feed);
  });
}

/**
 * Tells the other nodes that what `quiet.when` reads changed in the workspace, once the calling
 * change has committed (right away outside one): their cached answers go (`reactionStateChanged`).
 */
export function tellNodesQuietChanged(db: Db, workspaceId: string): void {
  const send = () => {
    // Outside the change (it has committed): on the pool.
    void eventStatements(db)
      .notifyAppended(QUIET_PREFIX + workspaceId)
      .catch((error: unknown) => {
        feedOf(db).feed?.logger.error({ err: error }, "could not tell the other nodes of a reaction state change");
      });
  };
  const change = activeChange.getStore();
  if (change?.pending && (change.db as unknown) === db) change.afterCommit.push(send);
  else send();
}
