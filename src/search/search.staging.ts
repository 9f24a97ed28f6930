import { isReader, type Db, type Queryable } from "../db/database";
import { preparedFor } from "../db/prepared";
import { beforeEachCommit } from "../db/tx";

/**
 * New ticket subjects and message texts are staged by triggers (migrations/custom/0103) and moved
 * into the FTS5 indexes in bulk: before each batch commits, before any search reads the indexes,
 * and at start (rows staged by a writer that bypassed Desk, such as scripts/seed.ts).
 */
const flushStatements = preparedFor((sqlite) => [
  sqlite.prepare(
    "INSERT INTO ticket_search (rowid, ws, subject) SELECT row_ref, ws, subject FROM search_staging_tickets",
  ),
  sqlite.prepare("DELETE FROM search_staging_tickets"),
  sqlite.prepare("INSERT INTO message_search (rowid, ws, body) SELECT row_ref, ws, body FROM search_staging_messages"),
  sqlite.prepare("DELETE FROM search_staging_messages"),
]);

/**
 * Moves every staged document into its index (a few µs when nothing is staged). Synchronous (raw
 * statements): as a pre-commit hook, a failure must throw into the commit, not reject unseen.
 */
export function flushSearchStaging(db: Queryable): void {
  // A read pool connection cannot write, and needs not: staged rows are flushed before every commit.
  if (isReader(db)) return;
  for (const statement of flushStatements(db)) statement.run();
}

/** Registers the pre-commit flush and empties what a previous run left staged. */
export function registerSearchStaging(db: Db): void {
  flushSearchStaging(db);
  beforeEachCommit(db, () => flushSearchStaging(db));
}
