import { hiddenStandIn, personOf, workspaceTopic, type Envelope, type StoredEvent } from "../events/envelope";
import { FEED_ON } from "../events/feed";
import { mayReadEvent } from "../events/visibility";
import { grantOf, send, type Gateway, type Held, type Joining, type Socket } from "./gateway.state";

/**
 * Fans committed events out once per socket: Bun's pub/sub for the main topic, our own index for
 * extra topics and for the `event.hidden` stand-ins of private-team events.
 */
export function publishCommitted(gateway: Gateway, events: StoredEvent[]): void {
  if (!gateway.server) {
    // PostgreSQL: the feed publishes what commits before the server is attached; a socket's replay
    // past it must not wait for it (see `waiting`).
    if (FEED_ON) for (const event of events) notePublished(gateway, event);
    return;
  }
  for (const event of events) {
    const held = gateway.held.get(event.workspace_id);
    if (held) held.events.push(event);
    else publishEvent(gateway, event);
  }
}

/**
 * Holds the workspace's publication while a socket of it reads its grants (an admission, or a
 * re-read after a grant change): the read awaits the store (the network, on PostgreSQL), and an
 * event committed meanwhile must reach the socket once and under the grants it will have, as on
 * SQLite, where no commit can publish while such a read runs. Every hold is released once
 * (releaseWorkspace); the last release publishes what waited.
 */
export function holdWorkspace(gateway: Gateway, workspaceId: string): Held {
  let held = gateway.held.get(workspaceId);
  if (!held) {
    held = { holders: 0, events: [], joining: [] };
    gateway.held.set(workspaceId, held);
  }
  held.holders++;
  return held;
}

/**
 * Ends one hold; the last publishes the events that waited, in order, to the sockets already in,
 * then lets the sockets admitted meanwhile in, each given the waiting events past its replay.
 */
export function releaseWorkspace(gateway: Gateway, workspaceId: string, held: Held): void {
  if (--held.holders > 0) return;
  if (gateway.held.get(workspaceId) === held) gateway.held.delete(workspaceId);
  for (const event of held.events) publishEvent(gateway, event);
  for (const joining of held.joining) {
    if (FEED_ON && joining.after > (gateway.published.get(workspaceId) ?? 0)) {
      waitForFeed(gateway, workspaceId, joining);
      continue;
    }
    joining.joined();
    if (!joining.ws.data.ready || joining.ws.data.closed) continue;
    for (const event of held.events) if (event.seq > joining.after) publishEvent(gateway, event, joining.ws);
  }
}

const notePublished = (gateway: Gateway, event: StoredEvent) =>
  gateway.published.set(event.workspace_id, Math.max(gateway.published.get(event.workspace_id) ?? 0, event.seq));

/**
 * PostgreSQL: the socket replayed events the feed has not published yet (their commit was visible
 * to the replay first): it joins once the feed publishes its last replayed seq, so it gets each
 * event once, by the replay up to there and live after.
 */
function waitForFeed(gateway: Gateway, workspaceId: string, joining: Joining): void {
  const list = gateway.waiting.get(workspaceId);
  if (list) list.push(joining);
  else gateway.waiting.set(workspaceId, [joining]);
}

/** Lets in the sockets waiting for this event's seq; one whose replay ended before it gets it too. */
function joinWaiting(gateway: Gateway, event: StoredEvent): void {
  const list = gateway.waiting.get(event.workspace_id);
  if (!list) return;
  const ready = list.filter((joining) => joining.after <= event.seq);
  if (ready.length === 0) return;
  const rest = list.filter((joining) => joining.after > event.seq);
  if (rest.length > 0) gateway.waiting.set(event.workspace_id, rest);
  else gateway.waiting.delete(event.workspace_id);
  for (const joining of ready) {
    joining.joined();
    if (joining.after < event.seq && joining.ws.data.ready && !joining.ws.data.closed)
      publishEvent(gateway, event, joining.ws);
  }
}

/** Publishes one event to every socket concerned, or (`only`) to that one socket as the fan-out would. */
function publishEvent(gateway: Gateway, event: StoredEvent, only?: Socket): void {
  if (!gateway.server) return;
  if (!only) notePublished(gateway, event);
  fanOut(gateway, event, only);
  // After the fan-out: a socket let in by this seq has it from its replay (or is sent it now).
  if (FEED_ON && !only) joinWaiting(gateway, event);
}

function fanOut(gateway: Gateway, event: StoredEvent, only?: Socket): void {
  const { server, byWorkspace, byOwnTopic } = gateway;
  if (!server) return;
  // Nobody of that workspace connected and nobody on its extra topics: nothing to serialise
  // (a message event carries its whole body; inbound mail would pay for it on every message).
  if (
    !byWorkspace.get(event.workspace_id)?.size &&
    !event.topics.some((topic, i) => i > 0 && byOwnTopic.get(topic)?.size)
  )
    return;
  const { private_team_id: teamId, ...envelope } = event;
  const full = JSON.stringify(envelope);
  const main = envelope.topics[0] ?? workspaceTopic(event.workspace_id);
  // A personal event (a notification) goes in full to its person's sockets of this workspace only.
  const person = personOf(envelope);
  if (!person) {
    if (!only) server.publish(main, full);
    else if (only.isSubscribed(main)) send(only, full);
  }
  const reached = new Set<Socket>();
  let standIn: string | null = null;
  const hidden = () => (standIn ??= JSON.stringify(hiddenStandIn(envelope as Envelope)));
  // Sockets the Bun topic did not reach: every socket of the workspace for a private team's or
  // a personal event, else only API keys'. Each gets the event in full or as a stand-in, per its grants.
  for (const ws of (teamId || person ? byWorkspace : gateway.keysByWorkspace).get(event.workspace_id) ?? []) {
    if ((only && ws !== only) || !ws.data.ready || ws.isSubscribed(main)) continue;
    reached.add(ws);
    send(ws, mayReadEvent(grantOf(ws.data), event, gateway.deps.events.readScopeOf) ? full : hidden());
  }
  publishToOwnTopics(gateway, event, full, main, reached, only);
}

/** The event's extra topics (user:, contact:): sockets not reached yet, visitors getting their own view of public events. */
function publishToOwnTopics(
  gateway: Gateway,
  event: StoredEvent,
  full: string,
  main: string,
  reached: Set<Socket>,
  only?: Socket,
): void {
  const { private_team_id: teamId, ...envelope } = event;
  let visitorFrame: string | null | undefined;
  for (const topic of envelope.topics.slice(1)) {
    for (const ws of gateway.byOwnTopic.get(topic) ?? []) {
      if ((only && ws !== only) || !ws.data.ready || reached.has(ws) || ws.isSubscribed(main)) continue;
      if (ws.data.kind === "widget") {
        if (envelope.visibility !== "public" || ws.data.workspaceId !== event.workspace_id) continue;
        if (visitorFrame === undefined) {
          const view = gateway.deps.lookups.visitorView(envelope as Envelope);
          visitorFrame = view ? JSON.stringify(view) : null;
        }
        reached.add(ws);
        if (visitorFrame) send(ws, visitorFrame);
        continue;
      }
      if (
        teamId &&
        !(ws.data.allTeams && ws.data.workspaceId === event.workspace_id) &&
        !ws.data.teams.includes(teamId)
      )
        continue;
      reached.add(ws);
      send(ws, full);
    }
  }
}
