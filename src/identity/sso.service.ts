import { first, one } from "../db/store";
import { and, count, eq, gt, isNotNull, lt } from "drizzle-orm";
import type { UserRow } from "./auth.present";
import { issueMfaToken } from "./auth.service";
import { users } from "./identity.table";
import { addSetCookie, readCookies, type SessionSetter } from "../auth/cookies";
import { assertRoomForAccount, beginSession, type SessionAnswer } from "./session-response";
import type { SsoProviderConfig } from "../config/config";
import { z } from "zod";
import type { UserContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { enqueue } from "../jobs/enqueue";
import { conflict, DeskError, invalidAt, notFound, unauthorized } from "../lib/errors";
import { sha256Hex, safeEqual } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { providerPicture } from "./identity.ports";
import { ssoLinkMailJob } from "./sso.mail";
import { ssoFlows, ssoIdentities } from "./sso.table";

type SsoDeps = Pick<Deps, "db" | "clock" | "config" | "secrets" | "logger" | "ports">;
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
  return startFlow(deps, providerOf(deps, providerId), query, set, null);
}

async function startFlow(
  deps: SsoDeps,
  provider: SsoProviderConfig,
  query: StartQuery,
  set: SessionSetter,
  linkUserId: string | null,
): Promise<string> {
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
  await transact(deps.db, async (tx) => {
    await tx.delete(ssoFlows).where(lt(ssoFlows.expiresAt, now.toISOString()));
    await tx.insert(ssoFlows).values({
      state,
      provider: provider.id,
      verifierSealed: deps.secrets.seal(verifier),
      nonce,
      client: native ? "native" : "web",
      browserHash: browserSecret ? sha256Hex(browserSecret) : null,
      nativeChallenge: native ? (query.code_challenge ?? null) : null,
      next: safeNext(query.next),
      userId: linkUserId,
      expiresAt: new Date(now.getTime() + SSO_FLOW_TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    });
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
  | "provider_unavailable"
  | "confirm_link_by_mail"
  | "already_linked"
  | "linked_elsewhere";

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
  request: Request,
): Promise<string> {
  const provider = providerOf(deps, providerId);
  const now = deps.clock.now();
  const flow = query.state
    ? one(
        await deps.db
          .delete(ssoFlows)
          .where(
            and(
              eq(ssoFlows.state, query.state),
              eq(ssoFlows.provider, provider.id),
              gt(ssoFlows.expiresAt, now.toISOString()),
            ),
          )
          .returning(),
      )
    : undefined;
  if (!flow || flow.codeHash) return webAnswer(deps, null, { error: "invalid_state" });
  if (flow.userId) return completeLink(deps, provider, flow, query, request);
  try {
    if (query.error) throw failure(query.error === "access_denied" ? "denied" : "provider_error");
    const user = await personFromProvider(deps, provider, flow, query);
    const code = randomToken(32);
    await deps.db.insert(ssoFlows).values({ ...flow, userId: user.id, codeHash: sha256Hex(code) });
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

type ProviderAccount = { subject: string; verifiedEmail: string | null; name: string | null; picture: string | null };

async function personFromProvider(
  deps: SsoDeps,
  provider: SsoProviderConfig,
  flow: typeof ssoFlows.$inferSelect,
  query: Record<string, string | undefined>,
): Promise<UserRow> {
  const account = await accountFromProvider(deps, provider, flow, query);
  const person = await linkPerson(deps, provider.id, account.subject, account.verifiedEmail, account.name);
  if (!person.avatarUrl && account.picture) await deps.ports.get(providerPicture)(deps, person.id, account.picture);
  return person;
}

/** The provider account behind a callback: the code exchanged, the ID token checked, the claims read. */
async function accountFromProvider(
  deps: SsoDeps,
  provider: SsoProviderConfig,
  flow: typeof ssoFlows.$inferSelect,
  query: Record<string, string | undefined>,
): Promise<ProviderAccount> {
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
  // Only the JSON boolean: a string "true" is a provider (or a mapper) passing along text nobody checked.
  const verified = claims.email_verified === true;
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 100) : null;
  return {
    subject: claims.sub,
    verifiedEmail: verified && email ? email : null,
    name,
    picture: typeof claims.picture === "string" ? claims.picture : null,
  };
}

/**
 * The person this provider account is: the one linked to it; else a new person for a verified email
 * nobody has yet (when sign-up is open). A verified email that belongs to someone already is never
 * linked here: an identity provider asserting an address proves nothing to the person who owns it
 * in Desk. They link by starting the link while signed in, or by confirming the mail sent to that
 * address (`confirm_link_by_mail`); a person linked to another account of this provider cannot
 * gain a second one (`already_linked`).
 */
export async function linkPerson(
  deps: SsoDeps,
  provider: string,
  subject: string,
  verifiedEmail: string | null,
  name: string | null,
): Promise<UserRow> {
  const now = deps.clock.now().toISOString();
  const found = await transact(
    deps.db,
    async (tx): Promise<UserRow | { confirm: { userId: string; email: string } }> => {
      const linked = first(
        await tx
          .select({ user: users })
          .from(ssoIdentities)
          .innerJoin(users, eq(users.id, ssoIdentities.userId))
          .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, subject)))
          .limit(1),
      );
      if (linked) {
        await tx
          .update(ssoIdentities)
          .set({ lastUsedAt: now, updatedAt: now })
          .where(and(eq(ssoIdentities.provider, provider), eq(ssoIdentities.subject, subject)));
        return linked.user;
      }
      if (!verifiedEmail) throw failure("email_not_verified");
      const existing = first(await tx.select().from(users).where(eq(users.email, verifiedEmail)).limit(1));
      if (existing) {
        if (await identityOf(tx, existing.id, provider)) throw failure("already_linked");
        return { confirm: { userId: existing.id, email: existing.email } };
      }
      const anyone = (first(await tx.select({ n: count() }).from(users).limit(1))?.n ?? 0) > 0;
      if (anyone && !deps.config.openSignup) throw failure("no_account");
      const person = one(
        await tx
          .insert(users)
          .values({
            id: newId(),
            email: verifiedEmail,
            name: name ?? verifiedEmail.split("@")[0]!,
            passwordHash: null,
            createdAt: now,
            updatedAt: now,
          })
          .returning(),
      );
      await insertIdentity(tx, { provider, subject, userId: person.id, email: verifiedEmail }, now);
      return person;
    },
  );
  if (!("confirm" in found)) return found;
  // Its own transaction: the failure thrown next must not roll the mail back.
  await transact(deps.db, async (tx) => await requestLinkByMail(deps, tx, { provider, subject, ...found.confirm }));
  throw failure("confirm_link_by_mail");
}

const identityOf = async (tx: Queryable, userId: string, provider: string) =>
  first(
    await tx
      .select()
      .from(ssoIdentities)
      .where(and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.provider, provider)))
      .limit(1),
  );

