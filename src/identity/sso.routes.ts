import { Elysia } from "elysia";
import { isCrossSiteRequest } from "../auth/cookies";
import { LoginAnswerSchema } from "./auth.schemas";
import { crossSiteRefused } from "./session-response";
import type { Deps } from "../deps";
import {
  CallbackQuery,
  ConfirmLinkBody,
  ConfirmLinkSchema,
  ExchangeBody,
  IdentitiesSchema,
  LinkStartSchema,
  ProviderParams,
  ProvidersSchema,
  StartQuery,
} from "./sso.schemas";
import {
  completeSignIn,
  confirmLink,
  exchangeCode,
  listIdentities,
  listProviders,
  startLink,
  startSignIn,
} from "./sso.service";

/**
 * Single sign-on with OpenID Connect providers configured by DESK_SSO_* (README "Single sign-on").
 * start and callback are browser navigations (the callback comes from the provider's site, so it is
 * not refused as cross-site: the state, our PKCE verifier and the nonce protect it); the exchange
 * is a same-site call like login.
 */
export function ssoRoutes(deps: Deps) {
  return new Elysia({ prefix: "/auth/oauth", tags: ["auth"] })
    .use(deps.guard)
    .get("/providers", () => listProviders(deps), {
      response: { 200: ProvidersSchema },
      detail: {
        summary: "The single sign-on providers this instance offers (empty when none is configured)",
        security: [],
      },
    })
    .get(
      "/:provider/start",
      async ({ params, query, set, redirect }) => redirect(await startSignIn(deps, params.provider, query, set), 302),
      {
        params: ProviderParams,
        query: StartQuery,
        detail: {
          summary:
            "Start signing in with a provider: redirects to it (authorization code with PKCE S256, state and nonce)",
          description:
            "Web: open in the browser; a short-lived `desk_sso` cookie binds the flow to this browser, and the callback returns to `/signin#sso_code=<code>`, which the sign-in page exchanges. Native apps open `…/start?client=native&code_challenge=<S256 challenge>` in the system browser and come back to `{app_scheme}://auth/callback?code=<code>` (DESK_APP_SCHEME, default `desk`), then call the exchange with `code_verifier`. Failures come back as `sso_error=<reason>` (web) or `error=<reason>` (native): invalid_state, denied, provider_error, email_not_verified, no_account, provider_unavailable.",
          security: [],
          responses: { 302: { description: "Redirect to the provider's authorization endpoint" } },
        },
      },
    )
    .get(
      "/:provider/callback",
      async ({ params, query, request, redirect }) =>
        redirect(await completeSignIn(deps, params.provider, query, request), 302),
      {
        params: ProviderParams,
        query: CallbackQuery,
        detail: {
          summary:
            "The provider's redirect back: checks it and redirects to the sign-in page (or the app) with a one-time code",
          description:
            "The person is found by their link to this provider account. A provider account linked to nobody is never linked silently to an existing person: " +
            'when its email is verified (`email_verified` the JSON boolean `true`; the string "true" does not count) and belongs to a person, that person is mailed a link to confirm the connection and the sign-in answers `confirm_link_by_mail` ' +
            "(at most one mail per person in 10 minutes; the link works for an hour), or `already_linked` when they are linked to another account of this provider (one per provider per person). " +
            "A signed-in person links directly with POST /v1/auth/oauth/{provider}/link; this callback then returns to `/profile?sso_linked=<provider>` (or `sso_error=`: `linked_elsewhere`, `already_linked`, `invalid_state`, `denied`, `provider_error`). " +
            "A verified email nobody has yet becomes a new person when sign-up is open (no user yet, or DESK_OPEN_SIGNUP=true), else `no_account`. An unverified or missing email never links or creates anyone.",
          security: [],
          responses: { 302: { description: "Redirect to /signin (web) or {app_scheme}://auth/callback (native)" } },
        },
      },
    )
    .get("/identities", async ({ user }) => await listIdentities(deps, user), {
      signedIn: true,
      response: { 200: IdentitiesSchema },
      detail: { summary: "The single sign-on accounts linked to you" },
    })
    .post("/:provider/link", ({ user, params, set }) => startLink(deps, user, params.provider, set), {
      signedIn: true,
      params: ProviderParams,
      response: { 200: LinkStartSchema },
      detail: {
        summary:
          "Start linking a provider account to yours (signed in): answers the provider URL to send the browser to",
        description:
          "Sets the short-lived `desk_sso` cookie: the callback links only in the browser that started, then returns to `/profile?sso_linked=<provider>`. Whichever account signs in at the provider is linked, whatever its email: being signed in here is the proof. One account per provider per person: 409 `already_linked` when you have one; a provider account linked to someone else comes back as `sso_error=linked_elsewhere`.",
      },
    })
    .post("/confirm-link", async ({ body }) => await confirmLink(deps, body.token), {
      public: true,
      body: ConfirmLinkBody,
      response: { 200: ConfirmLinkSchema },
      detail: {
        summary: "Confirm, from the mailed link, that a provider account is yours: links it",
        description:
          "The token is the fragment of the link mailed when a provider account with your verified email signed in (`confirm_link_by_mail`). It works for an hour, only while your email is the address it was sent to; then sign in with the provider. 400 `invalid_link` when invalid or expired; 409 `already_linked` or `linked_elsewhere`.",
        security: [],
      },
    })
    .post(
      "/exchange",
      ({ request, body, set }) => {
        if (isCrossSiteRequest(deps.config, request)) throw crossSiteRefused();
        return exchangeCode(deps, request, set, body);
      },
      {
        body: ExchangeBody,
        response: { 200: LoginAnswerSchema },
        detail: {
          summary:
            "Trade the callback's one-time code for a session (cookie on the web, refresh_token for native apps)",
          description:
            "The code is good once, for ten minutes from the start, and only for the client that started the flow: the browser holding the flow's cookie, or the native app sending the `code_verifier` of its `code_challenge`. Otherwise 401. A person with Desk's own two-factor on answers `mfa_required` and `mfa_token`, finished at POST /v1/auth/mfa like a password sign-in.",
          security: [],
        },
      },
    );
}
