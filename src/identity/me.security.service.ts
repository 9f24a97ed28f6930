import { first } from "../db/store";
import { and, eq, gt, isNull } from "drizzle-orm";
import { sessions, users } from "./identity.table";
import type { UserContext } from "../auth/context";
import { hashPassword, verifyPassword } from "./passwords";
import { revokeSession } from "./sessions";
import { signalAccessEnded } from "../auth/session-signals";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt, notFound, unauthorized } from "../lib/errors";
import { deskRateLimiter, enforceRateLimits, type RateLimiter } from "../http/rate-limit";
import type { RequestMeta } from "../http/request-meta";
import { liveSessions, retireResets, revokeSessionsOf } from "./password-resets.service";
import { findUserRow } from "./me.service";

type SecurityDeps = Pick<Deps, "db" | "clock">;

/** Wrong current passwords allowed per person: a stolen access token must not become a password oracle. */
export const PASSWORD_CHANGE_LIMIT = { attempts: 5, windowMs: 15 * 60_000 } as const;

export const createPasswordChangeLimiter = (deps: Pick<Deps, "clock" | "db">): RateLimiter =>
  deskRateLimiter(deps, {
    name: "password-change",
    limit: PASSWORD_CHANGE_LIMIT.attempts,
    windowMs: PASSWORD_CHANGE_LIMIT.windowMs,
  });

/**
 * POST /v1/me/password: needs the current password; sets the new one, retires open reset links
 * and signs out every other session (this one stays). Answers how many sessions ended.
 */
export async function changePassword(
  deps: SecurityDeps,
  limiter: RateLimiter,
  user: UserContext,
  input: { current_password: string; new_password: string },
  /** The request's meta, so the answer carries the budget's RateLimit-* headers. */
  meta?: RequestMeta,
): Promise<{ signed_out_sessions: number }> {
  await enforceRateLimits([[limiter, user.userId]], meta);
  const row = await findUserRow(deps, user.userId);
  if (!row) throw unauthorized();
  if (!(await verifyPassword(input.current_password, row.passwordHash))) {
    await limiter.hit(user.userId);
    throw invalidAt("body.current_password", "The current password is wrong.", "invalid_password");
  }
  const passwordHash = await hashPassword(input.new_password);
  const now = deps.clock.now();
  const ended = await transact(deps.db, async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now.toISOString() }).where(eq(users.id, row.id));
    await retireResets(tx, row.id, now);
    return await revokeSessionsOf(tx, row.id, "password_changed", now, user.sessionId);
  });
  await limiter.reset(user.userId);
  if (ended.length) signalAccessEnded(deps.db, { kind: "sessions", userId: row.id, sessionIds: ended });
  return { signed_out_sessions: ended.length };
}

export type SessionInfoJson = {
  id: string;
  client: "web" | "native";
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_used_at: string;
  mfa_verified: boolean;
  current: boolean;
};

/** GET /v1/me/sessions: the person's live sign-ins, most recently used first. */
export async function listMySessions(deps: SecurityDeps, user: UserContext): Promise<{ data: SessionInfoJson[] }> {
  const rows = (await liveSessions(deps.db, user.userId, deps.clock.now())).sort((a, b) =>
    a.lastUsedAt < b.lastUsedAt ? 1 : a.lastUsedAt > b.lastUsedAt ? -1 : 0,
  );
  return {
    data: rows.map((s) => ({
      id: s.id,
      client: s.client,
      user_agent: s.userAgent ?? null,
      ip: s.ip ?? null,
      created_at: s.createdAt,
      last_used_at: s.lastUsedAt,
      mfa_verified: s.mfaVerified,
      current: s.id === user.sessionId,
    })),
  };
}

/** DELETE /v1/me/sessions/{id}: ends one of the person's live sessions; anyone else's is 404. */
export async function revokeMySession(deps: SecurityDeps, user: UserContext, sessionId: string): Promise<void> {
  const now = deps.clock.now();
  const found = await transact(deps.db, async (tx) => {
    const row = first(
      await tx
        .select({ id: sessions.id })
        .from(sessions)
        .where(
          and(
            eq(sessions.id, sessionId),
            eq(sessions.userId, user.userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, now.toISOString()),
          ),
        )
        .limit(1),
    );
    if (row) await revokeSession(tx, row.id, "signed_out_elsewhere", now);
    return !!row;
  });
  if (!found) throw notFound("Session");
  signalAccessEnded(deps.db, { kind: "sessions", userId: user.userId, sessionIds: [sessionId] });
}

/** POST /v1/me/sessions/sign-out-others: ends every session but the caller's. */
export async function revokeOtherSessions(
  deps: SecurityDeps,
  user: UserContext,
): Promise<{ signed_out_sessions: number }> {
  const now = deps.clock.now();
  const ended = await transact(
    deps.db,
    async (tx) => await revokeSessionsOf(tx, user.userId, "signed_out_elsewhere", now, user.sessionId),
  );
  if (ended.length) signalAccessEnded(deps.db, { kind: "sessions", userId: user.userId, sessionIds: ended });
  return { signed_out_sessions: ended.length };
}
