import { Elysia } from "elysia";
import type { Deps } from "../deps";
import {
  assertPasswordSignInAllowed,
  authenticatePassword,
  consumeSecondFactor,
  createSignInLimits,
  issueMfaToken,
  limitedAttempt,
  registerUser,
  type SignInLimits,
  userOfMfaToken,
} from "./auth.service";
import { CHALLENGE_TTL_MS } from "./challenge";
import { issueAttestChallenge, registerAttestedKey } from "./app-attest.service";
import {
  AccountsBody,
  AccountsSchema,
  AttestChallengeSchema,
  AttestedKeySchema,
  ChallengeSchema,
  LoginAnswerSchema,
  LoginBody,
  LogoutBody,
  MfaBody,
  RefreshBody,
  RegisterAttestedKeyBody,
  RegisterBody,
  SessionSchema,
} from "./auth.schemas";
import { NoContent } from "../http/schemas";
import { unauthorized } from "../lib/errors";
import { isCrossSiteRequest } from "../auth/cookies";
import { listBrowserAccounts, logout, refreshSession } from "./refresh.service";
import { assertRoomForAccount, beginSession, crossSiteRefused } from "./session-response";

/**
 * Sign-in routes: no bearer credential needed (they hand them out). Not covered by idempotency.
 * The refresh cookie authenticates refresh, accounts and logout, and the others set it, so every
 * route here refuses a browser request from another site (403 forbidden) before anything else:
 * otherwise any page could sign a visitor out, or into an account of its choosing.
 */
export function authRoutes(deps: Deps) {
  const limits = createSignInLimits(deps);
  return [signUpRoutes(deps, limits), signInRoutes(deps, limits), sessionRoutes(deps)];
}

/** Every plugin of /auth: the cross-site refusal runs before anything else on each of its routes. */
const authPlugin = (deps: Deps) =>
  new Elysia({ prefix: "/auth", tags: ["auth"] }).onTransform(({ request }) => {
    if (isCrossSiteRequest(deps.config, request)) throw crossSiteRefused();
  });

/** An account, and what proves a person or app is not a script: ALTCHA challenges, App Attest keys. */
function signUpRoutes(deps: Deps, limits: SignInLimits) {
  return authPlugin(deps)
    .post(
      "/register",
      async ({ request, body, set }) => {
        const { challenge, app_attest, ...input } = body;
        const user = await limitedAttempt(
          limits,
          request,
          `register:${input.email}`,
          async () => {
            await assertRoomForAccount(deps, request, null);
            return registerUser(deps, input);
          },
          challenge,
          app_attest,
        );
        const answer = await beginSession(deps, request, set, user, { mfaVerified: false });
        set.status = 201;
        return answer;
      },
      {
        body: RegisterBody,
        response: { 201: SessionSchema },
        detail: {
          summary: "Create an account (open while the instance has no user, or with DESK_OPEN_SIGNUP=true) and sign in",
          security: [],
        },
      },
    )
    .post(
      "/challenge",
      async () => {
        const { parameters, signature = "" } = await limits.challenges.issue();
        return { challenge: { parameters: { ...parameters }, signature }, expires_in: CHALLENGE_TTL_MS / 1000 };
      },
      {
        response: { 200: ChallengeSchema },
        detail: {
          summary:
            "A single-use proof-of-work challenge (ALTCHA, SHA-256), valid five minutes. Login and register ask for it as `challenge: { challenge, solution }` once an account or address has failed to sign in a few times",
          security: [],
        },
      },
    )
    .post("/app-attest/challenge", async () => await issueAttestChallenge(deps), {
      response: { 200: AttestChallengeSchema },
      detail: {
        summary: "A single-use App Attest challenge (five minutes), for registering a key or signing an assertion",
        description:
          'Native apps only, for the app ids in APP_ATTEST_APP_IDS (404 when none is configured). Register a key with attestKey over SHA256(challenge); later, where the web sends a solved `challenge`, send `app_attest: { key_id, assertion, client_data }` with client_data the JSON `{"challenge": "<a fresh one>"}` whose SHA-256 generateAssertion signed.',
        security: [],
      },
    })
    .post(
      "/app-attest/keys",
      async ({ body, set }) => {
        const key = await registerAttestedKey(deps, body);
        set.status = 201;
        return key;
      },
      {
        body: RegisterAttestedKeyBody,
        response: { 201: AttestedKeySchema },
        detail: {
          summary: "Register an App Attest key: its attestation is checked as Apple documents",
          description:
            "Checks: the certificate chain reaches Apple's App Attestation Root CA; nonce = SHA256(authData ‖ SHA256(challenge)) is in the credential certificate; the key id is the SHA-256 of the certified key; the RP ID hash is one of APP_ATTEST_APP_IDS; counter 0; App Attest AAGUID (production or development); credential id = key id. A failed check answers 422 invalid_attestation at body.attestation; an unknown, expired or reused challenge 422 invalid_challenge at body.challenge; a key already registered 409.",
          security: [],
        },
      },
    );
}

