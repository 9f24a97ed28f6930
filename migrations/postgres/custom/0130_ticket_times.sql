-- Time rules' times per live ticket: the PostgreSQL twin of migrations/custom/0130_ticket_times.sql
-- (the same table, indexes and triggers; the triggers are PL/pgSQL functions with the SQLite
-- triggers' names and WHEN conditions). sla_breached is boolean (SLA's `breached` of the ticket's
-- jsonb `sla`, false when unset); INSERT OR REPLACE is ON CONFLICT (ticket_id) DO UPDATE and scalar
-- max() is greatest() (ISO text: the C collation compares as SQLite does).
CREATE TABLE ticket_times (
  ticket_id text PRIMARY KEY NOT NULL,
  workspace_id text NOT NULL,
  status text NOT NULL,
  created_at text NOT NULL,
  status_changed_at text NOT NULL,
  customer_message_at text NOT NULL,
  agent_message_at text NOT NULL,
  sla_due_at text NOT NULL,
  sla_breached boolean NOT NULL
);
--> statement-breakpoint
INSERT INTO ticket_times (ticket_id, workspace_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached)
  SELECT t.id, t.workspace_id, t.status, t.created_at,
    coalesce((SELECT max(a.created_at) FROM activities a WHERE a.ticket_id = t.id AND a.type = 'status_changed'), t.created_at),
    coalesce(t.last_customer_message_at, t.created_at),
    coalesce((SELECT max(m.created_at) FROM messages m WHERE m.ticket_id = t.id AND m.kind = 'reply' AND m.direction = 'outbound' AND m.author_type IN ('user', 'api')), t.created_at),
    t.due_at, coalesce(t.sla -> 'breached' = 'true'::jsonb, false)
  FROM tickets t WHERE t.deleted_at IS NULL AND t.merged_into_id IS NULL;
--> statement-breakpoint
CREATE INDEX ticket_times_created_idx ON ticket_times (workspace_id, status, created_at);
--> statement-breakpoint
CREATE INDEX ticket_times_status_changed_idx ON ticket_times (workspace_id, status, status_changed_at);
--> statement-breakpoint
CREATE INDEX ticket_times_customer_idx ON ticket_times (workspace_id, status, customer_message_at);
--> statement-breakpoint
CREATE INDEX ticket_times_agent_idx ON ticket_times (workspace_id, status, agent_message_at);
--> statement-breakpoint
CREATE INDEX ticket_times_sla_due_idx ON ticket_times (workspace_id, status, sla_due_at);
--> statement-breakpoint
CREATE INDEX ticket_times_sla_breached_idx ON ticket_times (workspace_id, status, ticket_id) WHERE sla_breached;
--> statement-breakpoint
CREATE FUNCTION ticket_times_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_times (ticket_id, workspace_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached)
    VALUES (NEW.id, NEW.workspace_id, NEW.status, NEW.created_at, NEW.created_at,
      coalesce(NEW.last_customer_message_at, NEW.created_at), NEW.created_at,
      NEW.due_at, coalesce(NEW.sla -> 'breached' = 'true'::jsonb, false))
    ON CONFLICT (ticket_id) DO UPDATE SET workspace_id = excluded.workspace_id, status = excluded.status,
      created_at = excluded.created_at, status_changed_at = excluded.status_changed_at,
      customer_message_at = excluded.customer_message_at, agent_message_at = excluded.agent_message_at,
      sla_due_at = excluded.sla_due_at, sla_breached = excluded.sla_breached;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_insert AFTER INSERT ON tickets
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL AND NEW.merged_into_id IS NULL)
  EXECUTE FUNCTION ticket_times_insert();
--> statement-breakpoint
CREATE FUNCTION ticket_times_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_times SET status = NEW.status, status_changed_at = NEW.updated_at WHERE ticket_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_status AFTER UPDATE OF status ON tickets
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION ticket_times_status();
--> statement-breakpoint
CREATE FUNCTION ticket_times_sla() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_times SET sla_due_at = NEW.due_at, sla_breached = coalesce(NEW.sla -> 'breached' = 'true'::jsonb, false)
    WHERE ticket_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_sla AFTER UPDATE OF sla, first_responded_at ON tickets
  FOR EACH ROW WHEN (NEW.due_at IS DISTINCT FROM OLD.due_at
    OR coalesce(NEW.sla -> 'breached' = 'true'::jsonb, false) IS DISTINCT FROM coalesce(OLD.sla -> 'breached' = 'true'::jsonb, false))
  EXECUTE FUNCTION ticket_times_sla();
--> statement-breakpoint
CREATE FUNCTION ticket_times_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_times WHERE ticket_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_gone AFTER UPDATE OF deleted_at, merged_into_id ON tickets
  FOR EACH ROW WHEN (NEW.deleted_at IS NOT NULL OR NEW.merged_into_id IS NOT NULL)
  EXECUTE FUNCTION ticket_times_gone();
--> statement-breakpoint
CREATE FUNCTION ticket_times_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_times (ticket_id, workspace_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached)
    VALUES (NEW.id, NEW.workspace_id, NEW.status, NEW.created_at, NEW.updated_at,
      coalesce(NEW.last_customer_message_at, NEW.created_at), NEW.updated_at,
      NEW.due_at, coalesce(NEW.sla -> 'breached' = 'true'::jsonb, false))
    ON CONFLICT (ticket_id) DO UPDATE SET workspace_id = excluded.workspace_id, status = excluded.status,
      created_at = excluded.created_at, status_changed_at = excluded.status_changed_at,
      customer_message_at = excluded.customer_message_at, agent_message_at = excluded.agent_message_at,
      sla_due_at = excluded.sla_due_at, sla_breached = excluded.sla_breached;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_back AFTER UPDATE OF deleted_at, merged_into_id ON tickets
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL AND NEW.merged_into_id IS NULL AND (OLD.deleted_at IS NOT NULL OR OLD.merged_into_id IS NOT NULL))
  EXECUTE FUNCTION ticket_times_back();
--> statement-breakpoint
CREATE FUNCTION ticket_times_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_times WHERE ticket_id = OLD.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_delete AFTER DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION ticket_times_delete();
--> statement-breakpoint
-- From the ticket's own column, so a merge that brings a later customer message moves it too.
CREATE FUNCTION ticket_times_customer_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_times SET customer_message_at = greatest(customer_message_at, NEW.last_customer_message_at) WHERE ticket_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_customer_message AFTER UPDATE OF last_customer_message_at ON tickets
  FOR EACH ROW WHEN (NEW.last_customer_message_at IS NOT NULL AND NEW.last_customer_message_at IS DISTINCT FROM OLD.last_customer_message_at)
  EXECUTE FUNCTION ticket_times_customer_message();
--> statement-breakpoint
CREATE FUNCTION ticket_times_agent_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ticket_times SET agent_message_at = greatest(agent_message_at, NEW.created_at) WHERE ticket_id = NEW.ticket_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_times_agent_message AFTER INSERT ON messages
  FOR EACH ROW WHEN (NEW.kind = 'reply' AND NEW.direction = 'outbound' AND NEW.author_type IN ('user', 'api'))
  EXECUTE FUNCTION ticket_times_agent_message();
