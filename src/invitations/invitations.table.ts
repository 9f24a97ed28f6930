import { deskTable } from "../db/schema-kit";
import { invitationsTable } from "./invitations.definition";

/** The builds of invitations.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const invitations = deskTable("invitations", invitationsTable);
