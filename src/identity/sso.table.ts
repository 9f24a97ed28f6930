import { sqliteTable } from "../db/schema-kit";
import { ssoFlowsTable, ssoIdentitiesTable } from "./sso.definition";

/** The SQLite builds of sso.definition.ts: what every query, type and migration uses. */
export const ssoIdentities = sqliteTable("sso_identities", ssoIdentitiesTable);
export const ssoFlows = sqliteTable("sso_flows", ssoFlowsTable);
