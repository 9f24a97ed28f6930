import { Elysia } from "elysia";
import { findContact } from "../contacts/contacts.public";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { IdParams, pageOfSchema, completeList, completeListSchema } from "../http/schemas";
import { readTicketList, readViewCounts } from "./tickets.list";
import { mergeTicket } from "./tickets.merge";
import { presentActivities, presentTicket } from "./tickets.present";
import {
  ActivitySchema,
  BulkBody,
  BulkResult,
  CountsSchema,
  CreateTicketBody,
  MergeBody,
  TicketListQuery,
  TicketPatchBody,
  TicketSchema,
} from "./tickets.schemas";
import { createTicket, withSendingMailbox } from "./tickets.create";
import {
  bulkUpdateTickets,
  deleteTicket,
  getTicket,
  listActivities,
  ticketCounts,
  updateTicket,
} from "./tickets.service";

const read = { role: "viewer", scopes: ["tickets:read"] } as const;
const write = { role: "agent", scopes: ["tickets:write"] } as const;

export function ticketsRoutes(deps: Deps) {
  return new Elysia({ tags: ["tickets"] }).use(deps.guard).use(ticketCollectionRoutes(deps)).use(oneTicketRoutes(deps));
}

/** The collection: list, inbox counts, create, bulk change. */
function ticketCollectionRoutes(deps: Deps) {
  return new Elysia({ tags: ["tickets"] })
    .use(deps.guard)
    .get("/tickets", async ({ ctx, query }) => await readTicketList(deps, ctx, query), {
      access: read,
      query: TicketListQuery,
      response: { 200: pageOfSchema(TicketSchema) },
      detail: {
        summary:
          "List tickets: filters combine with AND; keyset pages; spam is excluded unless spam=true; snoozed=false leaves out snoozed tickets, snoozed=true lists only them",
        description: `With \`q\` (or a view whose filters have one): ${READ_POOL_NOTE}`,
      },
    })
    .get(
      "/tickets/counts",
      async ({ ctx }) => ({ ...(await ticketCounts(deps.db, ctx)), views: await readViewCounts(deps, ctx) }),
      {
        access: read,
        response: { 200: CountsSchema },
        detail: {
          summary:
            "Inbox counts (live, non-spam tickets; unassigned and mine count open, pending and on_hold; snoozed tickets count only in snoozed until they wake)",
          description: `The views' counts (\`views\`, by view id): ${READ_POOL_NOTE} Here a view count the pool cannot give in time is left out of \`views\` instead (the other counts still answer).`,
        },
      },
    )
    .post(
      "/tickets",
      async ({ ctx, body, set }) => {
        const row = await createTicket(ctx, await withSendingMailbox(deps.db, ctx, body), deps);
        set.status = 201;
        set.headers.location = `/v1/tickets/${row.id}`;
        return await presentTicket(deps.db, row);
      },
      {
        access: write,
        body: CreateTicketBody,
        response: { 201: TicketSchema },
        detail: {
          summary: "Create a ticket, optionally with its first message",
          description:
            "With `channel: email` the ticket is mailed from `mailbox_id` (default: the workspace's first mailbox): a first message of kind `reply` is sent to the contact, threaded (Message-ID) so the answer comes back into this ticket, and so is every later reply. Without a mailbox to send from (none, or disabled) the request answers 422 at `body.mailbox_id`.",
        },
      },
    )
    .post("/tickets/bulk", async ({ ctx, body }) => await bulkUpdateTickets(ctx, body, deps), {
      access: write,
      body: BulkBody,
      response: { 200: BulkResult },
      detail: { summary: "Patch or delete many tickets at once (all or nothing); answers { updated, ids }" },
    });
}

/** One ticket (by UUID, number or #number), its timeline, and a contact's tickets. */
function oneTicketRoutes(deps: Deps) {
  return new Elysia({ tags: ["tickets"] })
    .use(deps.guard)
    .get(
      "/tickets/:id",
      async ({ ctx, params }) => await presentTicket(deps.db, await getTicket(deps.db, ctx, params.id)),
      {
        access: read,
        params: IdParams,
        response: { 200: TicketSchema },
        detail: { summary: "A ticket by UUID, number or #number" },
      },
    )
    .patch(
      "/tickets/:id",
      async ({ ctx, params, body }) => await presentTicket(deps.db, await updateTicket(ctx, params.id, body, deps)),
      {
        access: write,
        params: IdParams,
        body: TicketPatchBody,
        response: { 200: TicketSchema },
        detail: { summary: "Update a ticket; solving with an empty required field answers 422 field_required" },
      },
    )
    .delete(
      "/tickets/:id",
      async ({ ctx, params, set }) => {
        await deleteTicket(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: write, params: IdParams, detail: { summary: "Soft-delete a ticket (emits ticket.deleted)" } },
    )
    .post(
      "/tickets/:id/merge",
      async ({ ctx, params, body }) =>
        await presentTicket(deps.db, await mergeTicket(ctx, params.id, String(body.into_id), deps)),
      {
        access: write,
        params: IdParams,
        body: MergeBody,
        response: { 200: TicketSchema },
        detail: { summary: "Merge this ticket into another; answers the target ticket" },
      },
    )
    .get(
      "/tickets/:id/activities",
      async ({ ctx, params }) =>
        completeList(await presentActivities(deps.db, await listActivities(deps.db, ctx, params.id))),
      {
        access: read,
        params: IdParams,
        response: { 200: completeListSchema(ActivitySchema) },
        detail: { summary: "Every non-message timeline entry, ascending" },
      },
    )
    .get(
      "/contacts/:id/tickets",
      async ({ ctx, params, query }) => {
        const contact = await findContact(deps.db, ctx.workspaceId, params.id);
        if (!contact) throw notFound("Contact");
        return await readTicketList(deps, ctx, { ...query, spam: query.spam ?? undefined }, contact.id);
      },
      {
        access: read,
        params: IdParams,
        query: TicketListQuery,
        response: { 200: pageOfSchema(TicketSchema) },
        detail: {
          summary: "The contact's tickets (same filters as the ticket list)",
          description: `With \`q\`: ${READ_POOL_NOTE}`,
        },
      },
    );
}
