-- Consumer cursors, one row per (workspace, consumer): the PostgreSQL twin of
-- migrations/custom/0140_consumer_cursors.sql. A new database has no events to seed them from.
CREATE TABLE event_consumer_cursors (
  workspace_id text NOT NULL,
  consumer text NOT NULL,
  last_seq bigint NOT NULL,
  updated_at text NOT NULL,
  PRIMARY KEY (workspace_id, consumer)
);
