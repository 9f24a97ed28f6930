import { first, one } from "../db/store";
import { count, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { conflict, DeskError, forbidden, unauthorized } from "../lib/errors";
import { spentChallengesOf } from "./challenge.spent";
import { deskRateLimiter, enforceRateLimits, type RateLimiter } from "../http/rate-limit";
import { requestMeta } from "../http/request-meta";
import { newId } from "../lib/ids";
import type { UserRow } from "./auth.present";
import { users } from "./identity.table";
import {
  CHALLENGE_AFTER,
  challengeFailed,
  challengeRequired,
  createSignInChallenges,
  type ChallengeAnswer,
  type SignInChallenges,
} from "./challenge";
import { acceptAppAttestProof, type AppAttestProof } from "./app-attest.service";
import { acceptTotp, useRecoveryCode } from "./mfa";
import { hashPassword, verifyPassword } from "./passwords";

/** One generic answer for every wrong email/password pair: it never tells whether the email exists. */
export const wrongCredentials = () => unauthorized("The email or password is wrong.");

/** Failed sign-in attempts allowed per account and per client address. */
export const SIGN_IN_LIMITS = { perAccount: 10, perIp: 50, windowMs: 15 * 60_000 } as const;

export type SignInLimits = {
  account: RateLimiter;
  ip: RateLimiter;
  challenges: SignInChallenges;
  /** Native apps: an App Attest assertion over one of our challenges stands in for a solved challenge. */
  appAttest: (proof: AppAttestProof) => boolean | Promise<boolean>;
};

export function createSignInLimits(deps: Pick<Deps, "clock" | "config" | "db" | "logger">): SignInLimits {
  const { windowMs } = SIGN_IN_LIMITS;
  return {
    account: deskRateLimiter(deps, { name: "sign-in.account", limit: SIGN_IN_LIMITS.perAccount, windowMs }),
    ip: deskRateLimiter(deps, { name: "sign-in.ip", limit: SIGN_IN_LIMITS.perIp, windowMs }),
    challenges: createSignInChallenges(deps, spentChallengesOf(deps)),
    appAttest: async (proof) => await acceptAppAttestProof(deps, proof),
  };
}

/**
 * Wraps one sign-in attempt: 429 before any work when over a limit; after a few failures a solved
 * challenge is required (403 challenge_required / challenge_failed); failures count, success
 * clears the account.
 */
export async function limitedAttempt<T>(
  limits: SignInLimits,
  request: Request,
  accountKey: string,
  attempt: () => Promise<T>,
  /** Login and register: the caller's solved challenge, or undefined; null where no challenge applies (a second factor). */
  challenge: ChallengeAnswer | undefined | null,
  /** A native app's App Attest proof, accepted in place of `challenge`. */
  appAttest?: AppAttestProof,
): Promise<T> {
  const meta = requestMeta(request);
  const ip = meta.ip;
  const ipKey = ip ? `ip:${ip}` : null;
  // Check, then count only failures (after the attempt): a success must not spend the budget.
  await enforceRateLimits(
    [
      [limits.account, accountKey],
      [limits.ip, ipKey],
    ],
    meta,
  );
  const suspicious =
    (await limits.account.count(accountKey)) >= CHALLENGE_AFTER.perAccount ||
    (ipKey !== null && (await limits.ip.count(ipKey)) >= CHALLENGE_AFTER.perIp);
  if (challenge !== null && suspicious) {
    if (appAttest) {
      if (!(await limits.appAttest(appAttest))) throw challengeFailed();
    } else if (!challenge) throw challengeRequired();
    else if (!(await limits.challenges.accept(challenge))) throw challengeFailed();
  }
  try {
    const result = await attempt();
    await limits.account.reset(accountKey);
    return result;
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 401) {
      await limits.account.hit(accountKey);
      if (ipKey) await limits.ip.hit(ipKey);
    }
    throw error;
  }
}

