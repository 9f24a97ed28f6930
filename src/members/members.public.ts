/** What other features may use of members: membership reads and the writes workspaces and invitations make. */
export {
  addWorkspaceMember,
  findMember,
  insertOwnerMembership,
  isMember,
  isMemberEmail,
  memberHasRole,
  memberIdsOfWorkspace,
  memberRoleOf,
  membersAmong,
  setMemberRole,
  type MemberLeft,
} from "./members.service";
export type { MemberJson } from "./members.present";
export { MemberSchema } from "./members.schemas";
export { registerOpenTicketCounter, type OpenTicketCounter } from "./members.open-tickets";
