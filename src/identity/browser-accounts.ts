import { inArray } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { safeEqual, sha256Hex } from "../lib/crypto";
import { sessions } from "./identity.table";
import { presentedRefreshCookies, type PresentedCookie } from "../auth/cookies";
import { parseRefreshToken } from "./sessions";

/** A signed-in account this browser proves with a current refresh cookie. */
export type BrowserAccount = { cookie: PresentedCookie; userId: string; sessionId: string; lastUsedAt: string };

/** SPEC.md "Access tokens and sessions" rule 6. */
export const MAX_BROWSER_ACCOUNTS = 5;

/**
 * The live accounts behind this browser's refresh cookies, most recently used first, one per user.
 * A cookie counts only when it holds the session's current generation: it reads nothing and
 * rotates nothing, so listing accounts never revokes a session.
 */
export async function browserAccounts(db: Queryable, request: Request, now: Date): Promise<BrowserAccount[]> {
  const byUser = new Map<string, BrowserAccount>();
  for (const entry of await browserSessions(db, request, now)) {
    const known = byUser.get(entry.userId);
    // The new-style cookie wins over the legacy one for the same person.
    if (!known || (!known.cookie.userId && entry.cookie.userId)) byUser.set(entry.userId, entry);
  }
  return [...byUser.values()].sort((a, b) => (a.lastUsedAt < b.lastUsedAt ? 1 : a.lastUsedAt > b.lastUsedAt ? -1 : 0));
}

/** Every presented refresh cookie holding a live session's current generation (a person may appear twice: legacy and new cookie). */
export async function browserSessions(db: Queryable, request: Request, now: Date): Promise<BrowserAccount[]> {
  const cookies = presentedRefreshCookies(request);
  const parsed = cookies.map((cookie) => ({ cookie, token: parseRefreshToken(cookie.token) }));
  const ids = [...new Set(parsed.flatMap((p) => (p.token ? [p.token.sessionId] : [])))];
  if (!ids.length) return [];
  const rows = new Map((await db.select().from(sessions).where(inArray(sessions.id, ids))).map((row) => [row.id, row]));
  const nowIso = now.toISOString();
  const live: BrowserAccount[] = [];
  for (const { cookie, token } of parsed) {
    const row = token ? rows.get(token.sessionId) : undefined;
    if (!token || !row || row.revokedAt || row.expiresAt <= nowIso) continue;
    if (cookie.userId && cookie.userId !== row.userId) continue;
    if (token.generation !== row.generation || !safeEqual(sha256Hex(token.secret), row.refreshHash)) continue;
    live.push({ cookie, userId: row.userId, sessionId: row.id, lastUsedAt: row.lastUsedAt });
  }
  return live;
}
