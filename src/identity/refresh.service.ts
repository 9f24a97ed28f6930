import { first } from "../db/store";
import { eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { invalidAt, unauthorized } from "../lib/errors";
import { safeEqual, sha256Hex } from "../lib/crypto";
import { presentUser } from "./auth.present";
import { sessions, users } from "./identity.table";
import { browserAccounts } from "./browser-accounts";
import {
  addSetCookie,
  clearedCookie,
  isNativeRequest,
  presentedRefreshCookies,
  refreshCookieName,
  type PresentedCookie,
} from "../auth/cookies";
import { answerSession, type SessionAnswer, type SessionSetter } from "./session-response";
import { parseRefreshToken, revokeSession, rotateRefreshToken } from "./sessions";
import { signalAccessEnded } from "../auth/session-signals";

type SessionRow = typeof sessions.$inferSelect;

const sessionEnded = () => unauthorized("The session has ended; sign in again.");

async function sessionsByToken(deps: Pick<Deps, "db">, tokens: string[]): Promise<Map<string, SessionRow>> {
  const ids = tokens.flatMap((t) => parseRefreshToken(t)?.sessionId ?? []);
  if (!ids.length) return new Map();
  return new Map((await deps.db.select().from(sessions).where(inArray(sessions.id, ids))).map((s) => [s.id, s]));
}

/**
 * Which refresh cookie a browser refresh uses: the one of `user_id`, else the most recently used
 * account. Cookies of older generations still count here, so presenting a copied one is caught
 * as reuse instead of being skipped.
 */
async function chooseCookie(
  deps: Pick<Deps, "db" | "clock">,
  cookies: PresentedCookie[],
  userId: string | undefined,
): Promise<PresentedCookie | null> {
  const rows = await sessionsByToken(
    deps,
    cookies.map((c) => c.token),
  );
  const now = deps.clock.now().toISOString();
  const candidates = cookies
    .map((cookie) => ({ cookie, row: rows.get(parseRefreshToken(cookie.token)?.sessionId ?? "") }))
    .filter(({ cookie, row }) => {
      if (!row || row.revokedAt || row.expiresAt <= now) return false;
      if (cookie.userId && cookie.userId !== row.userId) return false;
      return userId === undefined || row.userId === userId;
    })
    .sort((a, b) => (a.row!.lastUsedAt < b.row!.lastUsedAt ? 1 : -1));
  if (candidates[0]) return candidates[0].cookie;
  if (userId !== undefined) return cookies.find((c) => c.userId === userId) ?? null;
  return cookies[0] ?? null;
}

/** POST /v1/auth/refresh: rotates the refresh token and answers a new access token. */
export async function refreshSession(
  deps: Deps,
  request: Request,
  set: SessionSetter,
  body: { user_id?: string; refresh_token?: string },
): Promise<SessionAnswer> {
  const native = isNativeRequest(request);
  let cookie: PresentedCookie | null = null;
  let token: string;
  if (native) {
    if (!body.refresh_token) throw invalidAt("body.refresh_token", "native clients send their refresh_token");
    token = body.refresh_token;
  } else {
    if (body.refresh_token)
      throw invalidAt(
        "body.refresh_token",
        "only native clients (DESK-Client: ios/<version>, no Origin) send refresh_token",
      );
    cookie = await chooseCookie(deps, presentedRefreshCookies(request), body.user_id?.toLowerCase());
    if (!cookie) throw unauthorized("No sign-in for this account in this browser; sign in again.");
    token = cookie.token;
  }
  const now = deps.clock.now();
  const expectedUser = cookie?.userId ?? null;
  const outcome = await transact(deps.db, async (tx) => {
    // A cookie named for one person must hold that person's session: never rotate someone else's.
    const owner = first(
      await tx
        .select({ userId: sessions.userId })
        .from(sessions)
        .where(eq(sessions.id, parseRefreshToken(token)?.sessionId ?? ""))
        .limit(1),
    );
    if (expectedUser && owner?.userId !== expectedUser) return { kind: "invalid" as const };
    return await rotateRefreshToken(tx, token, now);
  });
  if (outcome.kind !== "rotated") {
    if (cookie) addSetCookie(set, clearedCookie(deps.config, cookie.name));
    if (outcome.kind === "reused") {
      const sessionId = parseRefreshToken(token)!.sessionId;
      signalAccessEnded(deps.db, { kind: "sessions", userId: outcome.userId, sessionIds: [sessionId] });
      throw unauthorized("This sign-in was used from two places, so it was ended for safety; sign in again.");
    }
    throw sessionEnded();
  }
  const user = first(await deps.db.select().from(users).where(eq(users.id, outcome.session.userId)).limit(1));
  if (!user) throw sessionEnded();
  return answerSession(deps, request, set, outcome.session, outcome.refreshToken, user, {
    clearLegacy: cookie !== null && cookie.userId === null,
  });
}

/** POST /v1/auth/accounts: the accounts this browser holds, most recently used first. Rotates nothing. */
export async function listBrowserAccounts(deps: Pick<Deps, "db" | "clock" | "credentials">, request: Request) {
  const accounts = await browserAccounts(deps.db, request, deps.clock.now());
  if (!accounts.length) return { accounts: [] };
  const rows = new Map(
    (
      await deps.db
        .select()
        .from(users)
        .where(
          inArray(
            users.id,
            accounts.map((a) => a.userId),
          ),
        )
    ).map((u) => [u.id, u]),
  );
  const answer = [];
  for (const a of accounts) {
    const user = rows.get(a.userId);
    if (user) answer.push({ user: presentUser(user), workspaces: await deps.credentials.workspacesOf(user.id) });
  }
  return { accounts: answer };
}

/**
 * The session a refresh token proves, for sign-out. The current generation must match; an older
 * one still names the session (it is revoked either way, as reuse would).
 */
function provenSession(rows: Map<string, SessionRow>, token: string, cookieUserId: string | null): SessionRow | null {
  const parsed = parseRefreshToken(token);
  const row = parsed ? rows.get(parsed.sessionId) : undefined;
  if (!parsed || !row || row.revokedAt) return null;
  if (cookieUserId && cookieUserId !== row.userId) return null;
  if (parsed.generation > row.generation) return null;
  if (parsed.generation === row.generation && !safeEqual(sha256Hex(parsed.secret), row.refreshHash)) return null;
  return row;
}

/**
 * POST /v1/auth/logout: ends the current account's session (the bearer token's, or the cookie of
 * `user_id`, or the most recent account), or with `all` every account this browser presents.
 * Cookies are cleared and live sockets of the ended sessions close.
 */
export async function logout(
  deps: Deps,
  request: Request,
  set: SessionSetter,
  body: { all?: boolean; user_id?: string; refresh_token?: string },
): Promise<void> {
  const bearer = await deps.credentials.credential(request).catch(() => null);
  const bearerSession =
    bearer?.kind === "user" && bearer.sessionId ? { userId: bearer.userId, sessionId: bearer.sessionId } : null;
  const cookies = isNativeRequest(request) ? [] : presentedRefreshCookies(request);
  const tokens = [...cookies.map((c) => c.token), ...(body.refresh_token ? [body.refresh_token] : [])];
  const rows = await sessionsByToken(deps, tokens);
  const now = deps.clock.now();

  const ending = new Map<string, string>(); // session id -> user id
  const toClear = new Set<string>();
  if (body.refresh_token) {
    const row = provenSession(rows, body.refresh_token, null);
    if (row) ending.set(row.id, row.userId);
  }
  const proven = cookies.map((cookie) => ({ cookie, row: provenSession(rows, cookie.token, cookie.userId) }));
  let target = body.user_id?.toLowerCase() ?? bearerSession?.userId;
  if (!target && !body.all && !body.refresh_token) target = (await browserAccounts(deps.db, request, now))[0]?.userId;
  for (const { cookie, row } of proven) {
    const owner = row?.userId ?? cookie.userId;
    if (body.all || (target !== undefined && owner === target)) {
      toClear.add(cookie.name);
      if (row) ending.set(row.id, row.userId);
    }
  }
  if (bearerSession && (body.all || bearerSession.userId === target)) {
    ending.set(bearerSession.sessionId, bearerSession.userId);
    if (!isNativeRequest(request) && cookies.some((c) => c.name === refreshCookieName(bearerSession.userId)))
      toClear.add(refreshCookieName(bearerSession.userId));
  }

  await transact(deps.db, async (tx) => {
    for (const sessionId of ending.keys()) await revokeSession(tx, sessionId, "signed_out", now);
  });
  for (const name of toClear) addSetCookie(set, clearedCookie(deps.config, name));
  const byUser = new Map<string, string[]>();
  for (const [sessionId, userId] of ending) byUser.set(userId, [...(byUser.get(userId) ?? []), sessionId]);
  for (const [userId, sessionIds] of byUser) signalAccessEnded(deps.db, { kind: "sessions", userId, sessionIds });
}
