import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";

/** A stored key's claim and, once its request answered, the answer (sealed). */
export type IdempotencyRow = {
  fingerprint: string;
  state: string;
  status: number | null;
  content_type: string | null;
  location: string | null;
  body: string | null;
  created_at: string;
};

/** The answer stored for a key: what a replay sends back. */
export type StoredAnswer = { status: number; contentType: string | null; location: string | null; body: string };

/**
 * The idempotency keys' statements around every POST, prepared once per connection. The SQL is
 * portable; the PostgreSQL twin runs it with `$n` parameters and claims with `INSERT … ON CONFLICT
 * DO NOTHING RETURNING` (reading the held row when nothing was inserted), since two nodes may claim
 * one key at once where SQLite's one writer runs the find and the claim back to back.
 */
export interface IdempotencyStatements {
  /**
   * Claims the key for a running request at `now` and answers null, or answers the row already held
   * (a row older than `ttlMs` is dropped and claimed anew). One step: two requests with one key never
   * both claim it.
   */
  claimOrFind(
    scope: string,
    key: string,
    fingerprint: string,
    now: Date,
    ttlMs: number,
  ): Promise<IdempotencyRow | null>;
  /** Drops the key, so a retry runs again. */
  release(scope: string, key: string): Promise<void>;
  /** Stores the answer of the request that claimed the key. */
  store(scope: string, key: string, answer: StoredAnswer): Promise<void>;
  /**
   * At start: drops the keys still running (their process died mid-request) and answers stored in
   * plain text by earlier versions (not starting with `sealedPrefix`); answers how many were running.
   * On several nodes a start may not drop another node's running keys: the twin ages them out instead.
   */
  recoverAtStart(sealedPrefix: string): Promise<number>;
}

const FIND =
  "SELECT fingerprint, state, status, content_type, location, body, created_at FROM idempotency_keys WHERE scope = ? AND key = ?";
const CLAIM =
  "INSERT INTO idempotency_keys (scope, key, fingerprint, state, created_at) VALUES (?, ?, ?, 'running', ?)";
const RELEASE = "DELETE FROM idempotency_keys WHERE scope = ? AND key = ?";
const STORE =
  "UPDATE idempotency_keys SET state = 'done', status = ?, content_type = ?, location = ?, body = ? WHERE scope = ? AND key = ?";
const DROP_PLAIN_ANSWERS = "DELETE FROM idempotency_keys WHERE body IS NOT NULL AND body NOT LIKE ? || '%'";

/**
 * On several nodes a key left `running` may belong to a node that died mid-request: past this age a
 * retry takes it over (DECISIONS.md "Past one machine": a retry succeeds within 20 s of the kill).
 */
const ABANDONED_RUNNING_MS = 15_000;

export const idempotencyStatements = dialectStatements<IdempotencyStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    const find = sqlite.query<IdempotencyRow, [string, string]>(FIND);
    const claim = sqlite.query<unknown, [string, string, string, string]>(CLAIM);
    const release = sqlite.query<unknown, [string, string]>(RELEASE);
    const store = sqlite.query<unknown, [number, string | null, string | null, string, string, string]>(STORE);
    return {
      claimOrFind: async (scope, key, fingerprint, now, ttlMs) => {
        const existing = find.get(scope, key);
        if (existing && now.getTime() - new Date(existing.created_at).getTime() > ttlMs) release.run(scope, key);
        else if (existing) return existing;
        claim.run(scope, key, fingerprint, now.toISOString());
        return null;
      },
      release: async (scope, key) => {
        release.run(scope, key);
      },
      store: async (scope, key, answer) => {
        store.run(answer.status, answer.contentType, answer.location, answer.body, scope, key);
      },
      recoverAtStart: async (sealedPrefix) => {
        sqlite.run(DROP_PLAIN_ANSWERS, [sealedPrefix]);
        return sqlite.run("DELETE FROM idempotency_keys WHERE state = 'running'").changes;
      },
    };
  },
  postgres: (db: Queryable) => {
    const find = postgresQuery<IdempotencyRow, [string, string]>(db, FIND);
    const claim = postgresQuery<{ key: string }, [string, string, string, string]>(
      db,
      `${CLAIM} ON CONFLICT (scope, key) DO NOTHING RETURNING key`,
    );
    const release = postgresQuery<unknown, [string, string]>(db, RELEASE);
    const store = postgresQuery<unknown, [number, string | null, string | null, string, string, string]>(db, STORE);
    const dropPlain = postgresQuery<unknown, [string]>(db, DROP_PLAIN_ANSWERS);
    const takeOver = postgresQuery<unknown, [string, string, string]>(db, `${RELEASE} AND created_at = ?`);
    return {
      claimOrFind: async (scope, key, fingerprint, now, ttlMs) => {
        // Two nodes may claim one key at once: the insert decides, and the loser reads the winner's row.
        for (let attempt = 0; attempt < 3; attempt++) {
          if (await claim.get(scope, key, fingerprint, now.toISOString())) return null;
          const existing = await find.get(scope, key);
          if (!existing) continue;
          const age = now.getTime() - new Date(existing.created_at).getTime();
          const abandoned = existing.state === "running" && age > ABANDONED_RUNNING_MS;
          if (age <= ttlMs && !abandoned) return existing;
          await takeOver.run(scope, key, existing.created_at);
        }
        throw new Error("idempotency key: could not claim or read it");
      },
      release: (scope, key) => release.run(scope, key),
      store: (scope, key, answer) =>
        store.run(answer.status, answer.contentType, answer.location, answer.body, scope, key),
      recoverAtStart: async (sealedPrefix) => {
        // Running keys may be another node's: they age out in claimOrFind instead.
        await dropPlain.run(sealedPrefix);
        return 0;
      },
    };
  },
});
