/** What other features read of invitations. */
export { anyInvitationIn } from "./invitations.service";
