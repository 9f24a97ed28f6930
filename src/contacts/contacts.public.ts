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
export { searchContacts } from "./contacts.search";
export { createVisitorContact, emailTaken, fillVisitorContact, liveContactByExternalId } from "./contacts.visitors";
