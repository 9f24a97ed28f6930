import { deskTable } from "../db/schema-kit";
import { membersTable } from "./members.definition";

/** The builds of members.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const members = deskTable("members", membersTable);
