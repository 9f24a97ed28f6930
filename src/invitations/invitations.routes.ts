import { Elysia } from "elysia";
import { assertRoomForAccount, beginSession } from "../identity/identity.public";
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
  invitationLink,
  invitationMailVia,
  listInvitations,
  lookupInvitation,
  presentInvitationRow,
  revokeInvitation,
} from "./invitations.service";

/** What admins do with invitations: list, invite, resend, copy the link, revoke. */
function invitationAdminRoutes(deps: Deps) {
  return new Elysia({ prefix: "/invitations", tags: ["invitations"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await listInvitations(ctx, query, deps), {
      access: { role: "admin", scopes: ["settings:read"] },
      query: InvitationListQuery,
      response: { 200: InvitationPage },
      detail: { summary: "Pending invitations, newest first" },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        const { row, url } = await createInvitation(ctx, body, deps);
        set.status = 201;
        return { ...(await presentInvitationRow(deps.db, row)), url, mail_via: invitationMailVia(deps.config) };
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
    .post(
      "/:id/resend",
      async ({ ctx, params }) => {
        const { row, url } = await invitationLink(ctx, params.id, { mail: true }, deps);
        return { ...(await presentInvitationRow(deps.db, row)), url, mail_via: invitationMailVia(deps.config) };
      },
      {
        access: { role: "admin", scopes: ["settings:read", "settings:write"] },
        params: IdParams,
        response: { 200: CreatedInvitationSchema },
        detail: {
          summary: "Mail a pending invitation's link again, valid 7 more days from now",
          description:
            "The same link as before (an invitation made before links were kept gets a new one, and its old link stops working). " +
            "`mail_via: outbox` means this server has no relay (DESK_SMTP_URL): the mail is only written to its outbox folder, so share `url` yourself. " +
            "The same reach as to create it: 403 for a role the caller may not grant; 404 for an accepted, revoked, expired or another workspace's invitation.",
        },
      },
    )
    .post(
      "/:id/link",
      async ({ ctx, params }) => {
        const { row, url } = await invitationLink(ctx, params.id, { mail: false }, deps);
        return { ...(await presentInvitationRow(deps.db, row)), url, mail_via: invitationMailVia(deps.config) };
      },
      {
        access: { role: "admin", scopes: ["settings:read", "settings:write"] },
        params: IdParams,
        response: { 200: CreatedInvitationSchema },
        detail: {
          summary: "A pending invitation's accept link, to copy and share (nothing is mailed, the expiry stays)",
          description:
            "The link grants its role, so this needs the same reach as creating the invitation (403 otherwise); 404 for an accepted, revoked, expired or another workspace's invitation.",
        },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await revokeInvitation(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: { role: "admin", scopes: ["settings:read", "settings:write"] },
        params: IdParams,
        detail: { summary: "Revoke a pending invitation" },
      },
    );
}

/** What the invited person does with the link: look it up, accept it. */
function inviteeRoutes(deps: Deps) {
  return new Elysia({ prefix: "/invitations", tags: ["invitations"] })
    .use(deps.guard)
    .get("/lookup", async ({ query }) => await lookupInvitation(query.token, deps), {
      query: LookupQuery,
      response: { 200: LookupSchema },
      detail: {
        summary: "Public: what an invitation link offers; 404 when expired, revoked or used",
        description:
          "409 `invitation_inviter_lacks_role` when the person who sent it can no longer grant its role (demoted since, or gone from the workspace).",
        security: [],
      },
    })
    .post(
      "/accept",
      async ({ body, request, set }) => {
        const meta = requestMeta(request);
        if (request.headers.has("authorization")) {
          const credential = await deps.credentials.credential(request);
          if (credential.kind !== "user")
            throw forbidden("Invitations are accepted by people; API keys cannot accept them.");
          return await acceptInvitationAsUser(body.token, credential.userId, meta, deps);
        }
        await assertRoomForAccount(deps, request, null);
        const passwordHash = body.password ? await Bun.password.hash(body.password) : null;
        const { user } = await acceptInvitationAsNewUser(body.token, { name: body.name, passwordHash }, meta, deps);
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
            "Not signed in: creates the account from `name` and `password` (email from the invitation) and answers 201 with a session, as login does. " +
            "An invitation grants its role on behalf of its sender: when that person can no longer grant it (demoted below it since, or gone from the workspace), it is refused with 409 `invitation_inviter_lacks_role`, never downgraded; an admin sends a new one.",
        },
      },
    );
}

export const invitationsRoutes = (deps: Deps) => new Elysia().use(invitationAdminRoutes(deps)).use(inviteeRoutes(deps));
