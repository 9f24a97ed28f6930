/**
 * The PostgreSQL builds of semantic.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./semantic.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { semanticDirtyTable, semanticSeqsTable, semanticStateTable, semanticVectorsTable } from "./semantic.definition";

export { SEMANTIC_KINDS, type SemanticKind } from "./semantic.definition";

export const semanticVectors = pgTable("semantic_vectors", semanticVectorsTable);
export const semanticSeqs = pgTable("semantic_seqs", semanticSeqsTable);
export const semanticDirty = pgTable("semantic_dirty", semanticDirtyTable);
export const semanticState = pgTable("semantic_state", semanticStateTable);
