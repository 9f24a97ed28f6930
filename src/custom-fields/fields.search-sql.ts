import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { sqlParts } from "../db/dialect";
import { ftsHitKeySql, ftsIndexes } from "../search/search.public";
import type { FieldEntity } from "./fields.apply";

const entityLiteral = (entity: FieldEntity): SQL => sql.raw(`'${entity}'`);
/** A value row as the value index's hits name it (search's `ftsHitKeySql`). */
const valueKey = (db: Queryable): SQL => ftsHitKeySql(db, sql.raw("fv"), ftsIndexes.fieldValues);

/**
 * The records of `entity` whose custom value rows are among `rowids` (the value index's hits): the
 * lists' `q` composes it. The entity is written into the SQL, as the measured query plans have it.
 */
export const fieldValueRecordsAmongSql = (db: Queryable, entity: FieldEntity, rowids: SQL): SQL =>
  sql`SELECT fv.record_id FROM field_values fv WHERE fv.entity = ${entityLiteral(entity)} AND ${valueKey(db)} IN (${rowids})`;

/** (record, score) of each value-index hit of `entity`: `hits` yields `rid` and `score` (search's ranking). */
export const fieldValueScoredHitsSql = (db: Queryable, entity: FieldEntity, hits: SQL): SQL =>
  sql`SELECT fv.record_id, s.score FROM (${hits}) s JOIN field_values fv ON ${valueKey(db)} = s.rid AND fv.entity = ${entityLiteral(entity)}`;

/** The records of `entity` in the workspace with a custom text value starting as the LIKE pattern `prefix` says. */
export const fieldValuePrefixSql = (db: Queryable, workspaceId: string, entity: FieldEntity, prefix: string): SQL =>
  sql`SELECT fv.record_id FROM field_values fv WHERE fv.workspace_id = ${workspaceId} AND fv.entity = ${entityLiteral(entity)} AND ${sqlParts(db).likeInsensitive(sql.raw("fv.value_text"), prefix)}`;
