import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { loadConfig } from "../config/config";
import { createSignInChallenges, memorySpentChallenges, type SpentChallenges } from "./challenge";

// A data dir of its own: loading a config makes its data dir private (0700), which /tmp must never be.
const config = loadConfig({
  DESK_SECRET: "test-secret-that-is-long-enough-0123456789",
  DESK_DATA_DIR: mkdtempSync(join(tmpdir(), "desk-challenge-")),
});

test("the in-memory spent set answers each id once until it expires", async () => {
  let now = 0;
  const spent = memorySpentChallenges(() => now);
  expect(await spent.spend("a", 1_000)).toBe(true);
  expect(await spent.spend("a", 1_000)).toBe(false);
  expect(await spent.isSpent("a")).toBe(true);
  expect(await spent.spend("b", 1_000)).toBe(true);
  now = 1_000; // expired: forgotten, and a challenge this old no longer verifies anyway
  expect(await spent.isSpent("a")).toBe(false);
  expect(await spent.spend("a", 2_000)).toBe(true);
});

test("accepting a challenge spends it through the SpentChallenges it was given", async () => {
  const ids: string[] = [];
  const inner = memorySpentChallenges(() => Date.now());
  const recording: SpentChallenges = {
    spend: (id, expiresAt) => {
      ids.push(id);
      return inner.spend(id, expiresAt);
    },
    isSpent: (id) => inner.isSpent(id),
  };
  const challenges = createSignInChallenges({ config }, recording);
  const challenge = await challenges.issue();
  const solution = (await solveChallenge({ challenge, deriveKey }))!;
  const answer = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature! },
    solution: { counter: solution.counter, derivedKey: solution.derivedKey },
  };
  expect(await challenges.accept(answer)).toBe(true);
  expect(ids).toEqual([challenge.signature!]);
  expect(await challenges.accept(answer)).toBe(false); // replayed
  // Another node spent it first: the store's answer decides.
  const other = await challenges.issue();
  const otherSolution = (await solveChallenge({ challenge: other, deriveKey }))!;
  await inner.spend(other.signature!, Date.now() + 60_000);
  const raced = createSignInChallenges({ config }, { spend: inner.spend, isSpent: async () => false });
  expect(
    await raced.accept({
      challenge: { parameters: other.parameters, signature: other.signature! },
      solution: { counter: otherSolution.counter, derivedKey: otherSolution.derivedKey },
    }),
  ).toBe(false);
});
