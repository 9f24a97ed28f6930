import type { z } from "zod";
import type { Scope } from "../auth/context";
import type { StoredEvent } from "./envelope";

/**
 * One event type: its name, the schema of its `data` (the REST presenters' JSON, so the same
 * zod schemas), and who may read it. Defined once by the feature that emits it (`<feature>.events.ts`)
 * and listed in its module's `events`; the catalogue of registered modules is the only list of types.
 */
/** Event data is a JSON object (SPEC.md's envelope). */
export type DataSchema = z.ZodType<Record<string, unknown>>;

export type EventDefinition<T extends string = string, S extends DataSchema = DataSchema> = {
  type: T;
  schema: S;
  /**
   * The scope whose REST reads show what the event carries (`null`: any credential of the workspace,
   * like GET /v1/tags). An API key without it receives the `event.hidden` stand-in instead.
   */
  readScope: Scope | null;
  /** Whether a webhook may subscribe to it by name (false for `event.hidden` and `webhook.test`). */
  subscribable: boolean;
  /** One line for the OpenAPI document. */
  description: string;
};

export type AnyEventDefinition = EventDefinition<string, DataSchema>;

/** The `data` an event of this definition carries. */
export type EventData<E extends AnyEventDefinition> = z.output<E["schema"]>;

/**
 * A stored event of one of the definitions `E` (a union of them): a union on `type`, so checking
 * `event.type` narrows `data` to that definition's schema.
 */
export type StoredEventOf<E extends AnyEventDefinition> = E extends AnyEventDefinition
  ? Omit<StoredEvent, "type" | "data"> & { type: E["type"]; data: EventData<E> }
  : never;

/**
 * The one place a stored event is taken as one of `E`: the caller has checked its type against
 * theirs, and `appendEvent` stored its data from that definition's schema (checked at compile time,
 * and against the schema itself with response checks on), so hooks and consumers need no cast.
 */
export const asEventOf = <E extends AnyEventDefinition>(event: StoredEvent): StoredEventOf<E> =>
  event as StoredEventOf<E>;

export function defineEvent<T extends string, S extends DataSchema>(
  type: T,
  schema: S,
  options: { readScope: Scope | null; description: string; subscribable?: boolean },
): EventDefinition<T, S> {
  return {
    type,
    schema,
    readScope: options.readScope,
    subscribable: options.subscribable ?? true,
    description: options.description,
  };
}
