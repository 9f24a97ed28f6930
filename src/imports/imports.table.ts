import { deskTable } from "../db/schema-kit";
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

/** The builds of imports.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const imports = deskTable("imports", importsTable);
export const importMappings = deskTable("import_mappings", importMappingsTable);

export type ImportRow = typeof imports.$inferSelect;
export type ImportMappingRow = typeof importMappings.$inferSelect;
