import type { Tx } from "../db/database";
import { type AnyEventDefinition, asEventOf, type StoredEventOf } from "./define";
import type { StoredEvent } from "./envelope";

/**
 * A reaction chain longer than this stops: an event appended by the third consumer reaction in a
 * row is stored and published, but no consumer handles it. It bounds A → B → A loops and a consumer
 * reacting to its own effects, while leaving room for one automation to trigger another.
 */
export const MAX_CAUSE_DEPTH = 3;

/**
 * The cause stamped on events of another desk's history (src/imports): they are stored and
 * published (webhooks, search staging, sockets) but no consumer handles them, so no automation,
 * CSAT survey, notification, SLA clock or assignment acts on what happened elsewhere long ago.
 */
export const IMPORT_CAUSE = "import";

/** What a handler knows besides the event: its dependencies and where the event came from. */
export type ConsumerContext<D> = {
  deps: D;
  /** The consumer whose reaction appended this event, or null for a direct change. */
  causedBy: string | null;
  /** How many consumer reactions led to this event (0 for a direct change). */
  depth: number;
};

export type Consumer<D> = {
  /** Names the cursor: renaming a consumer starts it afresh at the newest event. */
  name: string;
  /**
   * The events it handles, by definition (imported from the emitting feature's public file);
   * others advance its cursor untouched.
   */
  events: readonly AnyEventDefinition[];
  /**
   * Where a consumer seen for the first time starts: after the newest stored event (default: it
   * reacts to what happens from now on) or at the oldest retained one (it catches up first).
   */
  from?: "now" | "beginning";
  /**
   * Runs inside the transaction that advances the cursor, so its changes and the cursor commit
   * together: a crash loses neither and repeats neither. It may await the store, nothing else (see `transact`); work
   * outside the database goes to a job enqueued here.
   */
  handle(tx: Tx, event: StoredEvent, context: ConsumerContext<D>): void | Promise<void>;
  /**
   * When the consumer has nothing to do for a whole workspace (no rule, no policy, the feature
   * off): its events are then passed over without a transaction, a parse or a handler call, and the
   * cursor moves once per batch. `when` is asked once per workspace and the answer cached until an
   * event of a `changedBy` type arrives for that workspace, or until the owner calls
   * `reactionStateChanged` (state that changes without an event of its own). Only a precise answer
   * belongs here: a quiet workspace's events are never handled, even later.
   */
  quiet?: { when(deps: D, workspaceId: string): boolean | Promise<boolean>; changedBy: readonly AnyEventDefinition[] };
};

/** A consumer as its feature writes it: `handle` gets the events of its definitions, data typed. */
export type ConsumerSpec<D, E extends AnyEventDefinition> = Omit<Consumer<D>, "events" | "handle"> & {
  events: readonly E[];
  handle(tx: Tx, event: StoredEventOf<E>, context: ConsumerContext<D>): void | Promise<void>;
};

/**
 * The events come first among the type parameters so that both are inferred: `events` gives the
 * handler's event type, and `deps` takes its type from the handler's annotated context
 * (`{ deps }: ConsumerContext<Deps>`) or `quiet.when`'s parameter.
 */
export function defineConsumer<const E extends AnyEventDefinition, D = unknown>(spec: ConsumerSpec<D, E>): Consumer<D> {
  // The runner hands it only events of these types (its scan filters on them).
  return { ...spec, handle: async (tx, event, context) => await spec.handle(tx, asEventOf<E>(event), context) };
}