export const findUserByEmail = async (deps: Pick<Deps, "db">, email: string) =>
  first(await deps.db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1));
export const findUser = async (deps: Pick<Deps, "db">, userId: string) =>
  first(await deps.db.select().from(users).where(eq(users.id, userId)).limit(1));

/**
 * Creates a person with a password. Open while the instance has no user (the first person sets
 * it up), or always with DESK_OPEN_SIGNUP=true; the check and the insert share one transaction.
 */
export async function registerUser(
  deps: Pick<Deps, "db" | "clock" | "config">,
  input: { email: string; password: string; name: string },
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now().toISOString();
  const email = input.email.toLowerCase();
  return await transact(deps.db, async (tx) => {
    if (!deps.config.openSignup) {
      const existing = first(await tx.select({ n: count() }).from(users).limit(1))?.n ?? 0;
      if (existing > 0) throw forbidden("Sign-up is closed on this instance; ask an administrator for an invitation.");
    }
    if (first(await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1))) {
      throw conflict("An account with this email already exists; sign in instead.");
    }
    return one(
      await tx
        .insert(users)
        .values({ id: newId(), email, name: input.name, passwordHash, createdAt: now, updatedAt: now })
        .returning(),
    );
  });
}

/** The person whose email and password these are, or 401 with the generic detail (same argon2 work either way). */
export async function authenticatePassword(deps: Pick<Deps, "db">, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(deps, email);
  const ok = await verifyPassword(password, user?.passwordHash);
  if (!user || !ok) throw wrongCredentials();
  return user;
}

/**
 * Password and passkey sign-ins of a person whose workspace requires single sign-on are refused
 * (403 sso_required) once the credential itself was checked, so the answer tells a stranger nothing.
 */
export async function assertPasswordSignInAllowed(deps: Pick<Deps, "lookups">, user: UserRow): Promise<void> {
  const names = await deps.lookups.ssoOnlyWorkspaces(user.id);
  if (names.length)
    throw new DeskError(
      403,
      "sso_required",
      `${names.join(", ")} requires single sign-on: use the sign-in provider's button instead of a password or passkey.`,
    );
}

export const issueMfaToken = (deps: Pick<Deps, "tokens">, user: UserRow) => deps.tokens.sign("mfa", { sub: user.id });

export async function userOfMfaToken(deps: Pick<Deps, "db" | "tokens">, token: string): Promise<UserRow> {
  const claims = await deps.tokens.verify<{ sub: string }>(token, "mfa");
  const user = claims?.sub ? await findUser(deps, claims.sub) : undefined;
  if (!user?.mfaEnabled) throw unauthorized("The two-factor sign-in has expired or is invalid; sign in again.");
  return user;
}

/**
 * Checks a second factor for a person with two-factor on: an authenticator code (each time step
 * accepted once) or one of their recovery codes (removed once used). Returns whether it passed;
 * what it consumed is saved in the caller's transaction.
 */
export async function consumeSecondFactor(
  deps: Pick<Deps, "db" | "clock" | "secrets">,
  user: UserRow,
  code: string,
): Promise<boolean> {
  const now = deps.clock.now();
  return await transact(deps.db, async (tx) => {
    const fresh = first(await tx.select().from(users).where(eq(users.id, user.id)).limit(1));
    if (!fresh?.mfaEnabled || !fresh.mfaSecretSealed) return false;
    const step = acceptTotp(deps.secrets.open(fresh.mfaSecretSealed), code, now, fresh.mfaLastStep ?? null);
    if (step !== null) {
      await tx.update(users).set({ mfaLastStep: step, updatedAt: now.toISOString() }).where(eq(users.id, user.id));
      return true;
    }
    const remaining = useRecoveryCode(fresh.mfaRecoveryHashes, code);
    if (!remaining) return false;
    await tx
      .update(users)
      .set({ mfaRecoveryHashes: JSON.stringify(remaining), updatedAt: now.toISOString() })
      .where(eq(users.id, user.id));
    return true;
  });
}
