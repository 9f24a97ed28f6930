import { eq } from "drizzle-orm";
import type { UserContext } from "../auth/context";
import { users } from "./identity.table";
import { sessions } from "./identity.table";
import { consumeSecondFactor } from "./auth.service";
import { acceptTotp, newRecoveryCodes, newTotpSecret, otpauthUrl } from "./mfa";
import { verifyPassword } from "./passwords";
import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { conflict, invalidAt, unauthorized } from "../lib/errors";
import { findUserRow } from "./me.service";

type MfaDeps = Pick<Deps, "db" | "clock" | "secrets">;

const signedInUser = async (deps: MfaDeps, user: UserContext) => {
  const row = await findUserRow(deps, user.userId);
  if (!row) throw unauthorized();
  return row;
};

/** Starts enrolment: a new secret, kept sealed and inactive until a code from it is confirmed. */
export async function setupMfa(deps: MfaDeps, user: UserContext): Promise<{ secret: string; otpauth_url: string }> {
  const row = await signedInUser(deps, user);
  if (row.mfaEnabled)
    throw conflict("Two-factor sign-in is already on; turn it off first to enrol a new authenticator.");
  const secret = newTotpSecret();
  await deps.db
    .update(users)
    .set({ mfaSecretSealed: deps.secrets.seal(secret), mfaLastStep: null, updatedAt: deps.clock.now().toISOString() })
    .where(eq(users.id, row.id));
  return { secret, otpauth_url: otpauthUrl(secret, row.email) };
}

/**
 * Confirms enrolment with a code from the authenticator: turns two-factor on, answers ten
 * recovery codes once (only their hashes are kept) and marks the current session as verified.
 */
export async function enableMfa(
  deps: MfaDeps,
  user: UserContext,
  code: string,
): Promise<{ enabled: true; recovery_codes: string[] }> {
  const row = await signedInUser(deps, user);
  if (row.mfaEnabled) throw conflict("Two-factor sign-in is already on.");
  if (!row.mfaSecretSealed) throw conflict("Start with POST /v1/me/mfa/setup.");
  const now = deps.clock.now();
  const step = acceptTotp(deps.secrets.open(row.mfaSecretSealed), code, now, row.mfaLastStep ?? null);
  if (step === null)
    throw invalidAt(
      "body.code",
      "The code does not match the authenticator; check the device's clock.",
      "invalid_code",
    );
  const { codes, hashes } = newRecoveryCodes();
  await transact(deps.db, async (tx) => {
    await tx
      .update(users)
      .set({
        mfaEnabled: true,
        mfaLastStep: step,
        mfaRecoveryHashes: JSON.stringify(hashes),
        updatedAt: now.toISOString(),
      })
      .where(eq(users.id, row.id));
    if (user.sessionId)
      await tx
        .update(sessions)
        .set({ mfaVerified: true, updatedAt: now.toISOString() })
        .where(eq(sessions.id, user.sessionId));
  });
  return { enabled: true, recovery_codes: codes };
}

/** Turns two-factor off after proof: a current code (or recovery code) or the password. */
export async function disableMfa(
  deps: MfaDeps,
  user: UserContext,
  proof: { code?: string; password?: string },
): Promise<{ enabled: false }> {
  const row = await signedInUser(deps, user);
  if (!row.mfaEnabled) return { enabled: false };
  const proven =
    proof.code !== undefined
      ? await consumeSecondFactor(deps, row, proof.code)
      : await verifyPassword(proof.password ?? "", row.passwordHash);
  if (!proven) {
    const where = proof.code !== undefined ? "body.code" : "body.password";
    throw invalidAt(
      where,
      proof.code !== undefined ? "The code is wrong or was already used." : "The password is wrong.",
      "invalid_proof",
    );
  }
  await deps.db
    .update(users)
    .set({
      mfaEnabled: false,
      mfaSecretSealed: null,
      mfaRecoveryHashes: null,
      mfaLastStep: null,
      updatedAt: deps.clock.now().toISOString(),
    })
    .where(eq(users.id, row.id));
  return { enabled: false };
}
