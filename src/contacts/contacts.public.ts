/** What other features may use of contacts (and companies): finding, referencing, presenting and searching contacts. */
export {
  contactEmailOf,
  contactRefsOf,
  findOrCreateContactByEmail,
  liveContactExists,
  findContact,
} from "./contacts.service";
export {
  presentContactRef,
  presentContacts,
  type ContactJson,
  type ContactRef,
  type ContactRow,
} from "./contacts.present";
export { searchContacts } from "./contacts.search";
