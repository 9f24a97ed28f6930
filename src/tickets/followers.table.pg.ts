/**
 * The PostgreSQL builds of followers.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./followers.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { ticketFollowersTable } from "./followers.definition";

export const ticketFollowers = pgTable("ticket_followers", ticketFollowersTable);
