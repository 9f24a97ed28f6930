import { Elysia } from "elysia";
import { assertPasswordSignInAllowed, createSignInLimits, limitedAttempt } from "./auth.service";
import { isCrossSiteRequest } from "../auth/cookies";
import { assertRoomForAccount, beginSession, crossSiteRefused } from "./session-response";
import { SessionSchema } from "./auth.schemas";
import type { Deps } from "../deps";
import { NoContent } from "../http/schemas";
import {
  PasskeyListSchema,
  PasskeyParams,
  PasskeySchema,
  PasskeySignInBody,
  RegisterPasskeyBody,
  RenamePasskeyBody,
  WebAuthnOptionsSchema,
} from "./passkeys.schemas";
import {
  authenticatePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
  signInOptions,
} from "./passkeys.service";

const STRONG =
  " A person with two-factor on does this only from a session that passed it (password and code, or a passkey); otherwise 403.";

/** The signed-in person's passkeys: GET/POST /v1/me/passkeys, PATCH/DELETE /v1/me/passkeys/{id}. */
export function myPasskeysRoutes(deps: Deps) {
  return new Elysia({ prefix: "/me/passkeys", tags: ["me"] })
    .use(deps.guard)
    .get("/", async ({ user }) => await listPasskeys(deps, user), {
      signedIn: true,
      response: { 200: PasskeyListSchema },
      detail: { summary: "Your passkeys, oldest first" },
    })
    .post("/options", ({ user }) => registrationOptions(deps, user), {
      signedIn: true,
      response: { 200: WebAuthnOptionsSchema },
      detail: {
        summary: "Start adding a passkey: WebAuthn creation options for navigator.credentials.create()",
        description: `Asks for a discoverable credential (resident key) with user verification, excludes your passkeys already registered, and does not ask for attestation. The challenge is single-use and expires in five minutes. At most 20 passkeys a person (409 passkey_limit).${STRONG}`,
      },
    })
    .post(
      "/",
      async ({ user, body, set }) => {
        const created = await registerPasskey(deps, user, body);
        set.status = 201;
        return created;
      },
      {
        signedIn: true,
        body: RegisterPasskeyBody,
        response: { 201: PasskeySchema },
        detail: {
          summary: "Finish adding a passkey: the credential navigator.credentials.create() returned, and a name",
          description: `\`credential\` is the RegistrationResponseJSON (as @simplewebauthn/browser's startRegistration returns it). A credential that does not answer our challenge, this origin and relying party, or lacks user verification answers 422 invalid_passkey at body.credential; one already registered answers 409.${STRONG}`,
        },
      },
    )
    .patch("/:id", async ({ user, params, body }) => await renamePasskey(deps, user, params.id, body.name), {
      signedIn: true,
      params: PasskeyParams,
      body: RenamePasskeyBody,
      response: { 200: PasskeySchema },
      detail: { summary: "Rename one of your passkeys (404 when it is not yours)" },
    })
    .delete(
      "/:id",
      async ({ user, params, set }) => {
        await removePasskey(deps, user, params.id);
        set.status = 204;
        return null;
      },
      {
        signedIn: true,
        params: PasskeyParams,
        response: { 204: NoContent },
        detail: {
          summary: "Remove one of your passkeys (404 when it is not yours); sessions it started stay until they end",
          description: STRONG.trim(),
        },
      },
    );
}

/**
 * Passkey sign-in, beside the other sign-in routes under /v1/auth: no credential needed, refused
 * cross-site like them, and rate limited per credential and address like a password.
 */
export function passkeySignInRoutes(deps: Deps) {
  const limits = createSignInLimits(deps);
  return new Elysia({ prefix: "/auth/passkey", tags: ["auth"] })
    .onTransform(({ request }) => {
      if (isCrossSiteRequest(deps.config, request)) throw crossSiteRefused();
    })
    .post("/options", () => signInOptions(deps), {
      response: { 200: WebAuthnOptionsSchema },
      detail: {
        summary: "Start a passkey sign-in: WebAuthn request options for navigator.credentials.get()",
        description:
          "No account is named: the options list no credentials, so the browser offers the discoverable passkeys it holds for this site, and user verification is required. The challenge is single-use and expires in five minutes.",
        security: [],
      },
    })
    .post(
      "/login",
      async ({ request, body, set }) => {
        const user = await limitedAttempt(
          limits,
          request,
          `passkey:${body.credential.id}`,
          () => authenticatePasskey(deps, body),
          null,
        );
        await assertPasswordSignInAllowed(deps, user);
        await assertRoomForAccount(deps, request, user.id);
        return beginSession(deps, request, set, user, { mfaVerified: true });
      },
      {
        body: PasskeySignInBody,
        response: { 200: SessionSchema },
        detail: {
          summary: "Sign in with a passkey: answers a session like login (cookie, or refresh_token for native apps)",
          description:
            "`credential` is the AuthenticationResponseJSON (as @simplewebauthn/browser's startAuthentication returns it) for a challenge from POST /v1/auth/passkey/options. A passkey proves possession and user verification, so it satisfies two-factor: no mfa_token step follows even when the person has an authenticator app. An unknown credential, a spent or expired challenge, a bad signature, no user verification, or a signature counter that did not rise answer 401.",
          security: [],
        },
      },
    );
}
