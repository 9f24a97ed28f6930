import { deskTable } from "../db/schema-kit";
import { portalLinksTable } from "./portal.definition";

/** The builds of portal.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const portalLinks = deskTable("portal_links", portalLinksTable);

export type PortalLinkRow = typeof portalLinks.$inferSelect;
