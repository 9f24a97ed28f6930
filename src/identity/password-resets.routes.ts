import { Elysia } from "elysia";
import { isCrossSiteRequest } from "../auth/cookies";
import type { Deps } from "../deps";
import { crossSiteRefused } from "./session-response";
import { requestMeta } from "../http/request-meta";
import { NoContent } from "../http/schemas";
import { ForgotPasswordBody, ResetPasswordBody } from "./password-resets.schemas";
import { completePasswordReset, createResetLimits, requestPasswordReset } from "./password-resets.service";

/** Password reset by email: no credential (the link is the proof). */
export function passwordResetsRoutes(deps: Deps) {
  const limits = createResetLimits(deps);
  return new Elysia({ prefix: "/auth/password", tags: ["auth"] })
    .onTransform(({ request }) => {
      // Like the other /v1/auth routes: only Desk's own pages (or non-browser clients) may ask.
      if (isCrossSiteRequest(deps.config, request)) throw crossSiteRefused();
    })
    .post(
      "/forgot",
      async ({ request, body, set }) => {
        const meta = requestMeta(request);
        await requestPasswordReset(deps, limits, body.email, meta.ip, meta);
        set.status = 202;
        return null;
      },
      {
        body: ForgotPasswordBody,
        detail: {
          summary:
            "Mail a one-hour, single-use reset link to the account with this email. Always 202 whether or not the email has an account; at most 3 mails per email and 10 requests per address an hour (429)",
          security: [],
          responses: {
            202: {
              description: "Accepted: a reset link is mailed if the email has an account (the answer never tells)",
            },
          },
        },
      },
    )
    .post(
      "/reset",
      async ({ body, set }) => {
        await completePasswordReset(deps, body.token, body.password);
        set.status = 204;
        return null;
      },
      {
        body: ResetPasswordBody,
        response: { 204: NoContent },
        detail: {
          summary:
            "Set a new password with the token of a reset link (422 invalid_token when unknown, expired or used); ends every session of the account",
          security: [],
        },
      },
    );
}
