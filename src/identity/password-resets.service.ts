import { first, one } from "../db/store";
import { and, eq, gt, isNull } from "drizzle-orm";
import { sessions, users } from "./identity.table";
import { hashPassword } from "./passwords";
import { revokeSession } from "./sessions";
import { signalAccessEnded } from "../auth/session-signals";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt } from "../lib/errors";
import { deskRateLimiter, type RateLimiter, takeRateLimit } from "../http/rate-limit";
import type { RequestMeta } from "../http/request-meta";
import { sha256Hex } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { enqueue } from "../jobs/enqueue";
import { passwordResetMailJob } from "./password-resets.mail";
import { passwordResets } from "./password-resets.table";

/** A reset link works for one hour, once. */
export const RESET_TTL_MS = 60 * 60_000;
/**
 * Reset requests: per address (answered 429, which says nothing about any account) and per email
 * (quietly not mailed beyond the limit, so the answer never differs by account and nobody can
 * flood a person's inbox with reset mail).
 */
export const RESET_LIMITS = { perIp: 10, perEmail: 3, windowMs: 60 * 60_000 } as const;

export type ResetLimits = { ip: RateLimiter; email: RateLimiter };

export function createResetLimits(deps: Pick<Deps, "clock" | "db">): ResetLimits {
  const { windowMs } = RESET_LIMITS;
  return {
    ip: deskRateLimiter(deps, { name: "password-reset.ip", limit: RESET_LIMITS.perIp, windowMs }),
    email: deskRateLimiter(deps, { name: "password-reset.email", limit: RESET_LIMITS.perEmail, windowMs }),
  };
}

/** `{base}/reset-password#<token>`: in the fragment, so the token never reaches a server log or a Referer. */
export const resetUrl = (config: Pick<Deps["config"], "baseUrl">, token: string) =>
  `${config.baseUrl.replace(/\/+$/, "")}/reset-password#${token}`;

/** Stores a new reset for a person and answers its link; the caller's transaction holds the row. */
async function issueReset(
  tx: Tx,
  deps: Pick<Deps, "clock" | "config">,
  userId: string,
  requestedBy: "email" | "operator",
  ip: string | null,
) {
  const token = randomToken(32);
  const now = deps.clock.now();
  const row = one(
    await tx
      .insert(passwordResets)
      .values({
        id: newId(),
        userId,
        tokenHash: sha256Hex(token),
        requestedBy,
        requestedIp: ip,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      })
      .returning(),
  );
  return { row, url: resetUrl(deps.config, token) };
}

/**
 * POST /v1/auth/password/forgot. The same answer whatever the email: when it belongs to a person
 * (and the email's limit allows), a reset is stored and its link mailed by a durable job.
 */
export async function requestPasswordReset(
  deps: Pick<Deps, "db" | "clock" | "config" | "secrets">,
  limits: ResetLimits,
  email: string,
  ip: string | null,
  /** The request's meta, so the answer carries the address budget's RateLimit-* headers. */
  meta?: RequestMeta,
): Promise<void> {
  const ipKey = ip ? `ip:${ip}` : null;
  // Only the address budget is shown: the per-email one stays quiet so it says nothing about an account.
  await takeRateLimit(limits.ip, ipKey, meta);
  const emailKey = email.toLowerCase();
  if ((await limits.email.take(emailKey)) > 0) return;
  await transact(deps.db, async (tx) => {
    const user = first(await tx.select({ id: users.id }).from(users).where(eq(users.email, emailKey)).limit(1));
    if (!user) return;
    const { row, url } = await issueReset(tx, deps, user.id, "email", ip);
    await enqueue(tx, passwordResetMailJob, { reset_id: row.id, sealed_url: deps.secrets.seal(url) });
  });
}

/** `desk user reset-password <email>`: a one-time link for the operator to pass on, or null for an unknown email. */
export async function issueOperatorReset(
  deps: Pick<Deps, "db" | "clock" | "config">,
  email: string,
): Promise<{ url: string; expiresAt: string } | null> {
  return await transact(deps.db, async (tx) => {
    const user = first(
      await tx.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1),
    );
    if (!user) return null;
    const { row, url } = await issueReset(tx, deps, user.id, "operator", null);
    return { url, expiresAt: row.expiresAt };
  });
}

const invalidToken = () =>
  invalidAt("body.token", "This reset link is invalid, expired or already used; ask for a new one.", "invalid_token");

/** Marks every open reset of a person used: a finished reset or a changed password retires the others. */
export async function retireResets(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: now.toISOString() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Revokes a person's live sessions, except `keep`; answers the ids revoked (signal them after commit). */
export async function revokeSessionsOf(
  tx: Tx,
  userId: string,
  reason: string,
  now: Date,
  keep: string | null = null,
): Promise<string[]> {
  const live = (await liveSessions(tx, userId, now)).filter((s) => s.id !== keep);
  for (const s of live) await revokeSession(tx, s.id, reason, now);
  return live.map((s) => s.id);
}

export const liveSessions = async (db: Queryable, userId: string, now: Date) =>
  await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now.toISOString())));

/**
 * POST /v1/auth/password/reset: a live, unused token sets the new password, retires every reset
 * of the person and ends all their sessions (whoever knew the old password is signed out).
 * Two-factor stays on: the next sign-in still asks for the code.
 */
export async function completePasswordReset(
  deps: Pick<Deps, "db" | "clock">,
  token: string,
  password: string,
): Promise<void> {
  const hash = sha256Hex(token);
  const now = deps.clock.now();
  const found = first(await deps.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, hash)).limit(1));
  if (!found || found.usedAt || found.expiresAt <= now.toISOString()) throw invalidToken();
  const passwordHash = await hashPassword(password);
  const revoked = await transact(deps.db, async (tx) => {
    // Checked again after the hashing's await: two uses of one link race, only one wins.
    const row = first(await tx.select().from(passwordResets).where(eq(passwordResets.tokenHash, hash)).limit(1));
    if (!row || row.usedAt || row.expiresAt <= now.toISOString()) throw invalidToken();
    await tx.update(users).set({ passwordHash, updatedAt: now.toISOString() }).where(eq(users.id, row.userId));
    await retireResets(tx, row.userId, now);
    return { userId: row.userId, ids: await revokeSessionsOf(tx, row.userId, "password_reset", now) };
  });
  if (revoked.ids.length)
    signalAccessEnded(deps.db, { kind: "sessions", userId: revoked.userId, sessionIds: revoked.ids });
}
