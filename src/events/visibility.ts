import type { Scope } from "../auth/context";
import { hiddenStandIn, type Envelope } from "./envelope";

/**
 * What a credential may read, for deciding which events it sees in full: an API key's scopes
 * (null for people, whom their role and the topics they join limit) and the private teams whose
 * tickets it sees.
 */
export type ReadGrant = { scopes: readonly Scope[] | null; visibleTeams: "all" | readonly string[] };

/**
 * The scope whose REST reads show what an event carries, by the type's resource (its prefix).
 * `null`: readable with any credential of the workspace (labels and custom field definitions,
 * like their GET routes). A type missing here is shown to keys only as a stand-in, so a new event
 * type never leaks before someone decides who may read it.
 */
const READ_SCOPE_BY_RESOURCE: Record<string, Scope | null> = {
  ticket: "tickets:read",
  message: "tickets:read",
  activity: "tickets:read",
  view: "tickets:read",
  saved_reply: "tickets:read",
  automation: "tickets:read",
  sla_policy: "tickets:read",
  notification: "tickets:read",
  contact: "contacts:read",
  company: "contacts:read",
  kb_article: "kb:read",
  kb_collection: "kb:read",
  tag: null,
  tag_group: null,
  custom_field: null,
  mailbox: "settings:read",
  member: "settings:read",
  workspace: "settings:read",
  team: "settings:read",
  webhook: "settings:read",
  billing: "settings:read",
};

/** Every scope some event type needs: what a subscription to all events (`*`) reaches. */
export const EVENT_READ_SCOPES: Scope[] = [
  ...new Set(Object.values(READ_SCOPE_BY_RESOURCE).filter((s): s is Scope => s !== null)),
];

/** The scope needed to read an event of `type`; undefined when the type is not mapped (keys never see it in full). */
export function readScopeOf(type: string): Scope | null | undefined {
  const resource = type.slice(0, type.lastIndexOf("."));
  return Object.hasOwn(READ_SCOPE_BY_RESOURCE, resource) ? READ_SCOPE_BY_RESOURCE[resource] : undefined;
}

/** Whether a credential with `grant` may read events of `type` (private teams aside). */
export function mayReadEventType(grant: Pick<ReadGrant, "scopes">, type: string): boolean {
  if (grant.scopes === null) return true;
  const scope = readScopeOf(type);
  return scope === null || (scope !== undefined && grant.scopes.includes(scope));
}

/** Whether a credential with `grant` may read this event in full. */
export function mayReadEvent(grant: ReadGrant, event: { type: string; private_team_id: string | null }): boolean {
  if (event.type === "event.hidden") return true;
  if (
    event.private_team_id !== null &&
    grant.visibleTeams !== "all" &&
    !grant.visibleTeams.includes(event.private_team_id)
  )
    return false;
  return mayReadEventType(grant, event.type);
}

/** The event as `grant` sees it: in full, or the `event.hidden` stand-in with the same seq. */
export function eventAsSeenBy(grant: ReadGrant, event: Envelope & { private_team_id: string | null }): Envelope {
  const { private_team_id: _team, ...envelope } = event;
  return mayReadEvent(grant, event) ? envelope : hiddenStandIn(envelope);
}
