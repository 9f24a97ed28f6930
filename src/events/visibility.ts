import type { Scope } from "../auth/context";
import type { ReadScopeOf } from "./catalogue";
import { hiddenStandIn, personOf, type Envelope } from "./envelope";

/**
 * What a credential may read, for deciding which events it sees in full: an API key's scopes
 * (null for people, whom their role and the topics they join limit) and the private teams whose
 * tickets it sees.
 */
export type ReadGrant = {
  scopes: readonly Scope[] | null;
  visibleTeams: "all" | readonly string[];
  /** The person asking (null for API keys): personal events (notifications) are theirs alone. */
  person: string | null;
};

/**
 * Whether a credential with `grant` may read events of `type` (private teams aside). The read
 * scope of each type comes from the event catalogue (`deps.events.readScopeOf`); a type it does
 * not decide is shown to keys only as a stand-in, so a new event type never leaks.
 */
export function mayReadEventType(grant: Pick<ReadGrant, "scopes">, type: string, readScopeOf: ReadScopeOf): boolean {
  if (grant.scopes === null) return true;
  const scope = readScopeOf(type);
  return scope === null || (scope !== undefined && grant.scopes.includes(scope));
}

/** Whether a credential with `grant` may read this event in full. */
export function mayReadEvent(
  grant: ReadGrant,
  event: { type: string; private_team_id: string | null; topics: string[] },
  readScopeOf: ReadScopeOf,
): boolean {
  if (event.type === "event.hidden") return true;
  const person = personOf(event);
  if (person !== null && grant.person !== person) return false;
  if (
    event.private_team_id !== null &&
    grant.visibleTeams !== "all" &&
    !grant.visibleTeams.includes(event.private_team_id)
  )
    return false;
  return mayReadEventType(grant, event.type, readScopeOf);
}

/** The event as `grant` sees it: in full, or the `event.hidden` stand-in with the same seq. */
export function eventAsSeenBy(
  grant: ReadGrant,
  event: Envelope & { private_team_id: string | null },
  readScopeOf: ReadScopeOf,
): Envelope {
  const { private_team_id: _team, ...envelope } = event;
  return mayReadEvent(grant, event, readScopeOf) ? envelope : hiddenStandIn(envelope);
}
