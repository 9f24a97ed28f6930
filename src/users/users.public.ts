/** What other features may use of users: user references on the wire, and a person's sessions and resets. */
export { presentUserRef, userRef, type UserRefJson } from "./users.present";
export { liveSessions, retireResets, revokeSessionsOf } from "./password-resets.service";
export { firstUserId } from "./users.first";
