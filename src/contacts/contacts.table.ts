import { deskTable } from "../db/schema-kit";
import { contactEmailsTable, contactsTable } from "./contacts.definition";

/** The builds of contacts.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const contacts = deskTable("contacts", contactsTable);
export const contactEmails = deskTable("contact_emails", contactEmailsTable);

export type ContactRow = typeof contacts.$inferSelect;
