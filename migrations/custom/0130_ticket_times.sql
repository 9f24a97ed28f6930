-- Time rules compare how long a live ticket has been in its status, since the customer and an agent
-- last wrote (its creation until then) and its SLA deadline. Those times sit here, one row per live
-- ticket, indexed per (workspace, status, time), so a rule reads only the tickets whose time has
-- come instead of scanning the workspace. Triggers keep the rows, so every writer of tickets and
-- messages (patches, replies, merges, imports, purges) keeps them right without knowing of them.
CREATE TABLE ticket_times (
  ticket_id TEXT PRIMARY KEY NOT NULL,
  workspace_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  status_changed_at TEXT NOT NULL,
  customer_message_at TEXT NOT NULL,
  agent_message_at TEXT NOT NULL,
  sla_due_at TEXT NOT NULL,
  sla_breached INTEGER NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO ticket_times (ticket_id, workspace_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached)
  SELECT t.id, t.workspace_id, t.status, t.created_at,
    coalesce((SELECT max(a.created_at) FROM activities a WHERE a.ticket_id = t.id AND a.type = 'status_changed'), t.created_at),
    coalesce(t.last_customer_message_at, t.created_at),
    coalesce((SELECT max(m.created_at) FROM messages m WHERE m.ticket_id = t.id AND m.kind = 'reply' AND m.direction = 'outbound' AND m.author_type IN ('user', 'api')), t.created_at),
    t.due_at, coalesce(json_extract(t.sla, '$.breached'), 0)
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
CREATE INDEX ticket_times_sla_breached_idx ON ticket_times (workspace_id, status, ticket_id) WHERE sla_breached = 1;
--> statement-breakpoint
CREATE TRIGGER ticket_times_insert AFTER INSERT ON tickets WHEN new.deleted_at IS NULL AND new.merged_into_id IS NULL BEGIN
  INSERT OR REPLACE INTO ticket_times (ticket_id, workspace_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached)
    VALUES (new.id, new.workspace_id, new.status, new.created_at, new.created_at,
      coalesce(new.last_customer_message_at, new.created_at), new.created_at,
      new.due_at, coalesce(json_extract(new.sla, '$.breached'), 0));
END;
--> statement-breakpoint
CREATE TRIGGER ticket_times_status AFTER UPDATE OF status ON tickets WHEN new.status IS NOT old.status BEGIN
  UPDATE ticket_times SET status = new.status, status_changed_at = new.updated_at WHERE ticket_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_times_sla AFTER UPDATE OF sla, first_responded_at ON tickets
  WHEN new.due_at IS NOT old.due_at OR coalesce(json_extract(new.sla, '$.breached'), 0) IS NOT coalesce(json_extract(old.sla, '$.breached'), 0) BEGIN
  UPDATE ticket_times SET sla_due_at = new.due_at, sla_breached = coalesce(json_extract(new.sla, '$.breached'), 0)
    WHERE ticket_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_times_gone AFTER UPDATE OF deleted_at, merged_into_id ON tickets
  WHEN new.deleted_at IS NOT NULL OR new.merged_into_id IS NOT NULL BEGIN
  DELETE FROM ticket_times WHERE ticket_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_times_back AFTER UPDATE OF deleted_at, merged_into_id ON tickets
  WHEN new.deleted_at IS NULL AND new.merged_into_id IS NULL AND (old.deleted_at IS NOT NULL OR old.merged_into_id IS NOT NULL) BEGIN
  INSERT OR REPLACE INTO ticket_times (ticket_id, workspace_id, status, created_at, status_changed_at, customer_message_at, agent_message_at, sla_due_at, sla_breached)
    VALUES (new.id, new.workspace_id, new.status, new.created_at, new.updated_at,
      coalesce(new.last_customer_message_at, new.created_at), new.updated_at,
      new.due_at, coalesce(json_extract(new.sla, '$.breached'), 0));
END;
--> statement-breakpoint
CREATE TRIGGER ticket_times_delete AFTER DELETE ON tickets BEGIN
  DELETE FROM ticket_times WHERE ticket_id = old.id;
END;
--> statement-breakpoint
-- From the ticket's own column, so a merge that brings a later customer message moves it too.
CREATE TRIGGER ticket_times_customer_message AFTER UPDATE OF last_customer_message_at ON tickets
  WHEN new.last_customer_message_at IS NOT NULL AND new.last_customer_message_at IS NOT old.last_customer_message_at BEGIN
  UPDATE ticket_times SET customer_message_at = max(customer_message_at, new.last_customer_message_at) WHERE ticket_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_times_agent_message AFTER INSERT ON messages
  WHEN new.kind = 'reply' AND new.direction = 'outbound' AND new.author_type IN ('user', 'api') BEGIN
  UPDATE ticket_times SET agent_message_at = max(agent_message_at, new.created_at) WHERE ticket_id = new.ticket_id;
END;
