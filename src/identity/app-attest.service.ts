import { first, one } from "../db/store";
import { and, eq, lt } from "drizzle-orm";
import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { conflict, invalidAt, notFound } from "../lib/errors";
import { randomToken } from "../lib/ids";
import { APPLE_APP_ATTEST_ROOT, AppAttestError, verifyAssertion, verifyAttestation } from "./app-attest";
import { appAttestChallenges, appAttestKeys } from "./app-attest.table";

type AttestDeps = Pick<Deps, "db" | "clock" | "config" | "logger">;

export const APP_ATTEST_CHALLENGE_TTL_MS = 5 * 60_000;

/** What a native client sends instead of a solved sign-in challenge. */
export type AppAttestProof = { key_id: string; assertion: string; client_data: string };

const disabled = () => notFound("App attestation (APP_ATTEST_APP_IDS is not set)");

/** POST /v1/auth/app-attest/challenge: a random single-use challenge, five minutes. */
export async function issueAttestChallenge(deps: AttestDeps): Promise<{ challenge: string; expires_in: number }> {
  if (!deps.config.appAttestAppIds.length) throw disabled();
  const now = deps.clock.now();
  const challenge = randomToken(32);
  await transact(deps.db, async (tx) => {
    await tx.delete(appAttestChallenges).where(lt(appAttestChallenges.expiresAt, now.toISOString()));
    await tx.insert(appAttestChallenges).values({
      challenge,
      expiresAt: new Date(now.getTime() + APP_ATTEST_CHALLENGE_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    });
  });
  return { challenge, expires_in: APP_ATTEST_CHALLENGE_TTL_MS / 1000 };
}

async function spendChallenge(deps: AttestDeps, challenge: string): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  return (
    (
      await deps.db
        .delete(appAttestChallenges)
        .where(eq(appAttestChallenges.challenge, challenge))
        .returning({ expiresAt: appAttestChallenges.expiresAt })
    ).filter((r) => r.expiresAt > now).length > 0
  );
}

/**
 * POST /v1/auth/app-attest/keys: registers a key whose attestation Apple's root vouches for, made
 * over SHA256 of one of our challenges, for one of APP_ATTEST_APP_IDS.
 */
export async function registerAttestedKey(
  deps: AttestDeps,
  body: { key_id: string; attestation: string; challenge: string },
) {
  if (!deps.config.appAttestAppIds.length) throw disabled();
  if (!(await spendChallenge(deps, body.challenge)))
    throw invalidAt("body.challenge", "The challenge is unknown, expired or already used.", "invalid_challenge");
  const key = await verifyAttestation({
    keyId: body.key_id,
    attestation: body.attestation,
    challenge: body.challenge,
    appIds: deps.config.appAttestAppIds,
    roots: deps.config.appAttestRoots ?? [APPLE_APP_ATTEST_ROOT],
    now: deps.clock.now(),
  }).catch((error: unknown) => {
    if (error instanceof AppAttestError)
      throw invalidAt("body.attestation", `The attestation is not valid: ${error.message}.`, "invalid_attestation");
    throw error;
  });
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    if (
      first(
        await tx
          .select({ k: appAttestKeys.keyId })
          .from(appAttestKeys)
          .where(eq(appAttestKeys.keyId, key.keyId))
          .limit(1),
      )
    )
      throw conflict("This key is already registered.");
    const row = one(
      await tx
        .insert(appAttestKeys)
        .values({
          keyId: key.keyId,
          appId: key.appId,
          publicKey: key.publicKeyPem,
          receipt: key.receipt.toString("base64"),
          environment: key.environment,
          counter: 0,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    return { key_id: row.keyId, app_id: row.appId, environment: row.environment, created_at: row.createdAt };
  });
}

/**
 * An `app_attest` proof where the web sends a solved challenge: `client_data` (base64 of the bytes
 * the app hashed, JSON with a `challenge` from our challenge route, used once) signed by a
 * registered key with a rising counter. False for anything else.
 */
export async function acceptAppAttestProof(deps: AttestDeps, proof: AppAttestProof): Promise<boolean> {
  if (!deps.config.appAttestAppIds.length) return false;
  const clientData = Buffer.from(proof.client_data, "base64");
  let challenge: unknown;
  try {
    challenge = (JSON.parse(clientData.toString("utf8")) as { challenge?: unknown }).challenge;
  } catch {
    return false;
  }
  if (typeof challenge !== "string" || !(await spendChallenge(deps, challenge))) return false;
  const key = first(await deps.db.select().from(appAttestKeys).where(eq(appAttestKeys.keyId, proof.key_id)).limit(1));
  if (!key || !deps.config.appAttestAppIds.includes(key.appId)) return false;
  let counter: number;
  try {
    counter = verifyAssertion({
      assertion: proof.assertion,
      clientData,
      publicKeyPem: key.publicKey,
      appId: key.appId,
      counter: key.counter,
    });
  } catch (error) {
    if (error instanceof AppAttestError) return false;
    throw error;
  }
  const now = deps.clock.now().toISOString();
  // Compare-and-set: two requests with the same counter cannot both pass.
  const moved = await deps.db
    .update(appAttestKeys)
    .set({ counter, lastUsedAt: now, updatedAt: now })
    .where(and(eq(appAttestKeys.keyId, key.keyId), eq(appAttestKeys.counter, key.counter)))
    .returning({ keyId: appAttestKeys.keyId });
  return moved.length === 1;
}
