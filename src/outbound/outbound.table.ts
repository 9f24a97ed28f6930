import { deskTable } from "../db/schema-kit";
import { mailConversationsTable, mailMessageIdsTable } from "./outbound.definition";

/** The builds of outbound.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const mailMessageIds = deskTable("mail_message_ids", mailMessageIdsTable);
export const mailConversations = deskTable("mail_conversations", mailConversationsTable);
