import { sqliteTable } from "../db/schema-kit";
import { ticketFollowersTable } from "./followers.definition";

/** The SQLite builds of followers.definition.ts: what every query, type and migration uses. */
export const ticketFollowers = sqliteTable("ticket_followers", ticketFollowersTable);
