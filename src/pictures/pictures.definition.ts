import { integer, table, text, updatedAt } from "../db/schema-kit";

/**
 * What automatic lookups found, shared by every workspace: `gravatar:<sha256 of email>` or
 * `domain:<domain>`. A found picture is reused for a week; a miss or a failure is remembered
 * (`retry_after`) so a dead domain or an unknown email is not asked again and again.
 */
export const pictureLookupsTable = table("picture_lookups", {
  key: text("key").primaryKey(),
  status: text("status", { enum: ["found", "missing", "failed"] }).notNull(),
  /** The stored picture's URL when found. */
  imageUrl: text("image_url"),
  failures: integer("failures").notNull().default(0),
  checkedAt: text("checked_at").notNull(),
  retryAfter: text("retry_after").notNull(),
  updatedAt: updatedAt(),
});
