/** What other features may use of the full-text index: the matching queries of each list, and the staging flush. */
export {
  COMMON_TERM_DOCS,
  contactTicketsSql,
  matchingCompanyRowidsSql,
  matchingContactIdsSql,
  matchingTicketIdsSql,
  planSearch,
  queryTerms,
  RANK_CAP,
  ticketNumberOf,
  type SearchPlan,
} from "./search.query";
export { flushSearchStaging, registerSearchStaging } from "./search.staging";
