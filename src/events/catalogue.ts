import { SCOPES, type Scope } from "../auth/context";
import type { AnyEventDefinition } from "./define";

/** The scope needed to read events of a type; undefined when no registered definition decides it. */
export type ReadScopeOf = (type: string) => Scope | null | undefined;

/** Every event type of the registered modules, and what is derived from them. */
export type EventCatalogue = {
  definitions: readonly AnyEventDefinition[];
  get(type: string): AnyEventDefinition | undefined;
  /** The types a webhook may list, in module order. */
  subscribable: readonly string[];
  /** The read scope of a type, decided by its resource (the part before the last dot). */
  readScopeOf: ReadScopeOf;
  /** Every scope some event type needs: what a subscription to all events (`*`) reaches. */
  readScopes: readonly Scope[];
};

const resourceOf = (type: string) => type.slice(0, type.lastIndexOf("."));

/**
 * Builds the catalogue of the modules' definitions. A type defined twice, or two types of one
 * resource with different read scopes, stops Desk at start: visibility is decided per resource
 * (`ticket.*` shows what GET /v1/tickets shows), so a type the catalogue does not define yet but
 * whose resource it knows is read like its siblings, and any other is shown to API keys only as a
 * stand-in, so an undecided type never leaks.
 */
export function createEventCatalogue(definitions: readonly AnyEventDefinition[]): EventCatalogue {
  const byType = new Map<string, AnyEventDefinition>();
  const scopeByResource = new Map<string, Scope | null>();
  for (const definition of definitions) {
    if (byType.has(definition.type)) throw new Error(`event type ${definition.type} is defined twice`);
    byType.set(definition.type, definition);
    const resource = resourceOf(definition.type);
    const known = scopeByResource.get(resource);
    if (known !== undefined && known !== definition.readScope)
      throw new Error(`event type ${definition.type}: ${resource}.* events are read with ${known ?? "any credential"}`);
    scopeByResource.set(resource, definition.readScope);
  }
  return {
    definitions,
    get: (type) => byType.get(type),
    subscribable: definitions.filter((d) => d.subscribable).map((d) => d.type),
    readScopeOf: (type) => scopeByResource.get(resourceOf(type)),
    // In the canonical order of scopes, which is the order a refusal names the missing ones in.
    readScopes: SCOPES.filter((scope) => definitions.some((d) => d.readScope === scope)),
  };
}
