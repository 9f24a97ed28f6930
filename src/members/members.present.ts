import { presentUserRef, type UserRow } from "../identity/identity.public";
import type { members } from "./members.table";

export type MemberRow = typeof members.$inferSelect;
export type MemberUserRow = Pick<UserRow, "id" | "name" | "email" | "avatarUrl" | "avatarSource">;

/**
 * SPEC.md's Member. `presence` is the member's own availability; auto-away (the assignment
 * feature's `auto_away_minutes`) may pass a computed presence instead.
 */
export function presentMember(
  row: MemberRow,
  user: MemberUserRow,
  openTickets: number,
  presence: MemberRow["availability"] = row.availability,
) {
  return {
    user: { ...presentUserRef(user), avatar_source: user.avatarSource ?? null },
    role: row.role,
    availability: row.availability,
    presence,
    max_open_tickets: row.maxOpenTickets ?? null,
    open_tickets: openTickets,
    last_seen_at: row.lastSeenAt ?? null,
    created_at: row.createdAt,
  };
}

export type MemberJson = ReturnType<typeof presentMember>;
