/**
 * What other features may use of identity (people, their sessions and how they sign in): user
 * references on the wire, the caller's own answer, starting a session, and the reads and writes
 * of people and sessions other features make, so none of them names identity's tables.
 */
export { presentUserRef, userRef, userRefsOf, type UserRefJson } from "./users.present";
export { firstUserId } from "./users.first";
export { userRefRows } from "./users.refs";
export { insertUser, setUserAvatar, userAvatarUrl, userIdByEmail, userMailRef, users } from "./users.store";
export type { UserRow } from "./auth.present";
export { signInOf } from "./sessions";
export { assertRoomForAccount, beginSession } from "./session-response";
export { describeCaller } from "./me.service";
export { MeSchema } from "./me.schemas";
export {
  apiKeyCallerOf,
  pictureFromUrl,
  providerPicture,
  type ApiKeyCaller,
  type PictureFromUrl,
  type ProviderPicture,
} from "./identity.ports";
