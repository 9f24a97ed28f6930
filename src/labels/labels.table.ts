import { sqliteTable } from "../db/schema-kit";
import { recordTagsTable, tagGroupsTable, tagsTable } from "./labels.definition";

export { LABEL_KINDS } from "./labels.definition";

/** The SQLite builds of labels.definition.ts: what every query, type and migration uses. */
export const tagGroups = sqliteTable("tag_groups", tagGroupsTable);
export const tags = sqliteTable("tags", tagsTable);
export const recordTags = sqliteTable("record_tags", recordTagsTable);
