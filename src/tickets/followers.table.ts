import { deskTable } from "../db/schema-kit";
import { ticketFollowersTable } from "./followers.definition";

/** The builds of followers.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const ticketFollowers = deskTable("ticket_followers", ticketFollowersTable);
