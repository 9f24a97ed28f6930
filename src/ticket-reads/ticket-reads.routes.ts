import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { READS_PER_MEMBER, READS_PER_REQUEST, markTicketSeen, readsAmong } from "./ticket-reads.service";

const ReadSchema = z.object({ ticket_id: z.string(), seen_at: z.string() });
const ReadsQuery = z.object({
  // The query parser may already have split "a,b" into a list.
  ticket_ids: z
    .preprocess((v) => (Array.isArray(v) ? v.join(",") : v), z.string().max(READS_PER_REQUEST * 40))
    .transform((s) => s.split(",").filter(Boolean))
    .pipe(z.array(z.string().min(1).max(40)).max(READS_PER_REQUEST)),
});
const TicketParams = z.object({ ticket_id: z.string().min(1).max(100) });

const ABOUT =
  "Per person (API keys get 403): a ticket whose `last_message_at` is newer than the person's `seen_at`, or that " +
  `they never opened, shows as unread in their inbox. At most ${READS_PER_MEMBER} marks are kept per person and ` +
  "workspace; older ones are dropped, and those tickets read as unread again.";

/** The inbox's read/unread state: when each person last opened each ticket. */
export function ticketReadsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/ticket-reads", tags: ["tickets"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await readsAmong(ctx, query.ticket_ids, deps), {
      access: { role: "viewer", scopes: ["tickets:read"], keys: false },
      query: ReadsQuery,
      response: { 200: z.object({ data: z.array(ReadSchema) }) },
      detail: {
        summary: "When you last opened these tickets (comma-separated `ticket_ids`, up to 100)",
        description: `${ABOUT} Tickets you may not see, or never opened, are left out.`,
      },
    })
    .put("/:ticket_id", async ({ ctx, params }) => await markTicketSeen(ctx, params.ticket_id, deps), {
      access: { role: "viewer", scopes: ["tickets:read"], keys: false },
      params: TicketParams,
      response: { 200: ReadSchema },
      detail: {
        summary: "Mark a ticket as seen by you now",
        description: `${ABOUT} 404 for a ticket you may not see or of another workspace.`,
      },
    });
}
