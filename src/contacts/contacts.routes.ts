import { Elysia } from "elysia";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { IdParams, pageOfSchema } from "../http/schemas";
import { presentContact } from "./contacts.present";
import { contactDuplicates, mergeContact } from "./contacts.merge";
import {
  ContactDuplicatesSchema,
  ContactListQuery,
  ContactSchema,
  CreateContactBody,
  MergeContactBody,
} from "./contacts.schemas";
import { createContact, deleteContact, findContact, updateContact } from "./contacts.service";
import { readContactList } from "./contacts.reads";
import { contactTicketCounts } from "./contacts.ticket-counts";

const read = { role: "viewer", scopes: ["contacts:read"] } as const;
const write = { role: "agent", scopes: ["contacts:write"] } as const;

export function contactsRoutes(deps: Deps) {
  const countTickets = deps.ports.get(contactTicketCounts);
  return new Elysia({ prefix: "/contacts", tags: ["contacts"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await readContactList(deps, ctx, query), {
      access: read,
      query: ContactListQuery,
      response: { 200: pageOfSchema(ContactSchema) },
      detail: {
        summary:
          "Contacts, newest first; filters q (name, or the start of any of its emails), company_id, tag, field.<key>",
        description: `With \`q\`: ${READ_POOL_NOTE}`,
      },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return await presentContact(deps.db, countTickets, await createContact(ctx, body, deps));
      },
      {
        access: write,
        body: CreateContactBody,
        response: { 201: ContactSchema },
        detail: {
          summary:
            "Create a contact; emails lists every address (the first is email, at most 20); locale is the contact's language (a BCP 47 tag of at most 35 characters, stored canonical; else 422 at body.locale); 409 conflict (with the location) on an email another contact has, or a taken external_id",
        },
      },
    )
    .get(
      "/:id",
      async ({ ctx, params }) => {
        const row = await findContact(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Contact");
        return await presentContact(deps.db, countTickets, row);
      },
      { access: read, params: IdParams, response: { 200: ContactSchema }, detail: { summary: "A contact" } },
    )
    .patch(
      "/:id",
      async ({ ctx, params, body }) =>
        await presentContact(deps.db, countTickets, await updateContact(ctx, params.id, body, deps)),
      {
        access: write,
        params: IdParams,
        body: CreateContactBody,
        response: { 200: ContactSchema },
        detail: {
          summary:
            "Change a contact; emails replaces its addresses (the first is email, at most 20; 409 with the location when another contact has one); tags replaces the labels, add_tags/remove_tags adjust them, fields merge; locale sets the contact's language (BCP 47, stored canonical, null clears it; Desk never replaces an agent's choice)",
        },
      },
    )
    .post(
      "/:id/merge",
      async ({ ctx, params, body }) =>
        await presentContact(deps.db, countTickets, await mergeContact(ctx, params.id, body.into_id, deps)),
      {
        access: write,
        params: IdParams,
        body: MergeContactBody,
        response: { 200: ContactSchema },
        detail: {
          summary:
            "Merge this contact into into_id: tickets, emails (at most 20 together), labels, missing field values and notes move; this contact is deleted (contact.deleted, contact.merged) and the merge is audited; answers the remaining contact",
        },
      },
    )
    .get("/:id/duplicates", async ({ ctx, params }) => await contactDuplicates(deps.db, ctx, params.id, deps.ports), {
      access: read,
      params: IdParams,
      response: { 200: ContactDuplicatesSchema },
      detail: {
        summary:
          "Likely duplicates of a contact: other contacts with the same name and an email at the same domain (10 at most)",
      },
    })
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteContact(ctx, params.id, deps);
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
