import { sqliteTable } from "../db/schema-kit";
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

/** The SQLite builds of imports.definition.ts: what every query, type and migration uses. */
export const imports = sqliteTable("imports", importsTable);
export const importMappings = sqliteTable("import_mappings", importMappingsTable);

export type ImportRow = typeof imports.$inferSelect;
export type ImportMappingRow = typeof importMappings.$inferSelect;
