import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { IdParams, completeList, completeListSchema } from "../http/schemas";
import { TicketSchema } from "../tickets/tickets.public";
import { PLACEHOLDERS } from "./macros.placeholders";
import { CreateMacroBody, MacroSchema, UpdateMacroBody } from "./macros.schemas";
import {
  applyMacro,
  createMacro,
  deleteMacro,
  findMacro,
  listMacros,
  presentMacro,
  updateMacro,
} from "./macros.service";

const read = { role: "viewer", scopes: ["tickets:read"] } as const;
const change = { role: "agent", scopes: ["settings:write"] } as const;
const apply = { role: "agent", scopes: ["tickets:write"] } as const;

const RULES = `A macro is a saved list of automation actions (every type but ai_triage) a person applies to one ticket in one click.
shared (default false): a personal macro is seen and used only by the person who made it (an API key's are its creator's; another person's answers 404); any agent may make personal ones. Shared macros are for everyone in the workspace, and only admins, owners or keys with settings:write create, change or delete them (403 otherwise).
Actions are checked at save like an automation's (422 located at body.actions.<i>.<member>): members, teams and ticket fields must exist; add_tag and remove_tag name a live ticket label (unknown or archived: 422); send_reply and add_note are HTML, sanitized at save, and may use the saved-reply placeholders {{${PLACEHOLDERS.join("}}, {{")}}} (an unknown one, or {{ left open: 422).
usage_count counts applications; applying emits no macro.updated.`;

const APPLY = `Runs the macro's actions on the ticket as the caller: their permissions and visibility (a ticket they cannot see answers 404), activities and messages in their name, and required fields block a solve as for their own PATCH.
The ticket changes are one update (one ticket.updated); then notes and replies, with placeholders filled from the ticket, its contact, the caller and the workspace (values escaped into the HTML). A placeholder without a value on this ticket (a contact without a name) refuses the whole macro with 422 at path.macro_id before anything changes.
Targets gone since saving (a member, team, field, or a label the ticket refuses) are skipped. Answers the Ticket as it is afterwards.`;

const ApplyParams = z.object({ id: z.string().min(1).max(100), macro_id: z.string().min(1).max(100) });

export function macrosRoutes(deps: Deps) {
  return new Elysia({ tags: ["macros"] })
    .use(deps.guard)
    .get("/macros", async ({ ctx }) => completeList(await listMacros(deps.db, ctx)), {
      access: read,
      response: { 200: completeListSchema(MacroSchema) },
      detail: {
        summary: "The shared macros and the caller's personal ones, by position then name",
        description: RULES,
      },
    })
    .post(
      "/macros",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentMacro(await createMacro(ctx, body, deps));
      },
      {
        access: change,
        body: CreateMacroBody,
        response: { 201: MacroSchema },
        detail: {
          summary: "Create a macro (personal unless shared; placed last unless given a position)",
          description: RULES,
        },
      },
    )
    .get("/macros/:id", async ({ ctx, params }) => presentMacro(await findMacro(deps.db, ctx, params.id)), {
      access: read,
      params: IdParams,
      response: { 200: MacroSchema },
      detail: { summary: "A macro" },
    })
    .patch(
      "/macros/:id",
      async ({ ctx, params, body }) => presentMacro(await updateMacro(ctx, params.id, body, deps)),
      {
        access: change,
        params: IdParams,
        body: UpdateMacroBody,
        response: { 200: MacroSchema },
        detail: { summary: "Change a macro (actions replace the whole list)", description: RULES },
      },
    )
    .delete(
      "/macros/:id",
      async ({ ctx, params, set }) => {
        await deleteMacro(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: change, params: IdParams, detail: { summary: "Delete a macro" } },
    )
    .post(
      "/tickets/:id/macros/:macro_id",
      async ({ ctx, params }) => await applyMacro(ctx, params.id, params.macro_id, deps),
      {
        access: apply,
        params: ApplyParams,
        response: { 200: TicketSchema },
        detail: { summary: "Apply a macro to a ticket", description: APPLY },
      },
    );
}
