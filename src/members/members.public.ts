import { getTableName } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { userIdByEmail } from "../identity/identity.public";
import { members } from "./members.table";
import { memberStatements } from "./members.statements";

/**
 * The members table and the columns a neighbour joins on, as bare SQL names read from the table
 * definition: workspaces compose them into their membership look-ups, and a renamed column is
 * renamed here.
 */
export const membersSql = {
  table: getTableName(members),
  workspaceId: members.workspaceId.name,
  userId: members.userId.name,
  role: members.role.name,
  createdAt: members.createdAt.name,
};

/** The member (not a viewer) with this email, as imports match another desk's agents to people here. */
export async function assignableMemberByEmail(
  db: Queryable,
  workspaceId: string,
  email: string,
): Promise<string | null> {
  const userId = await userIdByEmail(db, email.trim().toLowerCase());
  return userId && (await isAssignableMember(db, workspaceId, userId)) ? userId : null;
}

/** Whether this person is a member who may be assigned tickets (not a viewer): on the ticket write path, prepared once. */
export const isAssignableMember = (db: Queryable, workspaceId: string, userId: string): Promise<boolean> =>
  memberStatements(db).isAssignable(workspaceId, userId);

/** What other features may use of members: membership reads and the writes workspaces and invitations make. */
export {
  addWorkspaceMember,
  adminIdsOfWorkspace,
  assignableMembers,
  findMember,
  insertOwnerMembership,
  isMember,
  isMemberEmail,
  memberCountsOf,
  memberIdsOfWorkspace,
  memberNamesOf,
  memberRoleOf,
  membersAmong,
  membersLastSeenBetween,
  publishMemberUpdated,
  setMemberAvailability,
  setMemberRole,
  setUserPicture,
  touchMemberSeen,
  type AssignableMember,
  type MemberLeft,
} from "./members.service";
export type { MemberJson } from "./members.present";
export { MemberSchema } from "./members.schemas";
export { openTicketCounter, openTicketsOf, type OpenTicketCounter } from "./members.open-tickets";
export { awayCutoff, presenceOf, type AwayCutoff } from "./members.presence";
export { memberLeft } from "./members.service";

/** Events others' consumers and hooks name (src/events/define.ts): their data is typed from these. */
export { memberRemoved } from "./members.events";
