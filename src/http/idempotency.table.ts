import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    /** `key:<api key id>` or `user:<user id>:<workspace id>`: keys are scoped to the caller. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "done"] }).notNull(),
    status: integer("status"),
    contentType: text("content_type"),
    location: text("location"),
    body: text("body"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);
