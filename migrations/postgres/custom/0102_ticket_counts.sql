-- Inbox counts kept by triggers: the PostgreSQL twin of migrations/custom/0102_ticket_counts.sql and
-- 0104_ticket_counts_snoozed.sql (the table as 0104 leaves it). Live tickets per (workspace, status,
-- spam, snoozed, assignee, team); '' stands for "no assignee" / "no team" so the bucket key can be a
-- primary key. The flags are boolean, as tickets.spam is; the triggers are PL/pgSQL functions with
-- the SQLite triggers' names, columns and WHEN conditions.
CREATE TABLE ticket_counts (
  workspace_id text NOT NULL,
  status text NOT NULL,
  spam boolean NOT NULL,
  snoozed boolean NOT NULL,
  assignee_id text NOT NULL,
  team_id text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (workspace_id, status, spam, snoozed, assignee_id, team_id)
);
--> statement-breakpoint
INSERT INTO ticket_counts (workspace_id, status, spam, snoozed, assignee_id, team_id, n)
  SELECT workspace_id, status, spam, snoozed_until IS NOT NULL, coalesce(assignee_id, ''), coalesce(team_id, ''), count(*)
  FROM tickets WHERE deleted_at IS NULL AND merged_into_id IS NULL
  GROUP BY workspace_id, status, spam, snoozed_until IS NOT NULL, coalesce(assignee_id, ''), coalesce(team_id, '');
--> statement-breakpoint
CREATE FUNCTION tickets_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_counts (workspace_id, status, spam, snoozed, assignee_id, team_id, n)
    VALUES (NEW.workspace_id, NEW.status, NEW.spam, NEW.snoozed_until IS NOT NULL, coalesce(NEW.assignee_id, ''), coalesce(NEW.team_id, ''), 1)
    ON CONFLICT (workspace_id, status, spam, snoozed, assignee_id, team_id) DO UPDATE SET n = ticket_counts.n + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_insert AFTER INSERT ON tickets
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL AND NEW.merged_into_id IS NULL)
  EXECUTE FUNCTION tickets_counts_insert();
--> statement-breakpoint
CREATE FUNCTION tickets_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_at IS NULL AND OLD.merged_into_id IS NULL THEN
    UPDATE ticket_counts SET n = n - 1
      WHERE workspace_id = OLD.workspace_id AND status = OLD.status AND spam = OLD.spam AND snoozed = (OLD.snoozed_until IS NOT NULL)
        AND assignee_id = coalesce(OLD.assignee_id, '') AND team_id = coalesce(OLD.team_id, '');
  END IF;
  IF NEW.deleted_at IS NULL AND NEW.merged_into_id IS NULL THEN
    INSERT INTO ticket_counts (workspace_id, status, spam, snoozed, assignee_id, team_id, n)
      VALUES (NEW.workspace_id, NEW.status, NEW.spam, NEW.snoozed_until IS NOT NULL, coalesce(NEW.assignee_id, ''), coalesce(NEW.team_id, ''), 1)
      ON CONFLICT (workspace_id, status, spam, snoozed, assignee_id, team_id) DO UPDATE SET n = ticket_counts.n + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_update AFTER UPDATE OF status, spam, snoozed_until, assignee_id, team_id, deleted_at, merged_into_id ON tickets
  FOR EACH ROW EXECUTE FUNCTION tickets_counts_update();
--> statement-breakpoint
CREATE FUNCTION tickets_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_counts SET n = n - 1
    WHERE workspace_id = OLD.workspace_id AND status = OLD.status AND spam = OLD.spam AND snoozed = (OLD.snoozed_until IS NOT NULL)
      AND assignee_id = coalesce(OLD.assignee_id, '') AND team_id = coalesce(OLD.team_id, '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_counts_delete AFTER DELETE ON tickets
  FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND OLD.merged_into_id IS NULL)
  EXECUTE FUNCTION tickets_counts_delete();
