import { Elysia } from "elysia";
import { z } from "zod";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import {
  CompanySchema,
  ContactSchema,
  contactTicketCounts,
  presentCompany,
  presentContact,
  setCompanyPicture,
  setContactPicture,
} from "../contacts/contacts.public";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { IdParams } from "../http/schemas";
import { notFound } from "../lib/errors";
import { describeCaller, MeSchema } from "../identity/identity.public";
import { memberRoleOf, setUserPicture } from "../members/members.public";
import { setWorkspaceImage, WorkspaceSchema, type WorkspaceImageSlot } from "../workspaces/workspaces.public";
import { type PictureFit, processPicture, readPictureUpload } from "./pictures.image";
import { IMAGE_ID, imageKey, storePicture } from "./pictures.store";

const SLOTS = ["logo", "help_center_logo", "help_center_favicon", "widget_avatar", "widget_launcher"] as const;
const SlotParams = z.object({ slot: z.enum(SLOTS) });

const uploadDoc = (summary: string) => ({
  summary,
  requestBody: {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          properties: { file: { type: "string" as const, format: "binary" } },
          required: ["file"],
        },
      },
    },
  },
  responses: {
    413: { description: "The picture is over 5 MB (`too_large`)" },
    422: { description: "Not PNG, JPEG, GIF or WebP (`unsupported_image`), or out of size bounds (`image_too_large`)" },
  },
});

/** Reads, checks and processes the upload, then stores both sizes; all before any transaction. */
async function uploadedPicture(request: Request, fit: PictureFit, deps: Deps): Promise<string> {
  const bytes = await readPictureUpload(request);
  return storePicture(deps, await processPicture(bytes, fit, deps.config.dataDir));
}

/** Sets the caller's own picture, audited in each workspace they belong to. */
const setMine = async (deps: Deps, userId: string, requestId: string, ip: string | null, url: string | null) =>
  await transact(deps.db, async (tx) => {
    for (const workspaceId of await setUserPicture(deps, tx, userId, url, deps.clock.now().toISOString())) {
      const ctx: RequestContext = {
        workspaceId,
        actor: { type: "user", userId, sessionId: null },
        role: (await memberRoleOf(tx, workspaceId, userId)) ?? "viewer",
        scopes: null,
        visibleTeams: [],
        requestId,
        ip,
      };
      await recordAudit(tx, ctx, {
        action: url ? "user.avatar_updated" : "user.avatar_removed",
        entityType: "user",
        entityId: userId,
        data: { avatar_url: url },
      });
    }
  });

const setContact = async (deps: Deps, ctx: RequestContext, id: string, url: string | null) =>
  await transact(deps.db, async (tx) => {
    const row = await setContactPicture(tx, ctx, id, url, deps.clock.now().toISOString(), deps.ports);
    await recordAudit(tx, ctx, {
      action: url ? "contact.avatar_updated" : "contact.avatar_removed",
      entityType: "contact",
      entityId: id,
      data: { avatar_url: url },
    });
    return await presentContact(tx, deps.ports.get(contactTicketCounts), row);
  });

const setCompany = async (deps: Deps, ctx: RequestContext, id: string, url: string | null) =>
  await transact(deps.db, async (tx) => {
    const row = await setCompanyPicture(tx, ctx, id, url, deps.clock.now().toISOString());
    await recordAudit(tx, ctx, {
      action: url ? "company.avatar_updated" : "company.avatar_removed",
      entityType: "company",
      entityId: id,
      data: { avatar_url: url },
    });
    return await presentCompany(tx, row);
  });

const setImage = async (deps: Deps, ctx: RequestContext, slot: WorkspaceImageSlot, url: string | null) =>
  await transact(deps.db, async (tx) => {
    const workspace = await setWorkspaceImage(tx, ctx, slot, url, deps.clock.now().toISOString());
    await recordAudit(tx, ctx, {
      action: url ? "workspace.image_updated" : "workspace.image_removed",
      entityType: "workspace",
      entityId: ctx.workspaceId,
      data: { slot, url },
    });
    return workspace;
  });

const agent = { role: "agent", scopes: ["contacts:write"] } as const;
const admin = { role: "admin", scopes: ["settings:write"] } as const;

