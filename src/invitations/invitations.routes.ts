import { Elysia } from "elysia";
import { assertRoomForAccount, beginSession } from "../auth/session-response";
import type { Deps } from "../deps";
import { forbidden } from "../lib/errors";
import { requestMeta } from "../http/request-meta";
import { IdParams } from "../http/schemas";
import {
  AcceptInvitationBody,
  CreatedInvitationSchema,
  CreateInvitationBody,
  InvitationListQuery,
  InvitationPage,
  LookupQuery,
  LookupSchema,
} from "./invitations.schemas";
import {
  acceptInvitationAsNewUser,
  acceptInvitationAsUser,
  createInvitation,
  listInvitations,
  lookupInvitation,
  presentInvitationRow,
  revokeInvitation,
} from "./invitations.service";

export function invitationsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/invitations", tags: ["invitations"] })
    .use(deps.guard)
    .get("/", ({ ctx, query }) => listInvitations(ctx, query, deps), {
      access: { role: "admin", scopes: ["settings:read"] },
      query: InvitationListQuery,
      response: { 200: InvitationPage },
      detail: { summary: "Pending invitations, newest first" },
    })
    .post(
      "/",
      ({ ctx, body, set }) => {
        const { row, url } = createInvitation(ctx, body, deps);
        set.status = 201;
        return { ...presentInvitationRow(deps.db, row), url };
      },
      {
        access: { role: "admin", scopes: ["settings:read", "settings:write"] },
        body: CreateInvitationBody,
        response: { 201: CreatedInvitationSchema },
        detail: {
          summary: "Invite someone by email; `url` is the accept link (also mailed), valid 7 days",
          description:
            "The link grants its role, so the caller must hold that role's reach: people invite up to their own role; an API key invites a viewer only with tickets:read, contacts:read, settings:read and realtime, an agent only with tickets:write and contacts:write as well, and never an admin (403).",
        },
      },
    )
    .delete(
      "/:id",
      ({ ctx, params, set }) => {
        revokeInvitation(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: { role: "admin", scopes: ["settings:read", "settings:write"] },
        params: IdParams,
        detail: { summary: "Revoke a pending invitation" },
      },
    )
    .get("/lookup", ({ query }) => lookupInvitation(query.token, deps), {
      query: LookupQuery,
      response: { 200: LookupSchema },
      detail: { summary: "Public: what an invitation link offers; 404 when expired, revoked or used", security: [] },
    })
    .post(
      "/accept",
      async ({ body, request, set }) => {
        const meta = requestMeta(request);
        if (request.headers.has("authorization")) {
          const credential = await deps.credentials.credential(request);
          if (credential.kind !== "user")
            throw forbidden("Invitations are accepted by people; API keys cannot accept them.");
          return acceptInvitationAsUser(body.token, credential.userId, meta, deps);
        }
        assertRoomForAccount(deps, request, null);
        const passwordHash = body.password ? await Bun.password.hash(body.password) : null;
        const { user } = acceptInvitationAsNewUser(body.token, { name: body.name, passwordHash }, meta, deps);
        set.status = 201;
        return beginSession(deps, request, set, user, { mfaVerified: false });
      },
      {
        body: AcceptInvitationBody,
        detail: {
          summary: "Accept an invitation",
          responses: {
            200: {
              description: "Joined with the signed-in account",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      workspace: { $ref: "#/components/schemas/Workspace" },
                      member: { $ref: "#/components/schemas/Member" },
                    },
                    required: ["workspace", "member"],
                  },
                },
              },
            },
            201: {
              description: "Account created and signed in",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Session" } } },
            },
            429: { description: "Too many accounts from this browser" },
          },
          description:
            "Signed in (bearer access token, no DESK-Workspace needed): joins that account and answers `{ workspace, member }`. " +
            "Not signed in: creates the account from `name` and `password` (email from the invitation) and answers 201 with a session, as login does.",
        },
      },
    );
}
