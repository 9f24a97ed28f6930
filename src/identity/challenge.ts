import { createChallenge, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey as deriveSha } from "altcha-lib/algorithms/sha";
import type { Deps } from "../deps";
import { systemClock } from "../lib/clock";
import { DeskError } from "../lib/errors";
import { deriveKey } from "../lib/crypto";

/**
 * The sign-in challenge (SPEC: "sign-in is rate limited and protected by a challenge"): a
 * proof-of-work puzzle (ALTCHA, solved by the browser in well under a second, no third-party
 * service) that login and register ask for once an account or an address has failed a few times.
 * Challenges are signed with a key derived from DESK_SECRET, expire after five minutes and are
 * accepted once.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Failed sign-ins (per account / per address, within the rate-limit window) after which a solved challenge is required. */
export const CHALLENGE_AFTER = { perAccount: 3, perIp: 10 } as const;
const DIFFICULTY = { algorithm: "SHA-256", cost: 1, keyPrefix: "0000" } as const;

export type ChallengeAnswer = {
  challenge: { parameters: Challenge["parameters"]; signature: string };
  solution: { counter: number; derivedKey: string };
};

export type SignInChallenges = {
  issue(): Promise<Challenge>;
  /** True once for a valid, unexpired, correctly solved challenge of ours. */
  accept(answer: ChallengeAnswer): Promise<boolean>;
};

/**
 * Accepted challenges until they expire. Asynchronous because the shared implementation (several
 * nodes, DECISIONS.md "Past one machine") is a table insert that fails on a duplicate id.
 */
export type SpentChallenges = {
  /** Marks `id` spent until `expiresAt` (ms); false when it already was, so a challenge answers once. */
  spend(id: string, expiresAt: number): Promise<boolean>;
  /** True while `id` is spent (a cheap refusal before verifying the proof of work). */
  isSpent(id: string): Promise<boolean>;
};

/**
 * The in-memory set: one process. Bounded by expiry (ids are forgotten once their challenge could
 * no longer verify), never by evicting a live id, which would let its challenge answer twice.
 */
export function memorySpentChallenges(now: () => number): SpentChallenges {
  const spent = new Map<string, number>();
  const forgetExpired = (at: number) => {
    for (const [id, expiresAt] of spent) if (expiresAt <= at) spent.delete(id);
  };
  return {
    async spend(id, expiresAt) {
      const at = now();
      const until = spent.get(id);
      if (until !== undefined && until > at) return false;
      forgetExpired(at);
      spent.set(id, expiresAt);
      return true;
    },
    async isSpent(id) {
      const until = spent.get(id);
      return until !== undefined && until > now();
    },
  };
}

export const challengeRequired = () =>
  new DeskError(
    403,
    "challenge_required",
    "Too many failed sign-ins: solve a challenge from POST /v1/auth/challenge and send it as `challenge`.",
  );
export const challengeFailed = () =>
  new DeskError(403, "challenge_failed", "The challenge answer is wrong, expired or already used; solve a new one.");

export function createSignInChallenges(deps: Pick<Deps, "config">, spent: SpentChallenges): SignInChallenges {
  const secret = deriveKey(deps.config.secret, "sign-in-challenge").toString("hex");
  const clock = systemClock;
  return {
    issue: () =>
      createChallenge({
        ...DIFFICULTY,
        deriveKey: deriveSha,
        expiresAt: new Date(clock.now().getTime() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: secret,
      }),
    async accept(answer) {
      const signature = answer.challenge.signature;
      if (await spent.isSpent(signature)) return false;
      const result = await verifySolution({
        challenge: answer.challenge,
        solution: answer.solution,
        deriveKey: deriveSha,
        hmacSignatureSecret: secret,
      }).catch(() => null);
      if (!result?.verified || result.expired) return false;
      // Spending is the decisive check: another request (or node) may have spent it while this one verified.
      return spent.spend(signature, clock.now().getTime() + CHALLENGE_TTL_MS);
    },
  };
}
