import type { UserRefJson } from "../identity/identity.public";
import type { invitations } from "./invitations.table";

export type InvitationRow = typeof invitations.$inferSelect;

export function presentInvitation(row: InvitationRow, invitedBy: UserRefJson | null) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    expires_at: row.expiresAt,
    created_at: row.createdAt,
    invited_by: invitedBy,
  };
}
