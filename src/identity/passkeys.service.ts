import { first, one } from "../db/store";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { UserRow } from "./auth.present";
import { users } from "./identity.table";
import type { UserContext } from "../auth/context";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { conflict, DeskError, forbidden, invalidAt, notFound, unauthorized } from "../lib/errors";
import { newId } from "../lib/ids";
import { passkeyChallenges, passkeys } from "./passkeys.table";
import type { PasskeySignInBody, RegisterPasskeyBody } from "./passkeys.schemas";
import type { z } from "zod";

type PasskeyDeps = Pick<Deps, "db" | "clock" | "config">;
type PasskeyRow = typeof passkeys.$inferSelect;

/** A person may keep this many passkeys. */
export const MAX_PASSKEYS = 20;
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * @simplewebauthn/server is loaded on first use: most instances never see a passkey, and idle
 * memory is budgeted. Its certificate helpers need the `Reflect.getMetadata` polyfill, which the
 * library imports itself, but Bun's bundler runs that CommonJS side effect too late inside
 * dist/desk ("tsyringe requires a reflect polyfill"): it is loaded first here.
 */
const webauthn = async () => {
  await import("reflect-metadata");
  return import("@simplewebauthn/server");
};

/** The relying party is the public address of this Desk: its host name, and its origin for clientData. */
export const relyingParty = (config: Pick<Deps["config"], "baseUrl">) => {
  const url = new URL(config.baseUrl);
  return { id: url.hostname, origin: url.origin, name: "Desk" };
};

export const presentPasskey = (row: PasskeyRow) => ({
  id: row.id,
  name: row.name,
  device_type: row.deviceType === "multiDevice" ? ("multiDevice" as const) : ("singleDevice" as const),
  backed_up: row.backedUp,
  created_at: row.createdAt,
  last_used_at: row.lastUsedAt ?? null,
});

const passkeysOf = async (deps: Pick<Deps, "db">, userId: string) =>
  await deps.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));

export const listPasskeys = async (deps: PasskeyDeps, user: UserContext) => ({
  data: (await passkeysOf(deps, user.userId)).map(presentPasskey),
});

async function storeChallenge(
  deps: PasskeyDeps,
  challenge: string,
  kind: "register" | "sign_in",
  userId: string | null,
) {
  const now = deps.clock.now();
  await transact(deps.db, async (tx) => {
    await tx.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now.toISOString()));
    await tx.insert(passkeyChallenges).values({
      challenge,
      kind,
      userId,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    });
  });
}

/** The challenge the browser signed (read from clientDataJSON), or null when the data is not JSON. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof data.challenge === "string" ? data.challenge : null;
  } catch {
    return null;
  }
}

/** Takes a live challenge of ours out of the store (each answers one ceremony); false when unknown, spent or expired. */
async function spendChallenge(
  deps: PasskeyDeps,
  challenge: string | null,
  kind: "register" | "sign_in",
  userId: string | null,
): Promise<boolean> {
  if (!challenge) return false;
  const now = deps.clock.now().toISOString();
  const conditions = [
    eq(passkeyChallenges.challenge, challenge),
    eq(passkeyChallenges.kind, kind),
    gt(passkeyChallenges.expiresAt, now),
  ];
  if (userId) conditions.push(eq(passkeyChallenges.userId, userId));
  const spent = await deps.db
    .delete(passkeyChallenges)
    .where(and(...conditions))
    .returning({ challenge: passkeyChallenges.challenge });
  return spent.length > 0;
}

const invalidPasskey = (detail: string) => invalidAt("body.credential", detail, "invalid_passkey");

async function personOf(deps: PasskeyDeps, user: UserContext): Promise<UserRow> {
  const row = first(await deps.db.select().from(users).where(eq(users.id, user.userId)).limit(1));
  if (!row) throw unauthorized();
  return row;
}

/**
 * A person with two-factor on adds or removes passkeys only from a session that passed it: a
 * stolen access token of a password-only session must not plant a lasting way in.
 */
function assertStrongSession(row: UserRow, user: UserContext) {
  if (row.mfaEnabled && !user.mfaVerified)
    throw forbidden("Sign in with your second factor (or a passkey) before changing passkeys.");
}

/** POST /v1/me/passkeys/options: creation options for a new discoverable, user-verified credential. */
export async function registrationOptions(deps: PasskeyDeps, user: UserContext) {
  const row = await personOf(deps, user);
  assertStrongSession(row, user);
  const existing = await passkeysOf(deps, row.id);
  if (existing.length >= MAX_PASSKEYS)
    throw conflict(`You already have ${MAX_PASSKEYS} passkeys; remove one first.`, "passkey_limit");
  const rp = relyingParty(deps.config);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(row.id),
    userName: row.email,
    userDisplayName: row.name,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
  });
  await storeChallenge(deps, options.challenge, "register", row.id);
  return { options: { ...options } };
}

const transportsOf = (row: PasskeyRow): string[] | undefined =>
  row.transports ? (JSON.parse(row.transports) as string[]) : undefined;

