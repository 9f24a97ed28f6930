-- Full-text search, PostgreSQL's twin of migrations/custom/0100, 0101, 0103, 0105 and 0120 (SQLite's
-- contentless FTS5 tables). One table per index, named as SQLite's, keyed by the owner's id (`rid`;
-- field values by their own key, `rid` being the record), with a `tsvector` document and a GIN index,
-- kept by PL/pgSQL triggers in the writer's transaction: nothing is staged (0103 has no twin).
-- `seq` is the index's insertion order (SQLite's rowid order): hits are read newest first by it.
-- The text is folded as SQLite's `unicode61 remove_diacritics 2` tokenizer folds it: decomposed and
-- stripped of combining marks, lower-cased, every run of characters other than letters and digits a
-- separator (PostgreSQL's parser would otherwise keep emails, hosts and hyphenated words whole), then
-- parsed with the language-neutral 'simple' configuration. Columns are weights: the first column of
-- an index is A, the second B (src/search/search.statements.ts matches them with `:A`, `:B`).
CREATE FUNCTION desk_search_text(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(
    lower(regexp_replace(normalize(left(coalesce(t, ''), 262144), NFKD), '[\u0300-\u036f]+', '', 'g')),
    '[^[:alnum:]]+', ' ', 'g')
$$;
--> statement-breakpoint
CREATE FUNCTION desk_search_doc(t text, w "char") RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, desk_search_text(t)), w)
$$;
--> statement-breakpoint
CREATE SEQUENCE search_seq;
--> statement-breakpoint
CREATE TABLE ticket_search (rid text PRIMARY KEY, ws text NOT NULL, seq bigint NOT NULL DEFAULT nextval('search_seq'), doc tsvector NOT NULL);
--> statement-breakpoint
CREATE TABLE message_search (rid text PRIMARY KEY, ws text NOT NULL, seq bigint NOT NULL DEFAULT nextval('search_seq'), doc tsvector NOT NULL);
--> statement-breakpoint
CREATE TABLE contact_search (rid text PRIMARY KEY, ws text NOT NULL, seq bigint NOT NULL DEFAULT nextval('search_seq'), doc tsvector NOT NULL);
--> statement-breakpoint
CREATE TABLE company_search (rid text PRIMARY KEY, ws text NOT NULL, seq bigint NOT NULL DEFAULT nextval('search_seq'), doc tsvector NOT NULL);
--> statement-breakpoint
CREATE TABLE article_search (rid text PRIMARY KEY, ws text NOT NULL, seq bigint NOT NULL DEFAULT nextval('search_seq'), doc tsvector NOT NULL);
--> statement-breakpoint
CREATE TABLE field_value_search (entity text NOT NULL, rid text NOT NULL, field_id text NOT NULL, ws text NOT NULL, seq bigint NOT NULL DEFAULT nextval('search_seq'), doc tsvector NOT NULL, PRIMARY KEY (entity, rid, field_id));
--> statement-breakpoint
CREATE INDEX ticket_search_doc_idx ON ticket_search USING gin (doc);
--> statement-breakpoint
CREATE INDEX message_search_doc_idx ON message_search USING gin (doc);
--> statement-breakpoint
CREATE INDEX contact_search_doc_idx ON contact_search USING gin (doc);
--> statement-breakpoint
CREATE INDEX company_search_doc_idx ON company_search USING gin (doc);
--> statement-breakpoint
CREATE INDEX article_search_doc_idx ON article_search USING gin (doc);
--> statement-breakpoint
CREATE INDEX field_value_search_doc_idx ON field_value_search USING gin (doc);
--> statement-breakpoint
CREATE INDEX ticket_search_seq_idx ON ticket_search (seq);
--> statement-breakpoint
CREATE INDEX message_search_seq_idx ON message_search (seq);
--> statement-breakpoint
CREATE INDEX contact_search_seq_idx ON contact_search (seq);
--> statement-breakpoint
CREATE INDEX company_search_seq_idx ON company_search (seq);
--> statement-breakpoint
CREATE INDEX article_search_ws_seq_idx ON article_search (ws, seq);
--> statement-breakpoint
CREATE INDEX field_value_search_seq_idx ON field_value_search (seq);
--> statement-breakpoint
CREATE FUNCTION ticket_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM ticket_search WHERE rid = OLD.id;
  ELSE
    INSERT INTO ticket_search (rid, ws, doc) VALUES (NEW.id, NEW.workspace_id, desk_search_doc(NEW.subject, 'A'))
      ON CONFLICT (rid) DO UPDATE SET ws = excluded.ws, doc = excluded.doc;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_search_insert AFTER INSERT ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_search_sync();
--> statement-breakpoint
CREATE TRIGGER tickets_search_update AFTER UPDATE OF subject ON tickets FOR EACH ROW
  WHEN (OLD.subject IS DISTINCT FROM NEW.subject) EXECUTE FUNCTION ticket_search_sync();
--> statement-breakpoint
CREATE TRIGGER tickets_search_delete AFTER DELETE ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_search_sync();
--> statement-breakpoint
CREATE FUNCTION message_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM message_search WHERE rid = OLD.id;
  ELSE
    INSERT INTO message_search (rid, ws, doc) VALUES (NEW.id, NEW.workspace_id, desk_search_doc(NEW.body_text, 'A'))
      ON CONFLICT (rid) DO UPDATE SET ws = excluded.ws, doc = excluded.doc;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_search_insert AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION message_search_sync();
