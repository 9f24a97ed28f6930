import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { MeSchema, MfaDisableBody, MfaDisabledSchema, MfaEnableBody, MfaEnabledSchema, MfaSetupSchema, UpdateMeBody } from "./me.schemas";
import { describeCaller, updateMe } from "./me.service";
import { disableMfa, enableMfa, setupMfa } from "./me.mfa.service";

export function meRoutes(deps: Deps) {
  return new Elysia({ prefix: "/me", tags: ["me"] })
    .use(deps.guard)
    .get("/", ({ credential }) => describeCaller(deps, credential), {
      identified: true,
      response: { 200: MeSchema },
      detail: { summary: "The caller: a signed-in person with their workspaces, or an API key with its workspace and creator" },
    })
    .patch(
      "/",
      ({ user, body }) => {
        updateMe(deps, user.userId, body);
        return describeCaller(deps, { kind: "user", ...user });
      },
      { signedIn: true, body: UpdateMeBody, response: { 200: MeSchema }, detail: { summary: "Change your own name" } },
    )
    .post("/mfa/setup", ({ user }) => setupMfa(deps, user), {
      signedIn: true,
      response: { 200: MfaSetupSchema },
      detail: { summary: "Start two-factor enrolment: a TOTP secret and its otpauth:// URL (inactive until enabled)" },
    })
    .post("/mfa/enable", ({ user, body }) => enableMfa(deps, user, body.code), {
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
    });
}
