import type { CredentialLookups } from "../auth/credentials";
import type { Db } from "../db/database";
import { definePort, type Ports } from "../lib/ports";
import type { GatewayLookups } from "./gateway.state";

/**
 * What the gateway asks beyond the credential lookups (src/auth/auth.ports.ts), each from the
 * feature that owns the data; a port gives the function that prepares the lookup for a database.
 */
type Prepared<T> = (db: Db) => T;

/** The scopes of a key still usable (the api-keys feature). */
export const liveKeyScopesLookup = definePort<Prepared<GatewayLookups["liveKeyScopes"]>>("realtime.liveKeyScopes");

/** Each workspace's last stored event seq (the workspaces feature, whose rows hold the counters). */
export const storedSeqs = definePort<Prepared<GatewayLookups["storedSeqs"]>>("realtime.storedSeqs");

/** Who hears typing on a chat ticket, and which private team a ticket is of (the tickets feature). */
export const ticketLookups =
  definePort<Prepared<Pick<GatewayLookups, "chatContactOf" | "privateTeamOfTicket">>>("realtime.ticketLookups");

/** A person's name for presence (the identity feature). */
export const userNameLookup = definePort<Prepared<GatewayLookups["userName"]>>("realtime.userName");

/** What a widget visitor receives of a public event (the widget feature). */
export const visitorViewOf = definePort<GatewayLookups["visitorView"]>("realtime.visitorViewOf");

/** The gateway's lookups over a desk's database: the credential resolver's grants and sessions, and the features' answers. */
export function gatewayLookupsOf(
  ports: Ports,
  db: Db,
  credentials: Pick<CredentialLookups, "memberRole" | "privateTeams" | "sessionById">,
): GatewayLookups {
  return {
    memberRole: credentials.memberRole,
    privateTeams: credentials.privateTeams,
    sessionById: credentials.sessionById,
    liveKeyScopes: ports.get(liveKeyScopesLookup)(db),
    storedSeqs: ports.get(storedSeqs)(db),
    ...ports.get(ticketLookups)(db),
    userName: ports.get(userNameLookup)(db),
    visitorView: ports.get(visitorViewOf),
  };
}
