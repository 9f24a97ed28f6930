import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { IdParams, pageOfSchema } from "../http/schemas";
import { presentContact } from "./contacts.present";
import { ContactListQuery, ContactSchema, CreateContactBody } from "./contacts.schemas";
import { createContact, deleteContact, findContact, listContacts, updateContact } from "./contacts.service";

const read = { role: "viewer", scopes: ["contacts:read"] } as const;
const write = { role: "agent", scopes: ["contacts:write"] } as const;

export function contactsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/contacts", tags: ["contacts"] })
    .use(deps.guard)
    .get("/", ({ ctx, query }) => listContacts(deps.db, ctx, query), {
      access: read,
      query: ContactListQuery,
      response: { 200: pageOfSchema(ContactSchema) },
      detail: { summary: "Contacts, newest first; filters q (name or email prefix), company_id, tag, field.<key>" },
    })
    .post(
      "/",
      ({ ctx, body, set }) => {
        set.status = 201;
        return presentContact(deps.db, createContact(ctx, body, deps));
      },
      {
        access: write,
        body: CreateContactBody,
        response: { 201: ContactSchema },
        detail: { summary: "Create a contact; 409 conflict on a taken email or external_id" },
      },
    )
    .get(
      "/:id",
      ({ ctx, params }) => {
        const row = findContact(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Contact");
        return presentContact(deps.db, row);
      },
      { access: read, params: IdParams, response: { 200: ContactSchema }, detail: { summary: "A contact" } },
    )
    .patch("/:id", ({ ctx, params, body }) => presentContact(deps.db, updateContact(ctx, params.id, body, deps)), {
      access: write,
      params: IdParams,
      body: CreateContactBody,
      response: { 200: ContactSchema },
      detail: { summary: "Change a contact; tags replaces the labels, add_tags/remove_tags adjust them, fields merge" },
    })
    .delete(
      "/:id",
      ({ ctx, params, set }) => {
        deleteContact(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: IdParams,
        detail: { summary: "Delete a contact; its tickets keep showing who wrote them" },
      },
    );
}
