/**
 * What other features may use of the full-text index: the search plan, the index hits they join to
 * their own rows (each owner composes its list's matching SQL), and the staging flush.
 */
export {
  COMMON_TERM_DOCS,
  matchingCompanyRowidsSql,
  MATCH_CAP,
  planSearch,
  queryTerms,
  RANK_CAP,
  ticketNumberOf,
  TICKETS_PER_CONTACT,
  type SearchPlan,
} from "./search.query";
export { bm25Sql, ftsHitKeySql, ftsIndexes, ftsRowidsSql, ftsScoredHitsSql, type FtsIndex } from "./search.fts";
export { flushSearchStaging, registerSearchStaging } from "./search.staging";
export { tsQueryText } from "./search.statements";