async function insertIdentity(
  tx: Tx,
  link: { provider: string; subject: string; userId: string; email: string | null },
  now: string,
): Promise<void> {
  await tx.insert(ssoIdentities).values({ id: newId(), ...link, lastUsedAt: now, createdAt: now, updatedAt: now });
}

/**
 * Links a provider account to a person who proved they are that person (signed in, or holding the
 * mail sent to their address), in the caller's transaction. One account per provider per person,
 * and an account already linked to someone else stays theirs. Linking it again to the same person
 * changes nothing.
 */
async function linkProven(
  tx: Tx,
  link: { provider: string; subject: string; userId: string; email: string | null },
  now: string,
): Promise<"linked" | "already_linked" | "linked_elsewhere"> {
  const holder = first(
    await tx
      .select({ userId: ssoIdentities.userId })
      .from(ssoIdentities)
      .where(and(eq(ssoIdentities.provider, link.provider), eq(ssoIdentities.subject, link.subject)))
      .limit(1),
  );
  if (holder) return holder.userId === link.userId ? "linked" : "linked_elsewhere";
  if (await identityOf(tx, link.userId, link.provider)) return "already_linked";
  await insertIdentity(tx, link, now);
  return "linked";
}

/** How long the link in a confirmation mail works. */
export const SSO_LINK_TTL_MS = 60 * 60_000;
/** At most one confirmation mail per person in this window: a provider account cannot flood an inbox. */
const LINK_MAIL_INTERVAL_MS = 10 * 60_000;
const LINK_MAIL_MEMORY = 10_000;
const linkMailsOf = deskState("sso.link-mails", () => new Map<string, number>());

