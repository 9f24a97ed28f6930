-- Full-text search over knowledge base articles (titles and body texts), for GET /v1/search, the
-- article list's `q` and the public help center's search (src/kb/kb.search.ts). Same scheme as
-- 0105: contentless, keyed by the source rowid, the workspace as a token of the `ws` column. Articles
-- are written rarely next to messages, so triggers index them at once (no staging needed).
CREATE VIRTUAL TABLE article_search USING fts5(ws, title, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO article_search (rowid, ws, title, body) SELECT rowid, 'w' || replace(workspace_id, '-', ''), title, body_text FROM kb_articles;
--> statement-breakpoint
CREATE TRIGGER kb_articles_search_insert AFTER INSERT ON kb_articles BEGIN
  INSERT INTO article_search (rowid, ws, title, body) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.title, new.body_text);
END;
--> statement-breakpoint
CREATE TRIGGER kb_articles_search_update AFTER UPDATE OF title, body_text ON kb_articles BEGIN
  DELETE FROM article_search WHERE rowid = old.rowid;
  INSERT INTO article_search (rowid, ws, title, body) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.title, new.body_text);
END;
--> statement-breakpoint
CREATE TRIGGER kb_articles_search_delete AFTER DELETE ON kb_articles BEGIN
  DELETE FROM article_search WHERE rowid = old.rowid;
END;
