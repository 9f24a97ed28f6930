/**
 * The PostgreSQL builds of outbound.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./outbound.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { mailConversationsTable, mailMessageIdsTable } from "./outbound.definition";

export const mailMessageIds = pgTable("mail_message_ids", mailMessageIdsTable);
export const mailConversations = pgTable("mail_conversations", mailConversationsTable);
