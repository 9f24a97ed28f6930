import { createdAt, index, integer, primaryKey, table, text, timestamp } from "../db/schema-kit";

/**
 * The workspaces table as far as the foreign key below needs it: its name and key. Importing the
 * owner's table would make workspaces and members import each other (workspaces create their owner
 * membership through members.public.ts). No `*.table.ts` exports it, so drizzle-kit does not take it
 * for a table of the schema; the generated SQL (`REFERENCES workspaces(id)`) is the same.
 */
const workspaceKey = table("workspaces", { id: text("id").primaryKey() });

export const membersTable = table(
  "members",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => [workspaceKey, "id"], { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ["owner", "admin", "agent", "viewer"] }).notNull(),
    availability: text("availability", { enum: ["online", "away", "offline"] })
      .notNull()
      .default("online"),
    maxOpenTickets: integer("max_open_tickets"),
    lastSeenAt: timestamp("last_seen_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.workspaceId, t.userId), index("members_user_idx").on(t.userId)],
);
