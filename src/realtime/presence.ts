/**
 * Who is looking at a ticket right now (collision detection). Ephemeral by design: held in memory
 * per socket, never stored as events, no seq, never replayed or sent to webhooks; a socket's
 * presence ends when it closes. Only people (not API keys or widget visitors) announce presence,
 * and a roster reaches only sockets present on the same ticket that may still see it.
 *
 * Client frame: `{"type":"presence","ticket_id":"<uuid>"|null,"state":"viewing"|"typing"}`.
 * Server frame: `{"type":"presence","ticket_id":"…","viewers":[{"user_id","name","state"}]}`.
 */
export const PRESENCE_STATES = ["viewing", "typing"] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];

/** What presence reads from a socket: the gateway's own data, kept current by whoever re-scopes it. */
export type PresencePeer = {
  data: {
    workspaceId: string;
    userId: string | null;
    allTeams: boolean;
    teams: string[];
    ready: boolean;
    closed: boolean;
  };
};

type Entry = { ticketId: string; userId: string; name: string; state: PresenceState };
export type PresenceViewer = { user_id: string; name: string; state: PresenceState };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What presence asks the features that own tickets, teams and people (machinery reads no feature table). */
export type PresenceLookups = {
  /** The private team of a live ticket (null: none or public), or undefined when the workspace has no such live ticket. */
  privateTeamOfTicket(
    workspaceId: string,
    ticketId: string,
  ): (string | null | undefined) | Promise<string | null | undefined>;
  /** A person's name, or undefined when there is no such person. */
  userName(userId: string): (string | undefined) | Promise<string | undefined>;
};

export function createPresence<P extends PresencePeer>(deps: {
  lookups: PresenceLookups;
  send: (peer: P, frame: string) => void;
}) {
  const bySocket = new Map<P, Entry>();
  const byTicket = new Map<string, Set<P>>();
  const { privateTeamOfTicket: privateTeamOf, userName } = deps.lookups;

  /** Read against the socket's current grants, so a re-scoped socket stops seeing a private team's roster. */
  const maySee = (peer: P, team: string | null) =>
    team === null || peer.data.allTeams || peer.data.teams.includes(team);

  function detach(peer: P): string | null {
    const entry = bySocket.get(peer);
    if (!entry) return null;
    bySocket.delete(peer);
    const set = byTicket.get(entry.ticketId);
    set?.delete(peer);
    if (set && set.size === 0) byTicket.delete(entry.ticketId);
    return entry.ticketId;
  }

  /** Sends the ticket's roster to every socket on it that may see it; drops the ones that no longer may. */
  async function broadcast(workspaceId: string, ticketId: string): Promise<void> {
    const peers = byTicket.get(ticketId);
    if (!peers?.size) return;
    const team = await privateTeamOf(workspaceId, ticketId);
    const allowed = [...peers].filter(
      (peer) => team !== undefined && !peer.data.closed && peer.data.workspaceId === workspaceId && maySee(peer, team),
    );
    for (const peer of peers) if (!allowed.includes(peer)) detach(peer);
    // One line per person: several tabs of one agent show once, typing wins over viewing.
    const viewers = new Map<string, PresenceViewer>();
    for (const peer of allowed) {
      const entry = bySocket.get(peer)!;
      const seen = viewers.get(entry.userId);
      if (!seen || (seen.state === "viewing" && entry.state === "typing"))
        viewers.set(entry.userId, { user_id: entry.userId, name: entry.name, state: entry.state });
    }
    const frame = JSON.stringify({ type: "presence", ticket_id: ticketId, viewers: [...viewers.values()] });
    for (const peer of allowed) deps.send(peer, frame);
  }

  return {
    /** Handles a client's presence frame; answers false for a malformed one (the caller closes the socket). */
    async update(peer: P, frame: { ticket_id?: unknown; state?: unknown }): Promise<boolean> {
      const ticketId = frame.ticket_id;
      const state = frame.state ?? "viewing";
      if (ticketId !== null && (typeof ticketId !== "string" || !UUID.test(ticketId))) return false;
      if (!PRESENCE_STATES.includes(state as PresenceState)) return false;
      const { userId, workspaceId, ready } = peer.data;
      if (!ready || !userId) return true;
      const previous = bySocket.get(peer);
      if (ticketId === null) {
        if (previous) {
          detach(peer);
          await broadcast(workspaceId, previous.ticketId);
        }
        return true;
      }
      const id = ticketId.toLowerCase();
      const team = await privateTeamOf(workspaceId, id);
      // A ticket the socket may not see is treated like a missing one: nothing is announced or answered.
      if (team === undefined || !maySee(peer, team)) {
        if (previous) {
          detach(peer);
          await broadcast(workspaceId, previous.ticketId);
        }
        return true;
      }
      if (previous && previous.ticketId === id && previous.state === state) return true;
      if (previous && previous.ticketId !== id) {
        detach(peer);
        await broadcast(workspaceId, previous.ticketId);
      }
      const name = previous?.name ?? (await userName(userId)) ?? "";
      bySocket.set(peer, { ticketId: id, userId, name, state: state as PresenceState });
      let set = byTicket.get(id);
      if (!set) {
        set = new Set();
        byTicket.set(id, set);
      }
      set.add(peer);
      await broadcast(workspaceId, id);
      return true;
    },
    /** The socket closed: its presence ends and the others on that ticket hear of it. */
    async leave(peer: P): Promise<void> {
      const ticketId = detach(peer);
      if (ticketId) await broadcast(peer.data.workspaceId, ticketId);
    },
    /** Sockets currently present (for tests and metrics). */
    size: () => bySocket.size,
  };
}
