/**
 * Tables created only in migrations/custom/*.sql, so no `deskTable` names their owner. Each goes
 * to the folder that reads and writes it apart from its triggers.
 */
export const CREATED_IN_MIGRATIONS: Record<string, string> = {
  // The full-text index and its staging rows: src/search stages and flushes them and builds the
  // matching SQL of every list (0100, 0101, 0103, 0105).
  ticket_search: "search",
  message_search: "search",
  contact_search: "search",
  field_value_search: "search",
  company_search: "search",
  search_staging_tickets: "search",
  search_staging_messages: "search",
  // Knowledge-base articles are indexed by triggers at once (0120); only kb searches them.
  article_search: "kb",
  // The inbox counts (0102, 0104) and the time rules' per-ticket times (0130) are the tickets'
  // own derived rows, kept by triggers on tickets and messages.
  ticket_counts: "tickets",
  ticket_times: "tickets",
  // Consumer cursors, one row per (workspace, consumer), clustered by workspace (0140).
  event_consumer_cursors: "events",
  // PostgreSQL's own (migrations/postgres/custom/0200): rate limits and spent challenges every node shares.
  rate_limit_hits: "http",
  spent_challenges: "identity",
};
