-- Full-text search over company names and domains, so a company is found by any word of its name
-- (a LIKE prefix only finds the first). Same scheme as 0101: contentless, keyed by source rowid.
CREATE VIRTUAL TABLE company_search USING fts5(ws, name, domain, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO company_search (rowid, ws, name, domain) SELECT rowid, 'w' || replace(workspace_id, '-', ''), name, coalesce(domain, '') FROM companies;
--> statement-breakpoint
CREATE TRIGGER companies_search_insert AFTER INSERT ON companies BEGIN
  INSERT INTO company_search (rowid, ws, name, domain) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.name, coalesce(new.domain, ''));
END;
--> statement-breakpoint
CREATE TRIGGER companies_search_update AFTER UPDATE OF name, domain ON companies BEGIN
  DELETE FROM company_search WHERE rowid = old.rowid;
  INSERT INTO company_search (rowid, ws, name, domain) VALUES (new.rowid, 'w' || replace(new.workspace_id, '-', ''), new.name, coalesce(new.domain, ''));
END;
--> statement-breakpoint
CREATE TRIGGER companies_search_delete AFTER DELETE ON companies BEGIN
  DELETE FROM company_search WHERE rowid = old.rowid;
END;
