import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { conflict, forbidden } from "../lib/errors";
import { requestMeta } from "../http/request-meta";
import type { UserRow, UserJson } from "./auth.present";
import { presentUser } from "./auth.present";
import type { sessions } from "./identity.table";
import { browserAccounts, browserSessions, MAX_BROWSER_ACCOUNTS } from "./browser-accounts";
import {
  addSetCookie,
  clearedCookie,
  isCrossSiteRequest,
  isNativeRequest,
  LEGACY_REFRESH_COOKIE,
  refreshCookie,
  type SessionSetter,
} from "../auth/cookies";
import { createSession, issueAccessToken, revokeSession } from "./sessions";
import { signalAccessEnded } from "../auth/session-signals";
import { TOKEN_TTL_SECONDS } from "../auth/tokens";

export type { SessionSetter } from "../auth/cookies";

/** What every session-starting route answers: login, register, mfa, refresh, invitation accept, … */
export type SessionAnswer = { access_token: string; expires_in: number; user: UserJson; refresh_token?: string };

type SessionRow = typeof sessions.$inferSelect;

export const tooManyAccounts = () =>
  conflict(
    `This browser is already signed in to ${MAX_BROWSER_ACCOUNTS} accounts; sign out of one first.`,
    "too_many_accounts",
  );

export const crossSiteRefused = () =>
  forbidden("Cross-site request refused: sign-in routes answer only Desk's own pages.");

/**
 * Every route asks this before it starts a browser session (and before creating anyone): refuses
 * a request from another site (403, so no page can sign a visitor in to an account of its
 * choosing) and a sixth distinct account in this browser (409 too_many_accounts). Native clients
 * hold one account per refresh token and are not counted. Pass null for a person who does not exist yet.
 */
export async function assertRoomForAccount(
  deps: Pick<Deps, "db" | "clock" | "config">,
  request: Request,
  userId: string | null,
): Promise<void> {
  if (isCrossSiteRequest(deps.config, request)) throw crossSiteRefused();
  if (isNativeRequest(request)) return;
  const accounts = await browserAccounts(deps.db, request, deps.clock.now());
  if (userId && accounts.some((a) => a.userId === userId)) return;
  if (accounts.length >= MAX_BROWSER_ACCOUNTS) throw tooManyAccounts();
}

/**
 * The one way a verified person gets a session (password, code, invitation, and later passkeys,
 * OAuth, app attestation): starts the session, answers the access token and either sets the
 * `desk_rt_<user id>` cookie (browsers) or returns `refresh_token` in the body (native apps).
 * A browser signing in again to an account it already holds replaces that account's old session.
 */
export async function beginSession(
  deps: Deps,
  request: Request,
  set: SessionSetter,
  user: UserRow,
  options: { mfaVerified: boolean },
): Promise<SessionAnswer> {
  if (isCrossSiteRequest(deps.config, request)) throw crossSiteRefused();
  const native = isNativeRequest(request);
  const now = deps.clock.now();
  const meta = requestMeta(request);
  const { created, replaced, clearLegacy } = await transact(deps.db, async (tx) => {
    const replaced: string[] = [];
    let clearLegacy = false;
    if (!native) {
      const held = await browserSessions(tx, request, now);
      const same = held.filter((a) => a.userId === user.id);
      if (!same.length && new Set(held.map((a) => a.userId)).size >= MAX_BROWSER_ACCOUNTS) throw tooManyAccounts();
      for (const account of same) {
        await revokeSession(tx, account.sessionId, "replaced", now);
        replaced.push(account.sessionId);
        if (!account.cookie.userId) clearLegacy = true;
      }
    }
    const created = await createSession(tx, {
      userId: user.id,
      client: native ? "native" : "web",
      mfaVerified: options.mfaVerified,
      userAgent: request.headers.get("user-agent"),
      ip: meta.ip,
      now,
    });
    return { created, replaced, clearLegacy };
  });
  if (replaced.length) signalAccessEnded(deps.db, { kind: "sessions", userId: user.id, sessionIds: replaced });
  return answerSession(deps, request, set, created.session, created.refreshToken, user, { clearLegacy });
}

/** Answers a live session with a fresh access token, delivering its refresh token by cookie or body. */
export async function answerSession(
  deps: Pick<Deps, "config" | "tokens">,
  request: Request,
  set: SessionSetter,
  session: SessionRow,
  refreshToken: string,
  user: UserRow,
  options: { clearLegacy?: boolean } = {},
): Promise<SessionAnswer> {
  const accessToken = await issueAccessToken(deps.tokens, session);
  const answer: SessionAnswer = {
    access_token: accessToken,
    expires_in: TOKEN_TTL_SECONDS.access,
    user: presentUser(user),
  };
  if (isNativeRequest(request)) return { ...answer, refresh_token: refreshToken };
  addSetCookie(set, refreshCookie(deps.config, user.id, refreshToken));
  if (options.clearLegacy) addSetCookie(set, clearedCookie(deps.config, LEGACY_REFRESH_COOKIE));
  set.headers["cache-control"] = "no-store";
  return answer;
}
