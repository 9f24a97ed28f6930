import { sqliteTable } from "../db/schema-kit";
import { mailConversationsTable, mailMessageIdsTable } from "./outbound.definition";

/** The SQLite builds of outbound.definition.ts: what every query, type and migration uses. */
export const mailMessageIds = sqliteTable("mail_message_ids", mailMessageIdsTable);
export const mailConversations = sqliteTable("mail_conversations", mailConversationsTable);
