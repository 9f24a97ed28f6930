import { sqliteTable } from "../db/schema-kit";
import { portalLinksTable } from "./portal.definition";

/** The SQLite build of portal.definition.ts: what every query, type and migration uses. */
export const portalLinks = sqliteTable("portal_links", portalLinksTable);

export type PortalLinkRow = typeof portalLinks.$inferSelect;
