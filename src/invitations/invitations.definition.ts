import { createdAt, id, index, table, text, timestamp, uniqueIndex, workspaceId } from "../db/schema-kit";

/**
 * A pending (or finished) invitation; the accept link's token is looked up only by its hash, and kept
 * sealed (DESK_SECRET) in the link so an admin can copy or resend it.
 */
export const invitationsTable = table(
  "invitations",
  {
    id: id(),
    workspaceId: workspaceId(),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "agent", "viewer"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The accept link sealed with DESK_SECRET; null for invitations made before it was kept (a new link is minted). */
    linkSealed: text("link_sealed"),
    invitedBy: text("invited_by"),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: timestamp("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: timestamp("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_unique").on(t.tokenHash),
    index("invitations_workspace_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);
