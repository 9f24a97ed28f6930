export type Visibility = "agents" | "public";

/** SPEC.md's event envelope; `data` objects are the same JSON the REST API returns. */
export type Envelope = {
  id: string;
  seq: number;
  workspace_id: string;
  type: string;
  visibility: Visibility;
  topics: string[];
  data: Record<string, unknown>;
  occurred_at: string;
};

/** A stored event plus what decides who may see it. */
export type StoredEvent = Envelope & { private_team_id: string | null };

/** An events row as SQLite answers it: topics and data as the stored JSON text. */
export type StoredEventRow = Omit<StoredEvent, "topics" | "data"> & { topics: string; data: string };

export const storedEventOf = (row: StoredEventRow): StoredEvent => ({
  id: row.id,
  seq: row.seq,
  workspace_id: row.workspace_id,
  type: row.type,
  visibility: row.visibility,
  topics: JSON.parse(row.topics) as string[],
  data: JSON.parse(row.data) as Record<string, unknown>,
  occurred_at: row.occurred_at,
  private_team_id: row.private_team_id,
});

export const workspaceTopic = (workspaceId: string) => `workspace:${workspaceId}`;
export const teamTopic = (workspaceId: string, teamId: string) => `team:${workspaceId}:${teamId}`;
export const userTopic = (userId: string) => `user:${userId}`;
export const contactTopic = (workspaceId: string, contactId: string) => `contact:${workspaceId}:${contactId}`;

/**
 * The person a personal event belongs to (its main topic is their `user:<uid>`, as for
 * `notification.created`), or null. Only that person's sockets and replays get it in full; everyone
 * else in the workspace gets the `event.hidden` stand-in, so seqs stay contiguous for all.
 */
export function personOf(event: Pick<Envelope, "topics">): string | null {
  const main = event.topics[0];
  return main?.startsWith("user:") ? main.slice(5) : null;
}

/** What the workspace topic (and replay) shows in place of an event about a private team. */
export function hiddenStandIn(event: Envelope): Envelope {
  return {
    id: event.id,
    seq: event.seq,
    workspace_id: event.workspace_id,
    type: "event.hidden",
    visibility: "agents",
    topics: [workspaceTopic(event.workspace_id)],
    data: {},
    occurred_at: event.occurred_at,
  };
}