/** The caller's own picture. */
function myPictureRoutes(deps: Deps) {
  return new Elysia({ tags: ["pictures"] })
    .use(deps.guard)
    .put(
      "/me/avatar",
      async ({ user, request }) => {
        await setMine(deps, user.userId, user.requestId, user.ip, await uploadedPicture(request, "cover", deps));
        return await describeCaller(deps, { kind: "user", ...user });
      },
      { signedIn: true, parse: "none", response: { 200: MeSchema }, detail: uploadDoc("Upload your own picture") },
    )
    .delete(
      "/me/avatar",
      async ({ user }) => {
        await setMine(deps, user.userId, user.requestId, user.ip, null);
        return await describeCaller(deps, { kind: "user", ...user });
      },
      { signedIn: true, response: { 200: MeSchema }, detail: { summary: "Remove your own picture" } },
    );
}

/** Contacts' pictures and companies' logos. */
function recordPictureRoutes(deps: Deps) {
  return new Elysia({ tags: ["pictures"] })
    .use(deps.guard)
    .put(
      "/contacts/:id/avatar",
      async ({ ctx, params, request }) =>
        await setContact(deps, ctx, params.id, await uploadedPicture(request, "cover", deps)),
      {
        access: agent,
        params: IdParams,
        parse: "none",
        response: { 200: ContactSchema },
        detail: uploadDoc("Upload a contact's picture"),
      },
    )
    .delete("/contacts/:id/avatar", async ({ ctx, params }) => await setContact(deps, ctx, params.id, null), {
      access: agent,
      params: IdParams,
      response: { 200: ContactSchema },
      detail: { summary: "Remove a contact's uploaded picture" },
    })
    .put(
      "/companies/:id/avatar",
      async ({ ctx, params, request }) =>
        await setCompany(deps, ctx, params.id, await uploadedPicture(request, "contain", deps)),
      {
        access: agent,
        params: IdParams,
        parse: "none",
        response: { 200: CompanySchema },
        detail: uploadDoc("Upload a company's logo (fitted, not cropped)"),
      },
    )
    .delete("/companies/:id/avatar", async ({ ctx, params }) => await setCompany(deps, ctx, params.id, null), {
      access: agent,
      params: IdParams,
      response: { 200: CompanySchema },
      detail: { summary: "Remove a company's uploaded logo" },
    });
}

/** The workspace's logos, favicon and widget pictures. */
function workspaceImageRoutes(deps: Deps) {
  return new Elysia({ tags: ["pictures"] })
    .use(deps.guard)
    .put(
      "/workspace/images/:slot",
      async ({ ctx, params, request }) =>
        await setImage(
          deps,
          ctx,
          params.slot,
          await uploadedPicture(request, params.slot === "widget_avatar" ? "cover" : "contain", deps),
        ),
      {
        access: admin,
        params: SlotParams,
        parse: "none",
        response: { 200: WorkspaceSchema },
        detail: uploadDoc("Upload one of the workspace's pictures (logos are fitted, not cropped)"),
      },
    )
    .delete("/workspace/images/:slot", async ({ ctx, params }) => await setImage(deps, ctx, params.slot, null), {
      access: admin,
      params: SlotParams,
      response: { 200: WorkspaceSchema },
      detail: { summary: "Remove one of the workspace's pictures" },
    });
}

/** The processed files every picture address points at. */
function imageFileRoutes(deps: Deps) {
  return new Elysia({ tags: ["pictures"] }).use(deps.guard).get(
    "/images/:id",
    async ({ params, query }) => {
      if (!IMAGE_ID.test(params.id)) throw notFound("Image");
      const file = await deps.blobs.get(imageKey(params.id, query.s === "64" ? 64 : 256));
      if (!file) throw notFound("Image");
      return new Response(file, {
        headers: {
          "content-type": "image/png",
          "cache-control": "public, max-age=31536000, immutable",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'; sandbox",
          etag: `"${params.id}-${query.s === "64" ? 64 : 256}"`,
        },
      });
    },
    {
      public: true,
      params: z.object({ id: z.string() }),
      query: z.object({ s: z.enum(["256", "64"]).optional() }),
      detail: {
        summary: "A processed picture (public, immutable); every avatar_url points here",
        responses: {
          200: {
            description: "PNG",
            content: { "image/png": { schema: { type: "string" as const, format: "binary" } } },
          },
        },
      },
    },
  );
}

export const picturesRoutes = (deps: Deps) =>
  new Elysia()
    .use(myPictureRoutes(deps))
    .use(recordPictureRoutes(deps))
    .use(workspaceImageRoutes(deps))
    .use(imageFileRoutes(deps));
