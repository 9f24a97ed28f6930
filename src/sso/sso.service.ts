import { and, count, eq, gt, isNotNull, lt } from "drizzle-orm";
import type { UserRow } from "../auth/auth.present";
import { issueMfaToken } from "../auth/auth.service";
import { users } from "../auth/auth.table";
import { addSetCookie, readCookies, type SessionSetter } from "../auth/cookies";
import { assertRoomForAccount, beginSession, type SessionAnswer } from "../auth/session-response";
import type { SsoProviderConfig } from "../config/config";
import { withTx } from "../db/tx";
import type { Deps } from "../deps";
import { DeskError, invalidAt, notFound, unauthorized } from "../lib/errors";
import { sha256Hex, safeEqual } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { copyProviderPicture } from "../pictures/pictures.public";
import { ssoFlows, ssoIdentities } from "./sso.table";

type SsoDeps = Pick<Deps, "db" | "clock" | "config" | "secrets" | "logger">;
type OpenIdClient = typeof import("openid-client");
type OidcConfiguration = import("openid-client").Configuration;

/** A flow must come back from the provider, and its code be exchanged, within ten minutes. */
export const SSO_FLOW_TTL_MS = 10 * 60_000;
/** The cookie that binds a web flow to the browser that started it (login CSRF: nobody else's code signs you in). */
export const SSO_BROWSER_COOKIE = "desk_sso";
const SSO_COOKIE_PATH = "/v1/auth/oauth";

const browserCookie = (deps: Pick<Deps, "config">, value: string, maxAge: number) =>
  `${SSO_BROWSER_COOKIE}=${value}; Path=${SSO_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${deps.config.secureCookies ? "; Secure" : ""}`;

/** openid-client is loaded on first use: most instances configure no provider. */
const openid = (): Promise<OpenIdClient> => import("openid-client");

export const redirectUriOf = (config: Pick<Deps["config"], "baseUrl">, provider: string) =>
  `${config.baseUrl}/v1/auth/oauth/${provider}/callback`;

export function providerOf(deps: Pick<Deps, "config">, id: string): SsoProviderConfig {
  const provider = deps.config.ssoProviders.find((p) => p.id === id);
  if (!provider) throw notFound("Sign-in provider");
  return provider;
}

export const listProviders = (deps: Pick<Deps, "config">) => ({
  providers: deps.config.ssoProviders.map((p) => ({
    id: p.id,
    name: p.name,
    start_url: `/v1/auth/oauth/${p.id}/start`,
  })),
});

/** Discovery documents, fetched once per provider and kept (a failed fetch is tried again next time). */
const discovered = new WeakMap<object, Map<string, Promise<OidcConfiguration>>>();

async function configurationOf(deps: SsoDeps, provider: SsoProviderConfig): Promise<OidcConfiguration> {
  let byProvider = discovered.get(deps.config);
  if (!byProvider) {
    byProvider = new Map();
    discovered.set(deps.config, byProvider);
  }
  let pending = byProvider.get(provider.id);
  if (!pending) {
    pending = openid().then((client) =>
      client.discovery(
        new URL(provider.issuer),
        provider.clientId,
        { redirect_uris: [redirectUriOf(deps.config, provider.id)] },
        provider.clientSecret ? client.ClientSecretPost(provider.clientSecret) : client.None(),
        // An http:// issuer is one the operator configured on purpose (a homelab Keycloak, the tests).
        provider.issuer.startsWith("http://") ? { execute: [client.allowInsecureRequests] } : undefined,
      ),
    );
    byProvider.set(provider.id, pending);
    pending.catch(() => byProvider.delete(provider.id));
  }
  return pending;
}

/** Only a path on this site: `/inbox/x`, never `//evil.example` or a full URL. */
const safeNext = (next: string | undefined) =>
  next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : null;

const s256 = (verifier: string) =>
  Buffer.from(new Bun.CryptoHasher("sha256").update(verifier).digest()).toString("base64url");

export type StartQuery = { client?: "web" | "native"; code_challenge?: string; next?: string };

/**
 * GET /v1/auth/oauth/{provider}/start: remembers the flow (state, our PKCE verifier, nonce, and how
 * the client will prove it started it) and answers the provider's authorization URL to redirect to.
 */
