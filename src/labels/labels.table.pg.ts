/**
 * The PostgreSQL builds of labels.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./labels.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { recordTagsTable, tagGroupsTable, tagsTable } from "./labels.definition";

export { LABEL_KINDS } from "./labels.definition";

export const tagGroups = pgTable("tag_groups", tagGroupsTable);
export const tags = pgTable("tags", tagsTable);
export const recordTags = pgTable("record_tags", recordTagsTable);
