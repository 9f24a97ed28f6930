import { first, one } from "../db/store";
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { systemContext, actorUserId, type RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import { transact } from "../db/tx";
import { mailboxCreated, mailboxUpdated } from "./mailboxes.events";
import { appendEvent } from "../events/append";
import { conflict, notFound } from "../lib/errors";
import { newId, randomToken } from "../lib/ids";
import type { ConnectionDeps, OAuthTokens } from "./mailboxes.connection";
import { providerConfig } from "./mailboxes.connection";
import { presentMailbox } from "./mailboxes.present";
import { findMailbox } from "./mailboxes.service";
import { mailboxOAuthStates, mailboxes, type OAuthProvider } from "./mailboxes.table";

const STATE_TTL_MS = 10 * 60_000;

const callbackUrl = (deps: ConnectionDeps, provider: OAuthProvider) =>
  `${deps.config.baseUrl}/v1/mailboxes/oauth/${provider}/callback`;
const settingsUrl = (deps: ConnectionDeps, query: string) => `${deps.config.baseUrl}/settings/mailboxes?${query}`;

/** Step one: a state token and a PKCE verifier kept server-side; the URL carries only the challenge. */
export async function startOAuth(
  ctx: RequestContext,
  provider: OAuthProvider,
  input: { name: string; email?: string; mailbox_id?: string },
  deps: ConnectionDeps,
): Promise<{ url: string }> {
  const settings = providerConfig(deps.config, provider);
  if (!settings) throw notFound("Mail provider");
  if (input.mailbox_id && !(await findMailbox(deps.db, ctx.workspaceId, input.mailbox_id))) throw notFound("Mailbox");
  const state = randomToken(24);
  const verifier = randomToken(48);
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  await deps.db.insert(mailboxOAuthStates).values({
    state,
    workspaceId: ctx.workspaceId,
    provider,
    codeVerifier: verifier,
    name: input.name,
    email: input.email?.toLowerCase() ?? null,
    mailboxId: input.mailbox_id ?? null,
    createdBy: actorUserId(ctx),
    expiresAt: new Date(deps.clock.now().getTime() + STATE_TTL_MS).toISOString(),
  });
  const url = new URL(settings.authUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("redirect_uri", callbackUrl(deps, provider));
  url.searchParams.set("scope", settings.scope);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("access_type", "offline");
  if (input.email) url.searchParams.set("login_hint", input.email);
  return { url: url.toString() };
}

type TokenAnswer = {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  email?: string;
  error?: string;
};

/**
 * Step two, the provider's redirect: the state is single-use and bound to the provider; the
 * code is exchanged with the verifier; tokens are sealed. Answers where to send the browser.
 */
export async function completeOAuth(
  provider: OAuthProvider,
  query: { state?: string; code?: string; error?: string },
  deps: ConnectionDeps,
): Promise<string> {
  const settings = providerConfig(deps.config, provider);
  if (!settings || !query.state) return settingsUrl(deps, "error=invalid_state");
  const pending = one(
    await deps.db.delete(mailboxOAuthStates).where(eq(mailboxOAuthStates.state, query.state)).returning(),
  );
  if (!pending || pending.provider !== provider || pending.expiresAt < deps.clock.now().toISOString())
    return settingsUrl(deps, "error=invalid_state");
  if (query.error || !query.code)
    return settingsUrl(deps, `error=${encodeURIComponent(query.error ?? "missing_code")}`);
  let answer: TokenAnswer;
  try {
    const response = await fetch(settings.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: query.code,
        redirect_uri: callbackUrl(deps, provider),
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        code_verifier: pending.codeVerifier,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (!response.ok || !answer.access_token) return settingsUrl(deps, "error=token_exchange_failed");
  } catch {
    return settingsUrl(deps, "error=token_exchange_failed");
  }
  const email = (answer.email ?? pending.email ?? "").toLowerCase();
  if (!email) return settingsUrl(deps, "error=email_unknown");
  const tokens: OAuthTokens = {
    access_token: answer.access_token,
    refresh_token: answer.refresh_token ?? null,
    expires_at: answer.expires_in
      ? new Date(deps.clock.now().getTime() + answer.expires_in * 1000).toISOString()
      : null,
  };
  const ctx: RequestContext = pending.createdBy
    ? { ...systemContext(pending.workspaceId), actor: { type: "user", userId: pending.createdBy, sessionId: null } }
    : systemContext(pending.workspaceId);
  try {
    const id = await connectMailbox(
      ctx,
      provider,
      { name: pending.name, email, mailboxId: pending.mailboxId, sealed: deps.secrets.seal(JSON.stringify(tokens)) },
      deps,
    );
    return settingsUrl(deps, `connected=${id}`);
  } catch {
    return settingsUrl(deps, "error=mailbox_conflict");
  }
}

async function connectMailbox(
  ctx: RequestContext,
  provider: OAuthProvider,
  input: { name: string; email: string; mailboxId: string | null; sealed: string },
  deps: ConnectionDeps,
): Promise<string> {
  return await transact(deps.db, async (tx) => {
    const now = deps.clock.now().toISOString();
    const existing = input.mailboxId ? await findMailbox(tx, ctx.workspaceId, input.mailboxId) : undefined;
    const clash = first(
      await tx.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.email, input.email)).limit(1),
    );
    if (clash && clash.id !== existing?.id) throw conflict("A mailbox with this address already exists.");
    const row = existing
      ? one(
          await tx
            .update(mailboxes)
            .set({
              inboundKind: provider,
              outboundKind: provider,
              oauthSealed: input.sealed,
              config: { ...existing.config, oauth_email: input.email },
              status: "active",
              lastError: "",
              syncFailures: 0,
              updatedAt: now,
            })
            .where(and(eq(mailboxes.workspaceId, ctx.workspaceId), eq(mailboxes.id, existing.id)))
            .returning(),
        )
      : one(
          await tx
            .insert(mailboxes)
            .values({
              id: newId(),
              workspaceId: ctx.workspaceId,
              name: input.name,
              email: input.email,
              displayName: input.name,
              inboundKind: provider,
              outboundKind: provider,
              config: { oauth_email: input.email },
              oauthSealed: input.sealed,
              createdAt: now,
              updatedAt: now,
            })
            .returning(),
        );
    const event = existing ? mailboxUpdated : mailboxCreated;
    const type = event.type;
    await appendEvent(tx, event, {
      workspaceId: ctx.workspaceId,
      data: { mailbox: presentMailbox(row, deps.config.smtpRelayUrl !== null) },
    });
    await recordAudit(tx, ctx, {
      action: type,
      entityType: "mailbox",
      entityId: row.id,
      data: {
        name: row.name,
        email: row.email,
        inbound_kind: provider,
        outbound_kind: provider,
        secrets_changed: ["oauth"],
      },
    });
    return row.id;
  });
}
