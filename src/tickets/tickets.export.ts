import { Elysia } from "elysia";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { csvHeaders, csvStream, type CsvPage } from "../lib/csv";
import { ticketListRead } from "./tickets.list";
import type { TicketJson } from "./tickets.present";
import { TicketListQuery, type TicketListInput } from "./tickets.schemas";

/** Tickets read per page of an export: large enough to amortise the presenters' batched reads. */
const EXPORT_PAGE = 500;

const HEADER = [
  "number",
  "id",
  "subject",
  "status",
  "priority",
  "severity",
  "channel",
  "contact_name",
  "contact_email",
  "assignee_name",
  "assignee_email",
  "team_id",
  "mailbox_id",
  "tags",
  "message_count",
  "first_responded_at",
  "solved_at",
  "last_message_at",
  "created_at",
  "updated_at",
  "fields",
] as const;

const rowOf = (t: TicketJson): unknown[] => [
  t.number,
  t.id,
  t.subject,
  t.status,
  t.priority,
  t.severity,
  t.channel,
  t.contact?.name ?? "",
  t.contact?.email ?? "",
  t.assignee?.name ?? "",
  t.assignee?.email ?? "",
  t.team_id,
  t.mailbox_id,
  t.tags.map((tag) => tag.name),
  t.message_count,
  t.first_responded_at,
  t.solved_at,
  t.last_message_at,
  t.created_at,
  t.updated_at,
  Object.keys(t.fields).length > 0 ? t.fields : "",
];

const ExportQuery = TicketListQuery.omit({ limit: true, cursor: true });

/**
 * GET /v1/tickets/export.csv: the list's filters, visibility and order, read in keyset pages as the
 * client takes the body. The first page is read before answering, so a bad filter is a 422.
 */
export function ticketsExportRoutes(deps: Deps) {
  return new Elysia({ tags: ["tickets"] }).use(deps.guard).get(
    "/tickets/export.csv",
    async ({ ctx, query }) => {
      // One pool read per page: a long export holds a worker only while a page is read, so other
      // requests' reads interleave with it.
      const page = (cursor: string | undefined) =>
        deps.reads.run(ticketListRead, ctx.workspaceId, {
          ctx,
          query: { ...(query as TicketListInput), limit: EXPORT_PAGE, cursor },
        });
      const first = await page(undefined);
      const read = async (cursor: string | null): Promise<CsvPage<string>> => {
        if (cursor === null) return { rows: first.data.map(rowOf), next: first.next_cursor };
        const next = await page(cursor);
        return { rows: next.data.map(rowOf), next: next.next_cursor };
      };
      return new Response(csvStream(HEADER, read), { headers: csvHeaders("tickets.csv") });
    },
    {
      access: { role: "viewer", scopes: ["tickets:read"] },
      query: ExportQuery,
      detail: {
        summary:
          "Tickets as CSV (UTF-8 with a BOM for Excel, RFC 4180 quoting, a header row): the filters, order and visibility of GET /v1/tickets, streamed in pages of 500; a cell starting with = + - @ tab or CR is prefixed with ' so spreadsheets never run it",
        description: `Each page is one read: ${READ_POOL_NOTE} If a page after the first fails that way, the download ends early (incomplete).`,
        responses: {
          200: {
            description: "The tickets, one per line after the header",
            content: { "text/csv": { schema: { type: "string" } } },
          },
        },
      },
    },
  );
}
