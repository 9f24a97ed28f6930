import { deskTable } from "../db/schema-kit";
import { savedRepliesTable } from "./saved-replies.definition";

/** The builds of saved-replies.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const savedReplies = deskTable("saved_replies", savedRepliesTable);
