import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import { definePort, type Ports } from "../lib/ports";
import type { CredentialLookups } from "./credentials";
import type { VisitorResolver } from "./visitors";

/**
 * What the credential resolver asks the features that own the data (machinery reads no feature
 * table). Each answer prepares its statements once per database, so a port gives the function
 * that prepares it; src/compose.ts calls it with the desk's database.
 */
type Prepared<T> = (db: Db) => T;

/** The key a secret hashes to and its last use (the api-keys feature). */
export const keyLookups = definePort<Prepared<Pick<CredentialLookups, "keyByHash" | "touchKey">>>("auth.keyLookups");

/** A person's role, workspaces and the workspaces requiring single sign-on of them (the workspaces feature). */
export const membershipLookups =
  definePort<Prepared<Pick<CredentialLookups, "memberRole" | "workspacesOf" | "ssoOnlyWorkspaces">>>(
    "auth.membershipLookups",
  );

/** The private teams of a workspace a person is in (the teams feature). */
export const privateTeamsOfMember = definePort<Prepared<CredentialLookups["privateTeams"]>>("auth.privateTeams");

/** The session an access token names (the identity feature, which owns sessions). */
export const sessionsById = definePort<Prepared<CredentialLookups["sessionById"]>>("auth.sessions");

/** Chat widget visitors' sessions, which the guard's `visitor: true` routes resolve (the widget feature). */
export const visitorSessions = definePort<(db: Db, clock: Clock) => VisitorResolver>("auth.visitorSessions");

type VisitorCaller = { scope: string; headers: Record<string, string> } | null;

/**
 * The HTTP layer's idempotency scope of a widget visitor's request, with the CORS headers a replayed
 * answer carries (the widget feature); null when the request carries no live visitor credential.
 */
export const visitorCaller =
  definePort<(deps: { db: Db; clock: Clock }) => (request: Request) => VisitorCaller | Promise<VisitorCaller>>(
    "auth.visitorCaller",
  );

/** The credential resolver's lookups over a desk's database, from the features' answers. */
export function credentialLookupsOf(ports: Ports, db: Db): CredentialLookups {
  return {
    ...ports.get(keyLookups)(db),
    ...ports.get(membershipLookups)(db),
    privateTeams: ports.get(privateTeamsOfMember)(db),
    sessionById: ports.get(sessionsById)(db),
  };
}