--> statement-breakpoint
CREATE TRIGGER messages_search_update AFTER UPDATE OF body_text ON messages FOR EACH ROW
  WHEN (OLD.body_text IS DISTINCT FROM NEW.body_text) EXECUTE FUNCTION message_search_sync();
--> statement-breakpoint
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages FOR EACH ROW EXECUTE FUNCTION message_search_sync();
--> statement-breakpoint
CREATE FUNCTION contact_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM contact_search WHERE rid = OLD.id;
  ELSE
    INSERT INTO contact_search (rid, ws, doc)
      VALUES (NEW.id, NEW.workspace_id, desk_search_doc(NEW.name, 'A') || desk_search_doc(NEW.email, 'B'))
      ON CONFLICT (rid) DO UPDATE SET ws = excluded.ws, doc = excluded.doc;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION contact_search_sync();
--> statement-breakpoint
CREATE TRIGGER contacts_search_update AFTER UPDATE OF name, email ON contacts FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION contact_search_sync();
--> statement-breakpoint
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts FOR EACH ROW EXECUTE FUNCTION contact_search_sync();
--> statement-breakpoint
CREATE FUNCTION company_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM company_search WHERE rid = OLD.id;
  ELSE
    INSERT INTO company_search (rid, ws, doc)
      VALUES (NEW.id, NEW.workspace_id, desk_search_doc(NEW.name, 'A') || desk_search_doc(NEW.domain, 'B'))
      ON CONFLICT (rid) DO UPDATE SET ws = excluded.ws, doc = excluded.doc;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_search_insert AFTER INSERT ON companies FOR EACH ROW EXECUTE FUNCTION company_search_sync();
--> statement-breakpoint
CREATE TRIGGER companies_search_update AFTER UPDATE OF name, domain ON companies FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.domain IS DISTINCT FROM NEW.domain) EXECUTE FUNCTION company_search_sync();
--> statement-breakpoint
CREATE TRIGGER companies_search_delete AFTER DELETE ON companies FOR EACH ROW EXECUTE FUNCTION company_search_sync();
--> statement-breakpoint
CREATE FUNCTION article_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM article_search WHERE rid = OLD.id;
  ELSE
    INSERT INTO article_search (rid, ws, doc)
      VALUES (NEW.id, NEW.workspace_id, desk_search_doc(NEW.title, 'A') || desk_search_doc(NEW.body_text, 'B'))
      ON CONFLICT (rid) DO UPDATE SET ws = excluded.ws, doc = excluded.doc;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER kb_articles_search_insert AFTER INSERT ON kb_articles FOR EACH ROW EXECUTE FUNCTION article_search_sync();
--> statement-breakpoint
CREATE TRIGGER kb_articles_search_update AFTER UPDATE OF title, body_text ON kb_articles FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body_text IS DISTINCT FROM NEW.body_text) EXECUTE FUNCTION article_search_sync();
--> statement-breakpoint
CREATE TRIGGER kb_articles_search_delete AFTER DELETE ON kb_articles FOR EACH ROW EXECUTE FUNCTION article_search_sync();
--> statement-breakpoint
-- A value is indexed while it has text (SQLite: field_value_search holds the rows whose value_text is not null).
CREATE FUNCTION field_value_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM field_value_search WHERE entity = OLD.entity AND rid = OLD.record_id AND field_id = OLD.field_id;
  ELSIF NEW.value_text IS NULL THEN
    DELETE FROM field_value_search WHERE entity = NEW.entity AND rid = NEW.record_id AND field_id = NEW.field_id;
  ELSE
    INSERT INTO field_value_search (entity, rid, field_id, ws, doc)
      VALUES (NEW.entity, NEW.record_id, NEW.field_id, NEW.workspace_id, desk_search_doc(NEW.value_text, 'A'))
      ON CONFLICT (entity, rid, field_id) DO UPDATE SET ws = excluded.ws, doc = excluded.doc;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER field_values_search_insert AFTER INSERT ON field_values FOR EACH ROW
  WHEN (NEW.value_text IS NOT NULL) EXECUTE FUNCTION field_value_search_sync();
--> statement-breakpoint
CREATE TRIGGER field_values_search_update AFTER UPDATE OF value_text ON field_values FOR EACH ROW
  WHEN (OLD.value_text IS DISTINCT FROM NEW.value_text) EXECUTE FUNCTION field_value_search_sync();
--> statement-breakpoint
CREATE TRIGGER field_values_search_delete AFTER DELETE ON field_values FOR EACH ROW EXECUTE FUNCTION field_value_search_sync();
--> statement-breakpoint
-- Rows written before this step (none on a new database), oldest first as SQLite's rowids are.
INSERT INTO ticket_search (rid, ws, doc) SELECT id, workspace_id, desk_search_doc(subject, 'A') FROM tickets ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO message_search (rid, ws, doc) SELECT id, workspace_id, desk_search_doc(body_text, 'A') FROM messages ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO contact_search (rid, ws, doc)
  SELECT id, workspace_id, desk_search_doc(name, 'A') || desk_search_doc(email, 'B') FROM contacts ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO company_search (rid, ws, doc)
  SELECT id, workspace_id, desk_search_doc(name, 'A') || desk_search_doc(domain, 'B') FROM companies ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO article_search (rid, ws, doc)
  SELECT id, workspace_id, desk_search_doc(title, 'A') || desk_search_doc(body_text, 'B') FROM kb_articles ORDER BY created_at, id;
--> statement-breakpoint
INSERT INTO field_value_search (entity, rid, field_id, ws, doc)
  SELECT entity, record_id, field_id, workspace_id, desk_search_doc(value_text, 'A') FROM field_values WHERE value_text IS NOT NULL;
