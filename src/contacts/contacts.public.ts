/** What other features may use of contacts (tickets, inbound, outbound). */
export { presentContactRef, type ContactRef, type ContactRow } from "./contacts.present";
export { contactRefsOf, findContact, findOrCreateContactByEmail } from "./contacts.service";
