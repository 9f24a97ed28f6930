-- Full-text search over ticket subjects and message text (SQLite FTS5).
-- Contentless tables (the text already lives in tickets/messages) keyed by the source rowid;
-- column `ws` holds one token per workspace so a query can be narrowed inside the index.
-- Triggers keep the index in step inside the same transaction as every write.
CREATE VIRTUAL TABLE ticket_search USING fts5(ws, subject, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE message_search USING fts5(ws, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER tickets_search_insert AFTER INSERT ON tickets BEGIN
  INSERT INTO ticket_search (rowid, ws, subject) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.subject);
END;
--> statement-breakpoint
CREATE TRIGGER tickets_search_update AFTER UPDATE OF subject ON tickets BEGIN
  DELETE FROM ticket_search WHERE rowid = old.rowid;
  INSERT INTO ticket_search (rowid, ws, subject) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.subject);
END;
--> statement-breakpoint
CREATE TRIGGER tickets_search_delete AFTER DELETE ON tickets BEGIN
  DELETE FROM ticket_search WHERE rowid = old.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
  INSERT INTO message_search (rowid, ws, body) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.body_text);
END;
--> statement-breakpoint
CREATE TRIGGER messages_search_update AFTER UPDATE OF body_text ON messages BEGIN
  DELETE FROM message_search WHERE rowid = old.rowid;
  INSERT INTO message_search (rowid, ws, body) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.body_text);
END;
--> statement-breakpoint
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
  DELETE FROM message_search WHERE rowid = old.rowid;
END;
