import { deskTable } from "../db/schema-kit";
import { semanticDirtyTable, semanticSeqsTable, semanticStateTable, semanticVectorsTable } from "./semantic.definition";

export { SEMANTIC_KINDS, type SemanticKind } from "./semantic.definition";

/** The builds of semantic.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const semanticVectors = deskTable("semantic_vectors", semanticVectorsTable);
export const semanticSeqs = deskTable("semantic_seqs", semanticSeqsTable);
export const semanticDirty = deskTable("semantic_dirty", semanticDirtyTable);
export const semanticState = deskTable("semantic_state", semanticStateTable);