export async function startSignIn(
  deps: SsoDeps,
  providerId: string,
  query: StartQuery,
  set: SessionSetter,
): Promise<string> {
  const provider = providerOf(deps, providerId);
  const native = query.client === "native";
  if (native && !query.code_challenge)
    throw invalidAt("query.code_challenge", "A native sign-in needs its PKCE code_challenge (S256).");
  const client = await openid();
  const configuration = await configurationOf(deps, provider).catch((error: unknown) => {
    deps.logger.warn({ err: error, provider: provider.id }, "sso discovery failed");
    throw new DeskError(502, "provider_unavailable", `${provider.name} cannot be reached right now; try again.`);
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const now = deps.clock.now();
  const browserSecret = native ? null : randomToken(24);
  withTx(deps.db, (tx) => {
    tx.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now.toISOString())).run();
    tx.insert(ssoFlows)
      .values({
        state,
        provider: provider.id,
        verifierSealed: deps.secrets.seal(verifier),
        nonce,
        client: native ? "native" : "web",
        browserHash: browserSecret ? sha256Hex(browserSecret) : null,
        nativeChallenge: native ? (query.code_challenge ?? null) : null,
        next: safeNext(query.next),
        expiresAt: new Date(now.getTime() + SSO_FLOW_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      })
      .run();
  });
  if (browserSecret) addSetCookie(set, browserCookie(deps, browserSecret, SSO_FLOW_TTL_MS / 1000));
  return client
    .buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUriOf(deps.config, provider.id),
      scope: provider.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    })
    .toString();
}

/** Why a sign-in came back without a session: the `sso_error` the sign-in page (or the app) shows. */
export type SsoFailure =
  | "invalid_state"
  | "denied"
  | "provider_error"
  | "email_not_verified"
  | "no_account"
  | "provider_unavailable";

const failure = (reason: SsoFailure) => Object.assign(new Error(reason), { reason });

/**
 * GET /v1/auth/oauth/{provider}/callback: checks state, exchanges the code with our PKCE verifier,
 * checks the ID token (issuer, audience, nonce, signature through the provider's keys) and finds
 * the person: by their link to this provider account; else by a *verified* email, linking it;
 * else a new person when sign-up is open. Answers where to send the browser: the web sign-in page
 * or the app's callback, with a one-time code (or the reason it failed).
 */
export async function completeSignIn(
  deps: SsoDeps,
  providerId: string,
  query: Record<string, string | undefined>,
): Promise<string> {
  const provider = providerOf(deps, providerId);
  const now = deps.clock.now();
  const flow = query.state
    ? deps.db
        .delete(ssoFlows)
        .where(
          and(
            eq(ssoFlows.state, query.state),
            eq(ssoFlows.provider, provider.id),
            gt(ssoFlows.expiresAt, now.toISOString()),
          ),
        )
        .returning()
        .get()
    : undefined;
  if (!flow || flow.codeHash) return webAnswer(deps, null, { error: "invalid_state" });
  try {
    if (query.error) throw failure(query.error === "access_denied" ? "denied" : "provider_error");
    const user = await personFromProvider(deps, provider, flow, query);
    const code = randomToken(32);
    deps.db
      .insert(ssoFlows)
      .values({ ...flow, userId: user.id, codeHash: sha256Hex(code) })
      .run();
    return answerTo(deps, flow, { code });
  } catch (error) {
    const reason = (error as { reason?: SsoFailure }).reason;
    if (!reason) deps.logger.warn({ err: error, provider: provider.id }, "sso callback failed");
    return answerTo(deps, flow, { error: reason ?? "provider_error" });
  }
}

function answerTo(deps: SsoDeps, flow: typeof ssoFlows.$inferSelect, result: { code?: string; error?: SsoFailure }) {
  if (flow.client === "native") {
    const url = new URL(`${deps.config.appScheme}://auth/callback`);
    if (result.code) url.searchParams.set("code", result.code);
    if (result.error) url.searchParams.set("error", result.error);
    return url.toString();
  }
  return webAnswer(deps, flow.next, result);
}

/** The web sign-in page; the code travels in the fragment, so no server log or Referer ever holds it. */
function webAnswer(deps: SsoDeps, next: string | null, result: { code?: string; error?: SsoFailure }) {
  const url = new URL(`${deps.config.baseUrl}/signin`);
  if (next) url.searchParams.set("next", next);
  if (result.error) url.searchParams.set("sso_error", result.error);
  if (result.code) url.hash = `sso_code=${result.code}`;
  return url.toString();
}

