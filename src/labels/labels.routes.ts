import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { errorResponses, IdParams, NoContent, completeList, completeListSchema } from "../http/schemas";
import { DEFINITION_READ_SCOPES, requireAnyScope, settingsWrite } from "./labels.access";
import {
  CreateTagBody,
  CreateTagGroupBody,
  MergeTagBody,
  ReorderBody,
  TagGroupSchema,
  TagListQuery,
  TagSchema,
  UpdateTagBody,
  UpdateTagGroupBody,
} from "./labels.schemas";
import {
  createTag,
  deleteTag,
  findTag,
  listTags,
  mergeTag,
  presentTagWithUsage,
  reorderTags,
  type TagRenamed,
  updateTag,
} from "./labels.service";
import {
  createTagGroup,
  deleteTagGroup,
  findTagGroup,
  listTagGroups,
  presentGroupWithCount,
  reorderTagGroups,
  updateTagGroup,
} from "./tag-groups.service";

const read = { role: "viewer" } as const;

/** Labels: list, create, reorder, read, change, delete, merge. */
function tagRoutes(deps: Deps, cascade: { tagRenamed: TagRenamed }) {
  return new Elysia({ tags: ["labels"] })
    .use(deps.guard)
    .get(
      "/tags",
      async ({ ctx, query }) => {
        requireAnyScope(ctx, DEFINITION_READ_SCOPES);
        return completeList(await listTags(deps.db, ctx, query));
      },
      {
        access: read,
        query: TagListQuery,
        response: { 200: completeListSchema(TagSchema), ...errorResponses },
        detail: { summary: "All labels, ordered by group position, position, name" },
      },
    )
    .post(
      "/tags",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return await presentTagWithUsage(deps.db, await createTag(ctx, body, deps));
      },
      {
        access: settingsWrite,
        body: CreateTagBody,
        response: { 201: TagSchema },
        detail: { summary: "Create a label; 409 conflict on a duplicate name" },
      },
    )
    .post(
      "/tags/reorder",
      async ({ ctx, body, set }) => {
        await reorderTags(ctx, body.ids, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsWrite,
        body: ReorderBody,
        response: { 204: NoContent },
        detail: { summary: "Each listed label's position becomes its index" },
      },
    )
    .get(
      "/tags/:id",
      async ({ ctx, params }) => {
        requireAnyScope(ctx, DEFINITION_READ_SCOPES);
        const row = await findTag(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Tag");
        return await presentTagWithUsage(deps.db, row);
      },
      { access: read, params: IdParams, response: { 200: TagSchema }, detail: { summary: "A label" } },
    )
    .patch(
      "/tags/:id",
      async ({ ctx, params, body }) =>
        await presentTagWithUsage(deps.db, await updateTag(ctx, params.id, body, deps, cascade.tagRenamed)),
      {
        access: settingsWrite,
        params: IdParams,
        body: UpdateTagBody,
        response: { 200: TagSchema },
        detail: { summary: "Change a label; a rename rewrites views naming it" },
      },
    )
    .delete(
      "/tags/:id",
      async ({ ctx, params, set }) => {
        await deleteTag(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsWrite,
        params: IdParams,
        detail: { summary: "Delete a label and remove it from every record" },
      },
    )
    .post(
      "/tags/:id/merge",
      async ({ ctx, params, body }) =>
        await presentTagWithUsage(deps.db, await mergeTag(ctx, params.id, body.into, deps, cascade.tagRenamed)),
      {
        access: settingsWrite,
        params: IdParams,
        body: MergeTagBody,
        response: { 200: TagSchema },
        detail: { summary: "Move every record of this label to `into`, then delete it; answers the `into` label" },
      },
    );
}

/** Label groups: list, create, reorder, read, change, delete. */
function tagGroupRoutes(deps: Deps) {
  return new Elysia({ tags: ["labels"] })
    .use(deps.guard)
    .get(
      "/tag-groups",
      async ({ ctx }) => {
        requireAnyScope(ctx, DEFINITION_READ_SCOPES);
        return completeList(await listTagGroups(deps.db, ctx));
      },
      {
        access: read,
        response: { 200: completeListSchema(TagGroupSchema) },
        detail: { summary: "All label groups by position" },
      },
    )
    .post(
      "/tag-groups",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return await presentGroupWithCount(deps.db, await createTagGroup(ctx, body, deps));
      },
      {
        access: settingsWrite,
        body: CreateTagGroupBody,
        response: { 201: TagGroupSchema },
        detail: { summary: "Create a label group" },
      },
    )
    .post(
      "/tag-groups/reorder",
      async ({ ctx, body, set }) => {
        await reorderTagGroups(ctx, body.ids, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsWrite,
        body: ReorderBody,
        response: { 204: NoContent },
        detail: { summary: "Each listed group's position becomes its index" },
      },
    )
    .get(
      "/tag-groups/:id",
      async ({ ctx, params }) => {
        requireAnyScope(ctx, DEFINITION_READ_SCOPES);
        const row = await findTagGroup(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Tag group");
        return await presentGroupWithCount(deps.db, row);
      },
      { access: read, params: IdParams, response: { 200: TagGroupSchema }, detail: { summary: "A label group" } },
    )
    .patch(
      "/tag-groups/:id",
      async ({ ctx, params, body }) =>
        await presentGroupWithCount(deps.db, await updateTagGroup(ctx, params.id, body, deps)),
      {
        access: settingsWrite,
        params: IdParams,
        body: UpdateTagGroupBody,
        response: { 200: TagGroupSchema },
        detail: { summary: "Change a label group" },
      },
    )
    .delete(
      "/tag-groups/:id",
      async ({ ctx, params, set }) => {
        await deleteTagGroup(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsWrite,
        params: IdParams,
        detail: { summary: "Delete a label group; its labels stay, ungrouped" },
      },
    );
}

/** `tagRenamed`: what depends on label names (views' filters, automations), from the module's ports. */
export const labelsRoutes = (deps: Deps, cascade: { tagRenamed: TagRenamed }) =>
  new Elysia().use(tagRoutes(deps, cascade)).use(tagGroupRoutes(deps));
