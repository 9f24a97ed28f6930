import type { Db, Queryable } from "../db/database";
import { dialectOf } from "../db/dialect";
import { isReader } from "../db/runtime";
import { beforeEachCommit } from "../db/tx";
import { searchStatements } from "./search.statements";

/**
 * New ticket subjects and message texts are staged (migrations/custom/0103) and moved into the
 * indexes in bulk: before each batch commits, before any search reads the indexes, and at start
 * (rows staged by a writer that bypassed Desk, such as scripts/seed.ts).
 */

/**
 * Moves every staged document into its index (a few µs when nothing is staged). Synchronous (raw
 * statements): as a pre-commit hook, a failure must throw into the commit, not reject unseen.
 */
export function flushSearchStaging(db: Queryable): void {
  // A read pool connection cannot write, and needs not: staged rows are flushed before every commit.
  if (isReader(db) || dialectOf(db) === "postgres") return;
  searchStatements(db).flushStaged();
}

/** Registers the pre-commit flush and empties what a previous run left staged (PostgreSQL stages nothing). */
export function registerSearchStaging(db: Db): void {
  if (dialectOf(db) === "postgres") return;
  flushSearchStaging(db);
  beforeEachCommit(db, () => flushSearchStaging(db));
}
