import { deskTable } from "../db/schema-kit";
import { ssoFlowsTable, ssoIdentitiesTable } from "./sso.definition";

/** The builds of sso.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const ssoIdentities = deskTable("sso_identities", ssoIdentitiesTable);
export const ssoFlows = deskTable("sso_flows", ssoFlowsTable);