const LinkToken = z.object({
  kind: z.literal("sso-link"),
  provider: z.string(),
  subject: z.string(),
  user_id: z.string(),
  email: z.string(),
  expires_at: z.string(),
});

/**
 * Mails the person at `email` a link that, opened, connects this provider account to their Desk
 * account. The link is the whole request sealed with DESK_SECRET (nothing to store; forging or
 * altering one fails to open); it names the address it was sent to, so a person whose email
 * changed since cannot use it.
 */
async function requestLinkByMail(
  deps: SsoDeps,
  tx: Tx,
  link: { provider: string; subject: string; userId: string; email: string },
): Promise<void> {
  const now = deps.clock.now();
  const sent = linkMailsOf(deps.db);
  const last = sent.get(link.userId);
  if (last !== undefined && now.getTime() - last < LINK_MAIL_INTERVAL_MS) return;
  if (sent.size >= LINK_MAIL_MEMORY) sent.clear();
  sent.set(link.userId, now.getTime());
  const token = deps.secrets.seal(
    JSON.stringify({
      kind: "sso-link",
      provider: link.provider,
      subject: link.subject,
      user_id: link.userId,
      email: link.email,
      expires_at: new Date(now.getTime() + SSO_LINK_TTL_MS).toISOString(),
    } satisfies z.infer<typeof LinkToken>),
  );
  const url = `${deps.config.baseUrl}/sso/confirm#${token}`;
  await enqueue(tx, ssoLinkMailJob, {
    user_id: link.userId,
    provider: link.provider,
    sealed_url: deps.secrets.seal(url),
  });
}

/**
 * POST /v1/auth/oauth/confirm-link: the link from the confirmation mail. Connects the provider
 * account to the person it was mailed to; they then sign in with the provider.
 */
export async function confirmLink(
  deps: SsoDeps,
  token: string,
): Promise<{ provider: { id: string; name: string }; email: string }> {
  const invalid = () =>
    new DeskError(
      400,
      "invalid_link",
      "This link is invalid or expired. Sign in with the provider again to get a new one, or link it from your profile while signed in.",
    );
  let parsed: z.infer<typeof LinkToken>;
  try {
    parsed = LinkToken.parse(JSON.parse(deps.secrets.open(token)));
  } catch {
    throw invalid();
  }
  const now = deps.clock.now().toISOString();
  if (parsed.expires_at <= now) throw invalid();
  const provider = deps.config.ssoProviders.find((p) => p.id === parsed.provider);
  if (!provider) throw invalid();
  const outcome = await transact(deps.db, async (tx) => {
    const person = first(await tx.select().from(users).where(eq(users.id, parsed.user_id)).limit(1));
    if (!person || person.email !== parsed.email) throw invalid();
    return await linkProven(
      tx,
      { provider: provider.id, subject: parsed.subject, userId: person.id, email: person.email },
      now,
    );
  });
  if (outcome === "already_linked")
    throw conflict(`Your account is already linked to another ${provider.name} account.`, "already_linked");
  if (outcome === "linked_elsewhere")
    throw conflict(`That ${provider.name} account is linked to another Desk account.`, "linked_elsewhere");
  return { provider: { id: provider.id, name: provider.name }, email: parsed.email };
}

/**
 * POST /v1/auth/oauth/{provider}/link: a signed-in person starts connecting a provider account to
 * their own. The flow row carries the person from the start (a sign-in flow gets one only at its
 * callback, with a code), and the callback links whatever account signs in at the provider, in the
 * browser that started it.
 */
