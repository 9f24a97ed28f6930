export const invitationsKeys = { list: ["invitations"] as const };
export const assignmentKeys = { current: ["assignment"] as const };
