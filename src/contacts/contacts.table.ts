import { sqliteTable } from "../db/schema-kit";
import { contactEmailsTable, contactsTable } from "./contacts.definition";

/** The SQLite builds of contacts.definition.ts: what every query, type and migration uses. */
export const contacts = sqliteTable("contacts", contactsTable);
export const contactEmails = sqliteTable("contact_emails", contactEmailsTable);

export type ContactRow = typeof contacts.$inferSelect;
