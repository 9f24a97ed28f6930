import type { Db } from "../db/database";
import { postgresQuery } from "../db/postgres/query";
import type { SpentChallenges } from "./challenge";

/** Expired ids one spend removes at most. */
const SWEEP_BATCH = 100;

/**
 * Spent challenges shared by every node (`spent_challenges`, migrations/postgres/custom/
 * 0200_shared_limits.sql): the insert decides, so a challenge answers once across the nodes (a row
 * back means this spend was the first). Expired ids are swept a few at a time as spends come.
 */
export function postgresSpentChallenges(db: Db, now: () => number): SpentChallenges {
  const spend = postgresQuery<{ id: string }, [string, number]>(
    db,
    "INSERT INTO spent_challenges (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
  );
  // An id spent long ago whose row is past its expiry may be spent again: its challenge no longer verifies.
  const dropExpired = postgresQuery<unknown, [string, number]>(
    db,
    "DELETE FROM spent_challenges WHERE id = ? AND expires_at <= ?",
  );
  const sweep = postgresQuery<unknown, [number, number]>(
    db,
    "DELETE FROM spent_challenges WHERE id IN (SELECT id FROM spent_challenges WHERE expires_at <= ? LIMIT ?)",
  );
  const spentNow = postgresQuery<{ id: string }, [string, number]>(
    db,
    "SELECT id FROM spent_challenges WHERE id = ? AND expires_at > ?",
  );
  return {
    async spend(id, expiresAt) {
      const at = now();
      await dropExpired.run(id, at);
      const won = (await spend.get(id, expiresAt)) !== null;
      if (won) await sweep.run(at, SWEEP_BATCH);
      return won;
    },
    isSpent: async (id) => (await spentNow.get(id, now())) !== null,
  };
}
