/** What other features may use of contacts (and companies): finding, referencing, presenting and searching contacts. */
export {
  contactRefsOf,
  createContact,
  findOrCreateContactByEmail,
  findContact,
  setContactAutoPicture,
  setContactPicture,
  updateContact,
} from "./contacts.service";
export {
  createCompany,
  findCompany,
  listCompanies,
  liveCompanyByDomainOrName,
  presentCompany,
  setCompanyAutoPicture,
  setCompanyPicture,
  updateCompany,
} from "./companies.service";
export { CompanySchema, ContactSchema } from "./contacts.schemas";
export { isContactEmail } from "./contacts.text";
export {
  presentContact,
  presentContactRef,
  presentContacts,
  type ContactJson,
  type ContactRef,
  type ContactRow,
} from "./contacts.present";
export { contactLocaleByEmail, setContactLocaleIfUnset } from "./contacts.locale";
export { searchContacts } from "./contacts.search";
export { companyListRead, contactRowsRead } from "./contacts.reads";
export { liveContactsOfHitsSql } from "./contacts.search-sql";
export { moveContactRecords, type ContactMerged } from "./contacts.merge";
export { liveContactRef } from "./contacts.statements";
export { contactTicketCounts, type ContactTicketCounts } from "./contacts.ticket-counts";
export { createVisitorContact, emailTaken, fillVisitorContact, liveContactByExternalId } from "./contacts.visitors";

/** Events others' consumers and hooks name (src/events/define.ts): their data is typed from these. */
export { companyCreated, companyUpdated, contactCreated, contactUpdated } from "./contacts.events";