export async function startLink(
  deps: SsoDeps,
  user: UserContext,
  providerId: string,
  set: SessionSetter,
): Promise<{ url: string }> {
  const provider = providerOf(deps, providerId);
  const alreadyLinked = await identityOf(deps.db, user.userId, provider.id);
  if (alreadyLinked) throw conflict(`Your account is already linked to a ${provider.name} account.`, "already_linked");
  return { url: await startFlow(deps, provider, { client: "web", next: "/profile" }, set, user.userId) };
}

async function completeLink(
  deps: SsoDeps,
  provider: SsoProviderConfig,
  flow: typeof ssoFlows.$inferSelect,
  query: Record<string, string | undefined>,
  request: Request,
): Promise<string> {
  const answer = (result: { linked?: string; error?: SsoFailure }) => {
    const url = new URL(`${deps.config.baseUrl}/profile`);
    if (result.linked) url.searchParams.set("sso_linked", result.linked);
    if (result.error) url.searchParams.set("sso_error", result.error);
    return url.toString();
  };
  // The browser that started the link must be the one coming back: nobody can make someone else's
  // signed-in session adopt a provider account by sending them a callback URL.
  const presented = readCookies(request).get(SSO_BROWSER_COOKIE);
  if (!presented || !flow.browserHash || !safeEqual(sha256Hex(presented), flow.browserHash))
    return answer({ error: "invalid_state" });
  try {
    if (query.error) throw failure(query.error === "access_denied" ? "denied" : "provider_error");
    const account = await accountFromProvider(deps, provider, flow, query);
    const userId = flow.userId ?? "";
    const outcome = await transact(
      deps.db,
      async (tx) =>
        await linkProven(
          tx,
          { provider: provider.id, subject: account.subject, userId, email: account.verifiedEmail },
          deps.clock.now().toISOString(),
        ),
    );
    if (outcome !== "linked") throw failure(outcome);
    return answer({ linked: provider.id });
  } catch (error) {
    const reason = (error as { reason?: SsoFailure }).reason;
    if (!reason) deps.logger.warn({ err: error, provider: provider.id }, "sso link callback failed");
    return answer({ error: reason ?? "provider_error" });
  }
}

/** GET /v1/auth/oauth/identities: the provider accounts linked to the signed-in person. */
export async function listIdentities(deps: SsoDeps, user: UserContext) {
  const rows = await deps.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, user.userId));
  return {
    identities: rows.map((row) => ({
      provider: row.provider,
      provider_name: deps.config.ssoProviders.find((p) => p.id === row.provider)?.name ?? row.provider,
      email: row.email,
      linked_at: row.createdAt,
      last_used_at: row.lastUsedAt,
    })),
  };
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
  const flow = one(
    await deps.db
      .delete(ssoFlows)
      .where(and(eq(ssoFlows.codeHash, sha256Hex(body.code)), isNotNull(ssoFlows.userId), gt(ssoFlows.expiresAt, now)))
      .returning(),
  );
  if (!flow?.userId) throw refused();
  if (flow.client === "native") {
    if (!body.code_verifier || !flow.nativeChallenge || !safeEqual(s256(body.code_verifier), flow.nativeChallenge))
      throw refused();
  } else {
    const presented = readCookies(request).get(SSO_BROWSER_COOKIE);
    if (!presented || !flow.browserHash || !safeEqual(sha256Hex(presented), flow.browserHash)) throw refused();
    addSetCookie(set, browserCookie(deps, "", 0));
  }
  const user = first(await deps.db.select().from(users).where(eq(users.id, flow.userId)).limit(1));
  if (!user) throw refused();
  await assertRoomForAccount(deps, request, user.id);
  if (user.mfaEnabled) return { mfa_required: true as const, mfa_token: await issueMfaToken(deps, user) };
  return beginSession(deps, request, set, user, { mfaVerified: false });
}
