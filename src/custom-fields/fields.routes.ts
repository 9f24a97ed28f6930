import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { IdParams, NoContent, completeList, completeListSchema } from "../http/schemas";
import { DEFINITION_READ_SCOPES, requireAnyScope, settingsWrite } from "../labels/labels.public";
import {
  CreateFieldBody,
  CustomFieldSchema,
  FieldListQuery,
  ReorderFieldsBody,
  UpdateFieldBody,
} from "./fields.schemas";
import {
  createField,
  deleteField,
  findField,
  listFields,
  presentField,
  reorderFields,
  updateField,
} from "./fields.service";

export function fieldsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/custom-fields", tags: ["custom-fields"] })
    .use(deps.guard)
    .get(
      "/",
      async ({ ctx, query }) => {
        requireAnyScope(ctx, DEFINITION_READ_SCOPES);
        return completeList(await listFields(deps.db, ctx, query));
      },
      {
        access: { role: "viewer" },
        query: FieldListQuery,
        response: { 200: completeListSchema(CustomFieldSchema) },
        detail: { summary: "Custom field definitions, by entity then position" },
      },
    )
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentField(await createField(ctx, body, deps));
      },
      {
        access: settingsWrite,
        body: CreateFieldBody,
        response: { 201: CustomFieldSchema },
        detail: { summary: "Define a custom field; 409 conflict when a passed key is taken" },
      },
    )
    .post(
      "/reorder",
      async ({ ctx, body, set }) => {
        await reorderFields(ctx, body.entity, body.ids, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsWrite,
        body: ReorderFieldsBody,
        response: { 204: NoContent },
        detail: { summary: "Each listed field's position becomes its index" },
      },
    )
    .get(
      "/:id",
      async ({ ctx, params }) => {
        requireAnyScope(ctx, DEFINITION_READ_SCOPES);
        const row = await findField(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Custom field");
        return presentField(row);
      },
      {
        access: { role: "viewer" },
        params: IdParams,
        response: { 200: CustomFieldSchema },
        detail: { summary: "A custom field definition" },
      },
    )
    .patch("/:id", async ({ ctx, params, body }) => presentField(await updateField(ctx, params.id, body, deps)), {
      access: settingsWrite,
      params: IdParams,
      body: UpdateFieldBody,
      response: { 200: CustomFieldSchema },
      detail: { summary: "Change a field; removing an option clears it from stored values" },
    })
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteField(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: settingsWrite, params: IdParams, detail: { summary: "Delete a field and all its values" } },
    );
}
