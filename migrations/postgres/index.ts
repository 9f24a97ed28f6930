// The PostgreSQL lineage (src/db/postgres/migrate.ts): each step names the SQLite tags
// (migrations/index.ts) it stands for, so both engines record the same tags. A new SQLite migration
// gets its twin here (src/db/postgres/lineage.test.ts fails on a tag no step covers).
import type { PostgresMigration } from "../../src/db/postgres/migrate";
import baseline from "./0000_baseline.sql" with { type: "text" };
import search from "./custom/0100_search.sql" with { type: "text" };
import ticketCounts from "./custom/0102_ticket_counts.sql" with { type: "text" };
import ticketTimes from "./custom/0130_ticket_times.sql" with { type: "text" };
import consumerCursors from "./custom/0140_consumer_cursors.sql" with { type: "text" };
import sharedLimits from "./custom/0200_shared_limits.sql" with { type: "text" };

/** The tables drizzle-kit generates from every `*.table.pg.ts`, as they stand after these SQLite migrations. */
const GENERATED = [
  "0000_foundation",
  "0001_jobs",
  "0002_tickets",
  "0003_custom_field_indexes",
  "0004_tickets-status-spam-index",
  "0005_tickets-drop-counts-index",
  "0006_password-resets",
  "0007_message-delivery-via",
  "0008_event-consumers",
  "0009_notifications",
  "0010_backup-runs",
  "0011_sla",
  "0012_widget",
  "0013_automations",
  "0014_knowledge-base",
  "0015_notifications-assignment",
  "0016_ai",
  "0017_csat-triage-onboarding",
  "0018_passkeys-sso-attest-pictures",
  "0019_assistant",
  "0020_semantic-search-widget-answers",
  "0021_first_week_security_daily_work",
  "0022_languages",
  "0023_mail_ids_by_ticket",
  "0024_job_leases",
  "0025_consumer_cursors",
];

export const postgresMigrations: PostgresMigration[] = [
  { tag: "0000_baseline", covers: GENERATED, sql: baseline },
  // Full-text search: tsvector columns with GIN indexes where SQLite keeps FTS5 tables.
  {
    tag: "custom/0100_search",
    covers: [
      "custom/0100_search_tickets",
      "custom/0101_search_contacts_fields",
      "custom/0103_search_staging",
      "custom/0105_search_companies",
      "custom/0120_search_kb_articles",
    ],
    sql: search,
  },
  // The inbox counts, kept by PL/pgSQL triggers on tickets.
  {
    tag: "custom/0102_ticket_counts",
    covers: ["custom/0102_ticket_counts", "custom/0104_ticket_counts_snoozed"],
    sql: ticketCounts,
  },
  { tag: "custom/0130_ticket_times", covers: ["custom/0130_ticket_times"], sql: ticketTimes },
  { tag: "custom/0140_consumer_cursors", covers: ["custom/0140_consumer_cursors"], sql: consumerCursors },
  // Vector seqs continue from the stored vectors; a new database has none.
  { tag: "custom/0150_semantic_seqs", covers: ["custom/0150_semantic_seqs"], sql: "" },
  // PostgreSQL's own (tags under postgres/): what one SQLite process keeps in memory, several nodes share.
  { tag: "postgres/0200_shared_limits", covers: ["postgres/0200_shared_limits"], sql: sharedLimits },
];
