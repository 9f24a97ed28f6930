/**
 * The PostgreSQL build of portal.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./portal.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { portalLinksTable } from "./portal.definition";

export const portalLinks = pgTable("portal_links", portalLinksTable);

export type PortalLinkRow = typeof portalLinks.$inferSelect;
