/**
 * The PostgreSQL builds of imports.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./imports.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { importMappingsTable, importsTable } from "./imports.definition";

export {
  IMPORT_SOURCES,
  IMPORT_STATUSES,
  type ImportCounts,
  type ImportError,
  type ImportSourceName,
  type ImportState,
  type ImportStatus,
} from "./imports.definition";

export const imports = pgTable("imports", importsTable);
export const importMappings = pgTable("import_mappings", importMappingsTable);

export type ImportRow = typeof imports.$inferSelect;
export type ImportMappingRow = typeof importMappings.$inferSelect;
