import { first, one } from "../db/store";
import { and, eq, isNull } from "drizzle-orm";
import { SESSION_TTL_MS } from "../auth/cookies";
import type { Db, Queryable, Tx } from "../db/database";
import { sha256Hex } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { sessions } from "./identity.table";
import { identityStatements, type SessionCheck } from "./identity.statements";
import type { TokenService } from "../auth/tokens";

export type NewSession = {
  userId: string;
  client: "web" | "native";
  mfaVerified: boolean;
  userAgent?: string | null;
  ip?: string | null;
  now: Date;
};

let lastUse = 0;

/**
 * last_used_at decides which of a browser's accounts was used most recently, so two uses in the same
 * millisecond must still be ordered: each stamp is after the previous one (a jump back of more than
 * a second, as a test clock makes, is taken as it is).
 */
function useStamp(now: Date): string {
  let ms = now.getTime();
  if (ms <= lastUse && lastUse - ms < 1000) ms = lastUse + 1;
  lastUse = ms;
  return new Date(ms).toISOString();
}

const refreshToken = (sessionId: string, generation: number, secret: string) => `${sessionId}.${generation}.${secret}`;

export function parseRefreshToken(token: string): { sessionId: string; generation: number; secret: string } | null {
  const [sessionId, generation, secret, ...rest] = token.split(".");
  if (!sessionId || !generation || !secret || rest.length || !/^\d+$/.test(generation)) return null;
  return { sessionId, generation: Number(generation), secret };
}

/** Starts a session and returns it with its first refresh token (which only this return holds). */
export async function createSession(tx: Tx | Db, input: NewSession) {
  const secret = randomToken(32);
  const now = input.now.toISOString();
  const session = one(
    await tx
      .insert(sessions)
      .values({
        id: newId(),
        userId: input.userId,
        client: input.client,
        generation: 0,
        refreshHash: sha256Hex(secret),
        authenticatedAt: now,
        mfaVerified: input.mfaVerified,
        userAgent: input.userAgent?.slice(0, 300) ?? null,
        ip: input.ip ?? null,
        createdAt: now,
        lastUsedAt: useStamp(input.now),
        expiresAt: new Date(input.now.getTime() + SESSION_TTL_MS).toISOString(),
        updatedAt: now,
      })
      .returning(),
  );
  return { session, refreshToken: refreshToken(session.id, 0, secret) };
}

export type RotateOutcome =
  | { kind: "rotated"; session: typeof sessions.$inferSelect; refreshToken: string }
  | { kind: "reused"; userId: string }
  | { kind: "invalid" };

/**
 * Rotates a refresh token: the presented generation must be the current one. Presenting an older
 * generation means the token was copied: the whole session is revoked.
 */
export async function rotateRefreshToken(tx: Tx, token: string, now: Date): Promise<RotateOutcome> {
  const parsed = parseRefreshToken(token);
  if (!parsed) return { kind: "invalid" };
  const session = first(await tx.select().from(sessions).where(eq(sessions.id, parsed.sessionId)).limit(1));
  if (!session || session.revokedAt || session.expiresAt <= now.toISOString()) return { kind: "invalid" };
  if (parsed.generation < session.generation) {
    await revokeSession(tx, session.id, "refresh_token_reused", now);
    return { kind: "reused", userId: session.userId };
  }
  if (parsed.generation !== session.generation || sha256Hex(parsed.secret) !== session.refreshHash)
    return { kind: "invalid" };
  const secret = randomToken(32);
  const generation = session.generation + 1;
  const updated = one(
    await tx
      .update(sessions)
      .set({
        generation,
        refreshHash: sha256Hex(secret),
        lastUsedAt: useStamp(now),
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        updatedAt: now.toISOString(),
      })
      .where(eq(sessions.id, session.id))
      .returning(),
  );
  return { kind: "rotated", session: updated, refreshToken: refreshToken(session.id, generation, secret) };
}

export async function revokeSession(tx: Tx | Db, sessionId: string, reason: string, now: Date): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: now.toISOString(), revokedReason: reason, updatedAt: now.toISOString() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export function issueAccessToken(
  tokens: TokenService,
  session: { id: string; userId: string; authenticatedAt: string; mfaVerified: boolean },
) {
  return tokens.sign("access", {
    sub: session.userId,
    sid: session.id,
    auth_time: Math.floor(new Date(session.authenticatedAt).getTime() / 1000),
    amr: session.mfaVerified ? ["pwd", "otp"] : ["pwd"],
  });
}

/** The session an access token names, by a statement prepared once (the credential check runs it on every request). */
export function sessionLookup(db: Db): (sessionId: string) => (SessionCheck | null) | Promise<SessionCheck | null> {
  return identityStatements(db).sessionCheck;
}

/** How a session was signed in (second factor, when), for actions that need a strong or recent sign-in. */
export async function signInOf(
  db: Queryable,
  sessionId: string,
): Promise<{ mfaVerified: boolean; authenticatedAt: string } | null> {
  return (
    first(
      await db
        .select({ mfaVerified: sessions.mfaVerified, authenticatedAt: sessions.authenticatedAt })
        .from(sessions)
        .where(eq(sessions.id, sessionId))
        .limit(1),
    ) ?? null
  );
}
