/** What other features may use of contacts (and companies): finding, referencing, presenting and searching contacts. */
export {
  contactEmailOf,
  contactRefsOf,
  findOrCreateContactByEmail,
  liveContactExists,
  type ContactRow,
} from "./contacts.service";
export { presentContactRef, presentContacts, type ContactJson, type ContactRef } from "./contacts.present";
export { searchContacts } from "./contacts.search";
