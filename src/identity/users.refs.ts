import type { Queryable } from "../db/database";
import { identityStatements, type UserRefRow } from "./identity.statements";

/** The people behind these ids as refs show them, prepared once: every presented ticket asks (ids of no user are left out). */
export const userRefRows = (db: Queryable, ids: string[]): Promise<UserRefRow[]> =>
  identityStatements(db).userRefRows(ids);
