-- The event seq moves from the workspaces row to the event store's own counter (event_seqs), and
-- each consumer's cursor from one global events rowid to a seq per workspace
-- (event_consumer_cursors). Both are seeded here so an upgraded desk continues every workspace's
-- seqs and its consumers neither replay nor skip an event. Within a workspace, seqs grew with rowids
-- (one writer), so a consumer's old rowid cursor maps to the newest seq at or before it; a workspace
-- whose events up to the cursor were all pruned starts before its oldest retained event, or at its
-- last seq when it has none left. The cursors are keyed by workspace first, WITHOUT ROWID, so the
-- advances of every consumer after one event touch one page, not one per consumer.
CREATE TABLE event_consumer_cursors (
  workspace_id TEXT NOT NULL,
  consumer TEXT NOT NULL,
  last_seq INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, consumer)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO event_seqs (workspace_id, last_seq)
SELECT w.id, max(w.event_seq, coalesce((SELECT max(e.seq) FROM events e WHERE e.workspace_id = w.id), 0))
FROM workspaces w WHERE true
ON CONFLICT (workspace_id) DO NOTHING;
--> statement-breakpoint
INSERT INTO event_consumer_cursors (consumer, workspace_id, last_seq, updated_at)
SELECT c.name, s.workspace_id,
  coalesce(
    (SELECT e.seq FROM events e WHERE e.workspace_id = s.workspace_id AND e.rowid <= c.last_rowid ORDER BY e.seq DESC LIMIT 1),
    (SELECT min(e.seq) - 1 FROM events e WHERE e.workspace_id = s.workspace_id),
    s.last_seq
  ),
  c.updated_at
FROM event_consumers c CROSS JOIN event_seqs s WHERE s.last_seq > 0
ON CONFLICT (consumer, workspace_id) DO NOTHING;
