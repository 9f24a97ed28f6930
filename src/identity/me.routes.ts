import { Elysia } from "elysia";
import { requestMeta } from "../http/request-meta";
import type { Deps } from "../deps";
import {
  ChangePasswordBody,
  MeSchema,
  MfaDisableBody,
  MfaDisabledSchema,
  MfaEnableBody,
  MfaEnabledSchema,
  MfaSetupSchema,
  SessionListSchema,
  SessionParams,
  SignedOutSchema,
  UpdateMeBody,
} from "./me.schemas";
import {
  changePassword,
  createPasswordChangeLimiter,
  listMySessions,
  revokeMySession,
  revokeOtherSessions,
} from "./me.security.service";
import { describeCaller, updateMe } from "./me.service";
import { disableMfa, enableMfa, setupMfa } from "./me.mfa.service";
import { pictureFromUrl } from "./identity.ports";

export function meRoutes(deps: Deps) {
  const copyPicture = deps.ports.get(pictureFromUrl);
  const passwordAttempts = createPasswordChangeLimiter(deps);
  return new Elysia({ prefix: "/me", tags: ["me"] })
    .use(deps.guard)
    .get("/", ({ credential }) => describeCaller(deps, credential), {
      identified: true,
      response: { 200: MeSchema },
      detail: {
        summary: "The caller: a signed-in person with their workspaces, or an API key with its workspace and creator",
      },
    })
    .patch(
      "/",
      async ({ user, body }) => {
        const { avatar_url, ...changes } = body;
        if (avatar_url !== undefined) await copyPicture(deps, user.userId, avatar_url);
        await updateMe(deps, user.userId, changes);
        return await describeCaller(deps, { kind: "user", ...user });
      },
      {
        signedIn: true,
        body: UpdateMeBody,
        response: { 200: MeSchema },
        detail: {
          summary: "Change your own name or language, or copy your picture from a URL",
          description:
            "`avatar_url` is fetched server-side by a job behind the same guard as webhooks (public addresses only, unless DESK_ALLOWED_PRIVATE_HOSTS; https; redirects re-checked; 10 seconds; 5 MB), then checked and processed like an upload. The answer is immediate and still shows the old picture; `member.updated` follows in each workspace once the copy is stored. A URL that can never be fetched (not https, private address) answers 422 at body.avatar_url. `locale` is your language for the app: a well-formed BCP 47 tag of at most 35 characters (stored canonical, `EN-us` → `en-US`; else 422 at body.locale) or null to follow the browser. A language Desk ships no texts for is kept, and the app shows English in that language's writing direction.",
        },
      },
    )
    .post("/mfa/setup", async ({ user }) => await setupMfa(deps, user), {
      signedIn: true,
      response: { 200: MfaSetupSchema },
      detail: { summary: "Start two-factor enrolment: a TOTP secret and its otpauth:// URL (inactive until enabled)" },
    })
    .post("/mfa/enable", async ({ user, body }) => await enableMfa(deps, user, body.code), {
      signedIn: true,
      body: MfaEnableBody,
      response: { 200: MfaEnabledSchema },
      detail: { summary: "Confirm enrolment with a code; answers ten one-time recovery codes, shown only here" },
    })
    .post("/mfa/disable", ({ user, body }) => disableMfa(deps, user, body), {
      signedIn: true,
      body: MfaDisableBody,
      response: { 200: MfaDisabledSchema },
      detail: { summary: "Turn two-factor off with a current code (or recovery code) or the password" },
    })
    .post(
      "/password",
      ({ user, body, request }) => changePassword(deps, passwordAttempts, user, body, requestMeta(request)),
      {
        signedIn: true,
        body: ChangePasswordBody,
        response: { 200: SignedOutSchema },
        detail: {
          summary:
            "Change your password: needs the current one (422 invalid_password; 5 wrong tries in 15 minutes answer 429). Signs out every other session and retires open reset links",
        },
      },
    )
    .get("/sessions", async ({ user }) => await listMySessions(deps, user), {
      signedIn: true,
      response: { 200: SessionListSchema },
      detail: { summary: "Your live sign-ins (browsers and apps), most recently used first; `current` marks this one" },
    })
    .delete(
      "/sessions/:id",
      async ({ user, params, set }) => {
        await revokeMySession(deps, user, params.id);
        set.status = 204;
        return null;
      },
      {
        signedIn: true,
        params: SessionParams,
        detail: { summary: "Sign out one of your sessions (404 when it is not yours or already ended)" },
      },
    )
    .post("/sessions/sign-out-others", async ({ user }) => await revokeOtherSessions(deps, user), {
      signedIn: true,
      response: { 200: SignedOutSchema },
      detail: { summary: "Sign out every session of yours except this one" },
    });
}
