/**
 * The PostgreSQL builds of saved-replies.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./saved-replies.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { savedRepliesTable } from "./saved-replies.definition";

export const savedReplies = pgTable("saved_replies", savedRepliesTable);
