import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { Envelope } from "../api/types";
import type { EventResource, EventType } from "../event-types";

/**
 * What a realtime event does to the query cache, declared by the resource that owns the queries
 * (`tickets/tickets.queries.ts`, `lib/resources/labels.ts`, …) rather than in one switch here: a new
 * resource brings its keys and the events that make them stale, and the app hands the list to
 * `useRealtime`. The cache stays the single place the UI reads from.
 */
export type EventRule = {
  /**
   * Event types (`ticket.updated`) or every type of a resource (`ticket.*`), checked against the
   * server's event catalogue (`lib/event-types.ts`, generated): a misspelt or removed type fails to compile.
   */
  on: readonly (EventType | `${EventResource}.*`)[];
  /** Query keys the event makes stale; each also stales the keys it is a prefix of. */
  invalidate: (event: Envelope) => readonly QueryKey[];
  /** Writes the event's data straight into the cache, before the invalidations. */
  update?: (client: QueryClient, event: Envelope) => void;
};

/** A resource's query keys and the events that invalidate them. */
export type Resource<Keys = unknown> = { name: string; keys: Keys; events: readonly EventRule[] };

export const defineResource = <Keys>(resource: Resource<Keys>): Resource<Keys> => resource;

/** `ticket.*` matches `ticket.updated`, not `tickets.x` or `ticket_x.y`; anything else matches exactly. */
export function eventMatches(pattern: string, type: string): boolean {
  return pattern.endsWith(".*") ? type.startsWith(pattern.slice(0, -1)) : pattern === type;
}

/** The union of every resource's rules, applied to one event. */
export function applyEvent(client: QueryClient, resources: readonly Resource[], event: Envelope): void {
  for (const resource of resources) {
    for (const rule of resource.events) {
      if (!rule.on.some((pattern) => eventMatches(pattern, event.type))) continue;
      rule.update?.(client, event);
      for (const queryKey of rule.invalidate(event)) client.invalidateQueries({ queryKey });
    }
  }
}
