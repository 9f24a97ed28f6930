/**
 * The PostgreSQL builds of sso.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./sso.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { ssoFlowsTable, ssoIdentitiesTable } from "./sso.definition";

export const ssoIdentities = pgTable("sso_identities", ssoIdentitiesTable);
export const ssoFlows = pgTable("sso_flows", ssoFlowsTable);
