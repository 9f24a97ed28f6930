/** What other features may use of users: the reference shape presenters embed. */
export { presentUserRef, type UserRefJson } from "./users.present";