/** Password sign-in and its second factor. */
function signInRoutes(deps: Deps, limits: SignInLimits) {
  return authPlugin(deps)
    .post(
      "/login",
      async ({ request, body, set }) => {
        const user = await limitedAttempt(
          limits,
          request,
          `login:${body.email}`,
          () => authenticatePassword(deps, body.email, body.password),
          body.challenge,
          body.app_attest,
        );
        await assertPasswordSignInAllowed(deps, user);
        await assertRoomForAccount(deps, request, user.id);
        if (user.mfaEnabled) return { mfa_required: true as const, mfa_token: await issueMfaToken(deps, user) };
        return beginSession(deps, request, set, user, { mfaVerified: false });
      },
      {
        body: LoginBody,
        response: { 200: LoginAnswerSchema },
        detail: {
          summary: "Sign in with email and password; with two-factor on, answers mfa_required and mfa_token",
          description:
            "A member (not the owner) of a workspace whose settings have `sso_only: true` gets 403 `sso_required` after a correct password: they sign in through GET /v1/auth/oauth/{provider}/start. Sessions started before the setting was turned on keep working until they end.",
          security: [],
        },
      },
    )
    .post(
      "/mfa",
      async ({ request, body, set }) => {
        const user = await userOfMfaToken(deps, body.mfa_token);
        // Refuse a sixth account before the code is spent.
        await assertRoomForAccount(deps, request, user.id);
        // The password was right: a second factor is rate limited, not challenged.
        await limitedAttempt(
          limits,
          request,
          `mfa:${user.id}`,
          async () => {
            if (!(await consumeSecondFactor(deps, user, body.code)))
              throw unauthorized("The code is wrong or was already used.");
          },
          null,
        );
        return beginSession(deps, request, set, user, { mfaVerified: true });
      },
      {
        body: MfaBody,
        response: { 200: SessionSchema },
        detail: { summary: "Finish a two-factor sign-in with an authenticator code or a recovery code", security: [] },
      },
    );
}

/** The sessions the refresh cookie (or a native refresh token) carries: refresh, list, sign out. */
function sessionRoutes(deps: Deps) {
  return authPlugin(deps)
    .post("/refresh", ({ request, body, set }) => refreshSession(deps, request, set, body), {
      body: RefreshBody,
      response: { 200: SessionSchema },
      detail: {
        summary:
          "New access token from the refresh cookie (optionally of `user_id`) or a native `refresh_token`; the refresh token rotates",
        security: [],
      },
    })
    .post("/accounts", async ({ request }) => await listBrowserAccounts(deps, request), {
      body: AccountsBody,
      response: { 200: AccountsSchema },
      detail: { summary: "Accounts signed in on this browser, with their workspaces; rotates nothing", security: [] },
    })
    .post(
      "/logout",
      async ({ request, body, set }) => {
        await logout(deps, request, set, body);
        set.status = 204;
        return null;
      },
      {
        body: LogoutBody,
        response: { 204: NoContent },
        detail: {
          summary: "Sign out the current account (or `user_id`), or with `all: true` every account in this browser",
          security: [],
        },
      },
    );
}
