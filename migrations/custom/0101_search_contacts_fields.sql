-- Full-text search over contacts (name, email) and custom field text values (field_values.value_text,
-- owned by custom fields). Same scheme as 0100: contentless, keyed by source rowid, `ws` token column.
CREATE VIRTUAL TABLE contact_search USING fts5(ws, name, email, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE VIRTUAL TABLE field_value_search USING fts5(ws, value, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO contact_search (rowid, ws, name, email) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.name, coalesce(new.email, ''));
END;
--> statement-breakpoint
CREATE TRIGGER contacts_search_update AFTER UPDATE OF name, email ON contacts BEGIN
  DELETE FROM contact_search WHERE rowid = old.rowid;
  INSERT INTO contact_search (rowid, ws, name, email) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.name, coalesce(new.email, ''));
END;
--> statement-breakpoint
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM contact_search WHERE rowid = old.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER field_values_search_insert AFTER INSERT ON field_values WHEN new.value_text IS NOT NULL BEGIN
  INSERT INTO field_value_search (rowid, ws, value) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.value_text);
END;
--> statement-breakpoint
CREATE TRIGGER field_values_search_update AFTER UPDATE OF value_text ON field_values BEGIN
  DELETE FROM field_value_search WHERE rowid = old.rowid;
  INSERT INTO field_value_search (rowid, ws, value) SELECT new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.value_text WHERE new.value_text IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER field_values_search_delete AFTER DELETE ON field_values BEGIN
  DELETE FROM field_value_search WHERE rowid = old.rowid;
END;
