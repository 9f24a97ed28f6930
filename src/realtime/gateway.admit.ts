import { untilDurable } from "../db/tx";
import { publicEventsSince, replayEvents } from "../events/events.replay";
import { onFrame } from "./gateway.frames";
import { applyGrants } from "./gateway.grants";
import { holdWorkspace, releaseWorkspace } from "./gateway.publish";
import { addTo, grantOf, send, shut, type Gateway, type Grants, type Joining, type Socket } from "./gateway.state";
import { CLOSE } from "./realtime.protocol";

const MAX_REPLAY = 5000;

/** A socket just opened: its grants are read, it gets what it missed, joins its topics, then the frames it sent early. */
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
  // The workspace's publication is held from here until the socket is in (src/realtime/gateway.publish.ts):
  // on SQLite only the store is awaited, which settles within this turn, but on PostgreSQL commits
  // publish meanwhile. What they publish waits, and reaches this socket after its replay, past the
  // replay's last seq, under the grants it joins with.
  const held = holdWorkspace(gateway, data.workspaceId);
  let joined: Promise<void> | null = null;
  try {
    let grants: Grants | null = null;
    let changes = -1;
    const regrant = async () => {
      // A grant change signalled while the grants were read may not be in them: read them again.
      while (data.kind === "agent" && !data.closed && changes !== (gateway.grantChanges.get(data.workspaceId) ?? 0)) {
        changes = gateway.grantChanges.get(data.workspaceId) ?? 0;
        grants = await gateway.currentGrants(data);
      }
    };
    await regrant();
    if (data.closed) return;
    if (data.kind === "agent" && !grants) return shut(ws, CLOSE.accessEnded);
    let after = 0;
    if (data.since !== null)
      after =
        data.kind === "agent"
          ? await replay(gateway, ws, grants!, data.since)
          : await replayPublic(gateway, ws, data.since);
    await regrant();
    if (data.closed) return;
    const entry: Joining = { ws, grants, after, joined: () => {} };
    joined = new Promise((resolve) => {
      entry.joined = () => {
        join(gateway, entry);
        resolve();
      };
    });
    held.joining.push(entry);
  } finally {
    releaseWorkspace(gateway, data.workspaceId, held);
  }
  await joined;
  for (const frame of data.early.splice(0)) if (!data.closed) await onFrame(gateway, ws, frame);
}

/** The socket joins its topics with the grants it was admitted with (or re-read since), and is ready. */
function join(gateway: Gateway, { ws, grants }: Joining): void {
  const data = ws.data;
  if (data.closed) return;
  if (data.kind === "agent") {
    if (!grants) return shut(ws, CLOSE.accessEnded);
    applyGrants(ws, grants);
    addTo(gateway.byWorkspace, data.workspaceId, ws);
    if (data.scopes !== null) addTo(gateway.keysByWorkspace, data.workspaceId, ws);
  }
  for (const topic of data.ownTopics) addTo(gateway.byOwnTopic, topic, ws);
  data.ready = true;
}

/** Sends the socket the workspace's events after `since` as `grants` see them; answers the last seq sent. */
async function replay(gateway: Gateway, ws: Socket, grants: Grants, since: number): Promise<number> {
  const ctx = { workspaceId: ws.data.workspaceId, ...grantOf({ ...ws.data, ...grants }) };
  let cursor = since;
  let sent = 0;
  for (;;) {
    const page = await replayEvents(gateway.deps.db, ctx, cursor, 1000, gateway.deps.events.readScopeOf);
    for (const envelope of page.data) {
      send(ws, JSON.stringify(envelope));
      cursor = Math.max(cursor, envelope.seq);
    }
    sent += page.data.length;
    if (!page.next_cursor) return cursor;
    if (sent >= MAX_REPLAY) {
      shut(ws, CLOSE.replayTooLarge);
      return cursor;
    }
    cursor = Number(page.next_cursor);
  }
}

/** A widget socket's replay: public events of its own contact topic only, seen as visitors see them. */
async function replayPublic(gateway: Gateway, ws: Socket, since: number): Promise<number> {
  const topic = ws.data.ownTopics[0]!;
  const rows = await publicEventsSince(gateway.deps.db, ws.data.workspaceId, since, topic, MAX_REPLAY + 1);
  if (rows.length > MAX_REPLAY) {
    shut(ws, CLOSE.replayTooLarge);
    return since;
  }
  // The last seq replayed: held events past it reach the socket once it joins.
  let last = since;
  for (const row of rows) {
    last = Math.max(last, row.seq);
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
  return last;
}
