import { createdAt, id, index, table, text, timestamp, uniqueIndex, workspaceId } from "../db/schema-kit";

/**
 * The customer portal's one-time sign-in links (DECISIONS.md "Daily work"): stored only as the
 * token's hash (the mail job holds the link sealed), good for 15 minutes and once (`used_at`).
 * The address is kept as typed, lower-cased: the contact is found or made only when the link is
 * used, so asking for a link tells nobody whether the address is a contact.
 */
export const portalLinksTable = table(
  "portal_links",
  {
    id: id(),
    workspaceId: workspaceId(),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: timestamp("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("portal_links_token_unique").on(t.tokenHash), index("portal_links_expiry_idx").on(t.expiresAt)],
);
