import type { z } from "zod";
import type { Scope } from "../auth/context";

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
