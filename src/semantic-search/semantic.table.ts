import { sqliteTable } from "../db/schema-kit";
import { semanticDirtyTable, semanticSeqsTable, semanticStateTable, semanticVectorsTable } from "./semantic.definition";

export { SEMANTIC_KINDS, type SemanticKind } from "./semantic.definition";

/** The SQLite builds of semantic.definition.ts: what every query, type and migration uses. */
export const semanticVectors = sqliteTable("semantic_vectors", semanticVectorsTable);
export const semanticSeqs = sqliteTable("semantic_seqs", semanticSeqsTable);
export const semanticDirty = sqliteTable("semantic_dirty", semanticDirtyTable);
export const semanticState = sqliteTable("semantic_state", semanticStateTable);
