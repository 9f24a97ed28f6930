import { sqliteTable } from "../db/schema-kit";
import { savedRepliesTable } from "./saved-replies.definition";

/** The SQLite builds of saved-replies.definition.ts: what every query, type and migration uses. */
export const savedReplies = sqliteTable("saved_replies", savedRepliesTable);
