import { createdAt, id, index, integer, table, text, timestamp, uniqueIndex, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): csat.table.ts builds it for
// SQLite (queries, types, migrations), csat.table.pg.ts for PostgreSQL.

/**
 * One rating request per solve of a ticket (DECISIONS.md "Customer-facing pages"). The link's token
 * is stored only as its hash; the mail job holds it sealed. `event_id` is the `ticket.updated` that
 * solved the ticket, unique, so one solve never yields two requests.
 */
export const csatRequestsTable = table(
  "csat_requests",
  {
    id: id(),
    workspaceId: workspaceId(),
    ticketId: text("ticket_id").notNull(),
    eventId: text("event_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    expiresAt: text("expires_at").notNull(),
    sentAt: timestamp("sent_at"),
    score: integer("score"),
    comment: text("comment"),
    ratedAt: timestamp("rated_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("csat_requests_token_unique").on(t.tokenHash),
    uniqueIndex("csat_requests_event_unique").on(t.eventId),
    index("csat_requests_ticket_idx").on(t.workspaceId, t.ticketId, t.createdAt),
  ],
);
