import type { Deps } from "../deps";
import { systemClock } from "../lib/clock";
import { memorySpentChallenges, type SpentChallenges } from "./challenge";
import { postgresSpentChallenges } from "./challenge.postgres";

/**
 * The desk's spent set: in memory for one process on its file; in a table when several nodes share
 * one PostgreSQL database, where every node must see every spend. altcha checks a challenge's
 * expiry against the system time, so spends are stamped with it too.
 */
export const spentChallengesOf = (deps: Pick<Deps, "config" | "db">): SpentChallenges =>
  deps.config.databaseUrl
    ? postgresSpentChallenges(deps.db, () => systemClock.now().getTime())
    : memorySpentChallenges(() => systemClock.now().getTime());
