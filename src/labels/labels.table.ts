import { deskTable } from "../db/schema-kit";
import { recordTagsTable, tagGroupsTable, tagsTable } from "./labels.definition";

export { LABEL_KINDS } from "./labels.definition";

/** The builds of labels.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const tagGroups = deskTable("tag_groups", tagGroupsTable);
export const tags = deskTable("tags", tagsTable);
export const recordTags = deskTable("record_tags", recordTagsTable);
