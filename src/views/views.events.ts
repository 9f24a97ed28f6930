import { z } from "zod";
import { defineEvent } from "../events/define";
import { ViewSchema } from "./views.schemas";

const options = { readScope: "tickets:read" } as const;

export const viewCreated = defineEvent("view.created", z.object({ view: ViewSchema }), {
  ...options,
  description: "A view was created.",
});
export const viewUpdated = defineEvent("view.updated", z.object({ view: ViewSchema }), {
  ...options,
  description: "A view changed.",
});
export const viewDeleted = defineEvent("view.deleted", z.object({ view_id: z.string() }), {
  ...options,
  description: "A view was deleted.",
});
export const viewEvents = [viewCreated, viewUpdated, viewDeleted] as const;
