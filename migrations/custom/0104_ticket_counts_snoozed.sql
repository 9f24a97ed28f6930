-- Snoozed tickets leave the working folders until they wake, so the inbox count buckets gain a
-- `snoozed` key (1 while snoozed_until is set): the Snoozed folder and the working folders are
-- then counted from these few rows like the others. The buckets are rebuilt from the tickets.
DROP TRIGGER tickets_counts_insert;
--> statement-breakpoint
DROP TRIGGER tickets_counts_update;
--> statement-breakpoint
DROP TRIGGER tickets_counts_delete;
--> statement-breakpoint
DROP TABLE ticket_counts;
--> statement-breakpoint
CREATE TABLE ticket_counts (
  workspace_id TEXT NOT NULL,
  status TEXT NOT NULL,
  spam INTEGER NOT NULL,
  snoozed INTEGER NOT NULL,
  assignee_id TEXT NOT NULL,
  team_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, status, spam, snoozed, assignee_id, team_id)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO ticket_counts (workspace_id, status, spam, snoozed, assignee_id, team_id, n)
  SELECT workspace_id, status, spam, snoozed_until IS NOT NULL, coalesce(assignee_id, ''), coalesce(team_id, ''), count(*)
  FROM tickets WHERE deleted_at IS NULL AND merged_into_id IS NULL
  GROUP BY workspace_id, status, spam, snoozed_until IS NOT NULL, coalesce(assignee_id, ''), coalesce(team_id, '');
--> statement-breakpoint
CREATE TRIGGER tickets_counts_insert AFTER INSERT ON tickets WHEN new.deleted_at IS NULL AND new.merged_into_id IS NULL BEGIN
  INSERT INTO ticket_counts (workspace_id, status, spam, snoozed, assignee_id, team_id, n)
    VALUES (new.workspace_id, new.status, new.spam, new.snoozed_until IS NOT NULL, coalesce(new.assignee_id, ''), coalesce(new.team_id, ''), 1)
    ON CONFLICT (workspace_id, status, spam, snoozed, assignee_id, team_id) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_update AFTER UPDATE OF status, spam, snoozed_until, assignee_id, team_id, deleted_at, merged_into_id ON tickets BEGIN
  UPDATE ticket_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND old.merged_into_id IS NULL
      AND workspace_id = old.workspace_id AND status = old.status AND spam = old.spam AND snoozed = (old.snoozed_until IS NOT NULL)
      AND assignee_id = coalesce(old.assignee_id, '') AND team_id = coalesce(old.team_id, '');
  INSERT INTO ticket_counts (workspace_id, status, spam, snoozed, assignee_id, team_id, n)
    SELECT new.workspace_id, new.status, new.spam, new.snoozed_until IS NOT NULL, coalesce(new.assignee_id, ''), coalesce(new.team_id, ''), 1
    WHERE new.deleted_at IS NULL AND new.merged_into_id IS NULL
    ON CONFLICT (workspace_id, status, spam, snoozed, assignee_id, team_id) DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_delete AFTER DELETE ON tickets WHEN old.deleted_at IS NULL AND old.merged_into_id IS NULL BEGIN
  UPDATE ticket_counts SET n = n - 1
    WHERE workspace_id = old.workspace_id AND status = old.status AND spam = old.spam AND snoozed = (old.snoozed_until IS NOT NULL)
      AND assignee_id = coalesce(old.assignee_id, '') AND team_id = coalesce(old.team_id, '');
END;
