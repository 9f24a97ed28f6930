import { integer, primaryKey, table, text } from "../db/schema-kit";

export const idempotencyKeysTable = table(
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
  (t) => [primaryKey(t.scope, t.key)],
);
