import { deskTable } from "../db/schema-kit";
import { passwordResetsTable } from "./password-resets.definition";

/** The builds of password-resets.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const passwordResets = deskTable("password_resets", passwordResetsTable);
