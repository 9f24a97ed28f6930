/**
 * The PostgreSQL builds of contacts.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./contacts.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { contactEmailsTable, contactsTable } from "./contacts.definition";

export const contacts = pgTable("contacts", contactsTable);
export const contactEmails = pgTable("contact_emails", contactEmailsTable);

export type ContactRow = typeof contacts.$inferSelect;