async function personFromProvider(
  deps: SsoDeps,
  provider: SsoProviderConfig,
  flow: typeof ssoFlows.$inferSelect,
  query: Record<string, string | undefined>,
): Promise<UserRow> {
  const client = await openid();
  const configuration = await configurationOf(deps, provider).catch(() => {
    throw failure("provider_unavailable");
  });
  const current = new URL(redirectUriOf(deps.config, provider.id));
  for (const [key, value] of Object.entries(query)) if (value !== undefined) current.searchParams.set(key, value);
  const tokens = await client
    .authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: deps.secrets.open(flow.verifierSealed),
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    })
    .catch((error: unknown) => {
      deps.logger.warn({ err: error, provider: provider.id }, "sso code exchange refused");
      throw failure("provider_error");
    });
  const idClaims = tokens.claims();
  if (!idClaims?.sub) throw failure("provider_error");
  // Providers that keep the ID token small (oidc-provider, Entra) answer the email at userinfo.
  const claims: Record<string, unknown> =
    typeof idClaims.email === "string"
      ? idClaims
      : {
          ...(await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub).catch(() => ({}))),
          sub: idClaims.sub,
        };
  if (typeof claims.sub !== "string") throw failure("provider_error");
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : null;
  const verified = claims.email_verified === true || claims.email_verified === "true";
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 100) : null;
  const person = linkPerson(deps, provider.id, claims.sub, verified ? email : null, name);
  if (!person.avatarUrl && typeof claims.picture === "string") copyProviderPicture(deps, person.id, claims.picture);
  return person;
}

/** The person this provider account is, linking or creating them by verified email only. */
export function linkPerson(
  deps: SsoDeps,
  provider: string,
  subject: string,
  verifiedEmail: string | null,
  name: string | null,
): UserRow {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    const linked = tx
      .select({ user: users })
      .from(ssoIdentities)
      .innerJoin(users, eq(users.id, ssoIdentities.userId))
      .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, subject)))
      .get();
    if (linked) {
      tx.update(ssoIdentities)
        .set({ lastUsedAt: now, updatedAt: now })
        .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, subject)))
        .run();
      return linked.user;
    }
    if (!verifiedEmail) throw failure("email_not_verified");
    let person = tx.select().from(users).where(eq(users.email, verifiedEmail)).get();
    if (!person) {
      const anyone = (tx.select({ n: count() }).from(users).get()?.n ?? 0) > 0;
      if (anyone && !deps.config.openSignup) throw failure("no_account");
      person = tx
        .insert(users)
        .values({
          id: newId(),
          email: verifiedEmail,
          name: name ?? verifiedEmail.split("@")[0]!,
          passwordHash: null,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get();
    }
    tx.insert(ssoIdentities)
      .values({
        id: newId(),
        provider,
        subject,
        userId: person.id,
        email: verifiedEmail,
        lastUsedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    return person;
  });
}

const refused = () => unauthorized("The sign-in code is invalid, expired or already used; sign in again.");

/**
 * POST /v1/auth/oauth/exchange: the one-time code from the callback, once, by the client that
 * started the flow (the browser holding its cookie, or the app knowing the PKCE verifier). Answers
 * a session like login, or `mfa_required` when the person has Desk's own two-factor on.
 */
export async function exchangeCode(
  deps: Deps,
  request: Request,
  set: SessionSetter,
  body: { code: string; code_verifier?: string },
): Promise<SessionAnswer | { mfa_required: true; mfa_token: string }> {
  const now = deps.clock.now().toISOString();
  const flow = deps.db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.codeHash, sha256Hex(body.code)), isNotNull(ssoFlows.userId), gt(ssoFlows.expiresAt, now)))
    .returning()
    .get();
  if (!flow?.userId) throw refused();
  if (flow.client === "native") {
    if (!body.code_verifier || !flow.nativeChallenge || !safeEqual(s256(body.code_verifier), flow.nativeChallenge))
      throw refused();
  } else {
    const presented = readCookies(request).get(SSO_BROWSER_COOKIE);
    if (!presented || !flow.browserHash || !safeEqual(sha256Hex(presented), flow.browserHash)) throw refused();
    addSetCookie(set, browserCookie(deps, "", 0));
  }
  const user = deps.db.select().from(users).where(eq(users.id, flow.userId)).get();
  if (!user) throw refused();
  assertRoomForAccount(deps, request, user.id);
  if (user.mfaEnabled) return { mfa_required: true as const, mfa_token: await issueMfaToken(deps, user) };
  return beginSession(deps, request, set, user, { mfaVerified: false });
}
