import { untilDurable } from "../db/tx";
import { publicEventsSince, replayEvents } from "../events/events.replay";
import { onFrame } from "./gateway.frames";
import { applyGrants, grantOf } from "./gateway.grants";
import { addTo, send, shut, type Gateway, type Socket } from "./gateway.state";
import { CLOSE } from "./realtime.protocol";

const MAX_REPLAY = 5000;

/** A socket just opened: its grants are read, it joins its topics, gets what it missed, then the frames it sent early. */
export async function admit(gateway: Gateway, ws: Socket): Promise<void> {
  const { db } = gateway.deps;
  const data = ws.data;
  // The token was verified before the upgrade. The replay reads this connection's view, which includes
  // the turn's changes not committed yet (group commit); those are published live once committed. Wait
  // until none are pending, so each event reaches the socket once: by the replay if committed before,
  // live if after.
  for (let durable = untilDurable(db, true); durable; durable = untilDurable(db, true))
    await durable.catch(() => undefined);
  if (data.closed) return;
  // From here only the store is awaited, which settles within this turn, while commits publish
  // their events when the turn ends: no committed event or grant change can slip between reading
  // the grants, the replay and the subscription.
  if (data.kind === "agent") {
    const grants = await gateway.currentGrants(data);
    if (data.closed) return;
    if (!grants) return shut(ws, CLOSE.accessEnded);
    applyGrants(ws, grants);
    addTo(gateway.byWorkspace, data.workspaceId, ws);
    if (data.scopes !== null) addTo(gateway.keysByWorkspace, data.workspaceId, ws);
  }
  for (const topic of data.ownTopics) addTo(gateway.byOwnTopic, topic, ws);
  data.ready = true;
  if (data.since !== null) {
    if (data.kind === "agent") await replay(gateway, ws, data.since);
    else await replayPublic(gateway, ws, data.since);
  }
  for (const frame of data.early.splice(0)) if (!data.closed) await onFrame(gateway, ws, frame);
}

async function replay(gateway: Gateway, ws: Socket, since: number): Promise<void> {
  const ctx = { workspaceId: ws.data.workspaceId, ...grantOf(ws.data) };
  let cursor = since;
  let sent = 0;
  for (;;) {
    const page = await replayEvents(gateway.deps.db, ctx, cursor, 1000, gateway.deps.events.readScopeOf);
    for (const envelope of page.data) send(ws, JSON.stringify(envelope));
    sent += page.data.length;
    if (!page.next_cursor) return;
    if (sent >= MAX_REPLAY) return shut(ws, CLOSE.replayTooLarge);
    cursor = Number(page.next_cursor);
  }
}

/** A widget socket's replay: public events of its own contact topic only, seen as visitors see them. */
async function replayPublic(gateway: Gateway, ws: Socket, since: number): Promise<void> {
  const topic = ws.data.ownTopics[0]!;
  const rows = await publicEventsSince(gateway.deps.db, ws.data.workspaceId, since, topic, MAX_REPLAY + 1);
  if (rows.length > MAX_REPLAY) return shut(ws, CLOSE.replayTooLarge);
  for (const row of rows) {
    const topics = JSON.parse(row.topics) as string[];
    if (!topics.includes(topic)) continue;
    const view = gateway.deps.lookups.visitorView({
      id: row.id,
      seq: row.seq,
      workspace_id: row.workspace_id,
      type: row.type,
      visibility: row.visibility,
      topics,
      data: JSON.parse(row.data) as Record<string, unknown>,
      occurred_at: row.occurred_at,
    });
    if (view) send(ws, JSON.stringify(view));
  }
}
