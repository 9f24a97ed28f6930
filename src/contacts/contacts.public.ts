/** What other features may use of contacts (and companies): finding, referencing, presenting and searching contacts. */
export {
  contactRefsOf,
  findOrCreateContactByEmail,
  findContact,
  setContactPicture,
} from "./contacts.service";
export { listCompanies, presentCompany, setCompanyPicture } from "./companies.service";
export { CompanySchema, ContactSchema } from "./contacts.schemas";
export {
  presentContact,
  presentContactRef,
  presentContacts,
  type ContactJson,
  type ContactRef,
  type ContactRow,
} from "./contacts.present";
export { searchContacts } from "./contacts.search";