/** POST /v1/me/passkeys: verifies the new credential against our challenge and keeps it under its name. */
export async function registerPasskey(
  deps: PasskeyDeps,
  user: UserContext,
  body: z.infer<typeof RegisterPasskeyBody>,
): Promise<ReturnType<typeof presentPasskey>> {
  const row = await personOf(deps, user);
  assertStrongSession(row, user);
  const challenge = signedChallenge(body.credential.response.clientDataJSON);
  if (!(await spendChallenge(deps, challenge, "register", row.id)))
    throw invalidPasskey("The passkey challenge is unknown, expired or already used; start again.");
  const rp = relyingParty(deps.config);
  const { verifyRegistrationResponse } = await webauthn();
  const result = await verifyRegistrationResponse({
    response: body.credential as Parameters<typeof verifyRegistrationResponse>[0]["response"],
    expectedChallenge: challenge ?? "",
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw invalidPasskey(`The passkey could not be verified: ${(error as Error).message}`);
  });
  if (!result.verified) throw invalidPasskey("The passkey could not be verified.");
  const info = result.registrationInfo;
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    if (
      first(
        await tx
          .select({ id: passkeys.id })
          .from(passkeys)
          .where(eq(passkeys.credentialId, info.credential.id))
          .limit(1),
      )
    )
      throw conflict("This passkey is already registered.");
    const count = (await tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, row.id))).length;
    if (count >= MAX_PASSKEYS)
      throw conflict(`You already have ${MAX_PASSKEYS} passkeys; remove one first.`, "passkey_limit");
    const created = one(
      await tx
        .insert(passkeys)
        .values({
          id: newId(),
          userId: row.id,
          credentialId: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
          counter: info.credential.counter,
          transports: info.credential.transports ? JSON.stringify(info.credential.transports) : null,
          name: body.name,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    return presentPasskey(created);
  });
}

export async function renamePasskey(deps: PasskeyDeps, user: UserContext, id: string, name: string) {
  const updated = one(
    await deps.db
      .update(passkeys)
      .set({ name, updatedAt: deps.clock.now().toISOString() })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.userId)))
      .returning(),
  );
  if (!updated) throw notFound("Passkey");
  return presentPasskey(updated);
}

export async function removePasskey(deps: PasskeyDeps, user: UserContext, id: string): Promise<void> {
  assertStrongSession(await personOf(deps, user), user);
  const removed = await deps.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.userId)))
    .returning({ id: passkeys.id });
  if (!removed.length) throw notFound("Passkey");
}

/** POST /v1/auth/passkey/options: request options for a discoverable credential (no account named). */
export async function signInOptions(deps: PasskeyDeps) {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    userVerification: "required",
    allowCredentials: [],
  });
  await storeChallenge(deps, options.challenge, "sign_in", null);
  return { options: { ...options } };
}

const passkeyRefused = () => new DeskError(401, "unauthorized", "The passkey was not accepted; try again.");

/**
 * POST /v1/auth/passkey/login: the person whose passkey signed our challenge with user
 * verification. The signature counter must rise when the authenticator keeps one (a clone is
 * refused); the answer is the person, and the session counts as two-factor.
 */
export async function authenticatePasskey(
  deps: PasskeyDeps,
  body: z.infer<typeof PasskeySignInBody>,
): Promise<UserRow> {
  const credential = body.credential;
  const challenge = signedChallenge(credential.response.clientDataJSON);
  if (!(await spendChallenge(deps, challenge, "sign_in", null))) throw passkeyRefused();
  const stored = first(await deps.db.select().from(passkeys).where(eq(passkeys.credentialId, credential.id)).limit(1));
  if (!stored) throw passkeyRefused();
  if (
    credential.response.userHandle &&
    Buffer.from(credential.response.userHandle, "base64url").toString("utf8") !== stored.userId
  )
    throw passkeyRefused();
  const rp = relyingParty(deps.config);
  const { verifyAuthenticationResponse } = await webauthn();
  const result = await verifyAuthenticationResponse({
    response: credential as Parameters<typeof verifyAuthenticationResponse>[0]["response"],
    expectedChallenge: challenge ?? "",
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: stored.credentialId,
      publicKey: new Uint8Array(Buffer.from(stored.publicKey, "base64url")),
      counter: stored.counter,
      transports: transportsOf(stored),
    },
    requireUserVerification: true,
  }).catch(() => null);
  if (!result?.verified) throw passkeyRefused();
  const now = deps.clock.now().toISOString();
  const newCounter = result.authenticationInfo.newCounter;
  // The counter was checked against a copy read before the await above: two assertions carrying the
  // same counter (a clone, or a replay raced against the original) both pass that check, so the store
  // decides. Only the first to move the stored counter past its value wins; an authenticator that
  // keeps no counter (0 before and after) has nothing to race on.
  const kept = one(
    await deps.db
      .update(passkeys)
      .set({
        counter: newCounter,
        backedUp: result.authenticationInfo.credentialBackedUp,
        lastUsedAt: now,
        updatedAt: now,
      })
      .where(
        and(eq(passkeys.id, stored.id), newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter)),
      )
      .returning({ id: passkeys.id }),
  );
  if (!kept) throw passkeyRefused();
  const person = first(await deps.db.select().from(users).where(eq(users.id, stored.userId)).limit(1));
  if (!person) throw passkeyRefused();
  return person;
}
