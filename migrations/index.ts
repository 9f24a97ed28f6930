// Written by scripts/generate-migrations.ts: every migration, embedded in the executable.
import type { Migration } from "../src/db/sqlite/migrate";
import m0 from "./0000_foundation.sql" with { type: "text" };
import m1 from "./0001_jobs.sql" with { type: "text" };
import m2 from "./0002_tickets.sql" with { type: "text" };
import m3 from "./0003_custom_field_indexes.sql" with { type: "text" };
import m4 from "./0004_tickets-status-spam-index.sql" with { type: "text" };
import m5 from "./0005_tickets-drop-counts-index.sql" with { type: "text" };
import m6 from "./0006_password-resets.sql" with { type: "text" };
import m7 from "./0007_message-delivery-via.sql" with { type: "text" };
import m8 from "./0008_event-consumers.sql" with { type: "text" };
import m9 from "./0009_notifications.sql" with { type: "text" };
import m10 from "./0010_backup-runs.sql" with { type: "text" };
import m11 from "./0011_sla.sql" with { type: "text" };
import m12 from "./0012_widget.sql" with { type: "text" };
import m13 from "./0013_automations.sql" with { type: "text" };
import m14 from "./0014_knowledge-base.sql" with { type: "text" };
import m15 from "./0015_notifications-assignment.sql" with { type: "text" };
import m16 from "./0016_ai.sql" with { type: "text" };
import m17 from "./0017_csat-triage-onboarding.sql" with { type: "text" };
import m18 from "./0018_passkeys-sso-attest-pictures.sql" with { type: "text" };
import m19 from "./0019_assistant.sql" with { type: "text" };
import m20 from "./0020_semantic-search-widget-answers.sql" with { type: "text" };
import m21 from "./0021_first_week_security_daily_work.sql" with { type: "text" };
import m22 from "./0022_languages.sql" with { type: "text" };
import m23 from "./0023_mail_ids_by_ticket.sql" with { type: "text" };
import m24 from "./0024_job_leases.sql" with { type: "text" };
import m25 from "./0025_consumer_cursors.sql" with { type: "text" };
import m26 from "./custom/0100_search_tickets.sql" with { type: "text" };
import m27 from "./custom/0101_search_contacts_fields.sql" with { type: "text" };
import m28 from "./custom/0102_ticket_counts.sql" with { type: "text" };
import m29 from "./custom/0103_search_staging.sql" with { type: "text" };
import m30 from "./custom/0104_ticket_counts_snoozed.sql" with { type: "text" };
import m31 from "./custom/0105_search_companies.sql" with { type: "text" };
import m32 from "./custom/0120_search_kb_articles.sql" with { type: "text" };
import m33 from "./custom/0130_ticket_times.sql" with { type: "text" };
import m34 from "./custom/0140_consumer_cursors.sql" with { type: "text" };
import m35 from "./custom/0150_semantic_seqs.sql" with { type: "text" };

export const migrations: Migration[] = [
  { tag: "0000_foundation", sql: m0 },
  { tag: "0001_jobs", sql: m1 },
  { tag: "0002_tickets", sql: m2 },
  { tag: "0003_custom_field_indexes", sql: m3 },
  { tag: "0004_tickets-status-spam-index", sql: m4 },
  { tag: "0005_tickets-drop-counts-index", sql: m5 },
  { tag: "0006_password-resets", sql: m6 },
  { tag: "0007_message-delivery-via", sql: m7 },
  { tag: "0008_event-consumers", sql: m8 },
  { tag: "0009_notifications", sql: m9 },
  { tag: "0010_backup-runs", sql: m10 },
  { tag: "0011_sla", sql: m11 },
  { tag: "0012_widget", sql: m12 },
  { tag: "0013_automations", sql: m13 },
  { tag: "0014_knowledge-base", sql: m14 },
  { tag: "0015_notifications-assignment", sql: m15 },
  { tag: "0016_ai", sql: m16 },
  { tag: "0017_csat-triage-onboarding", sql: m17 },
  { tag: "0018_passkeys-sso-attest-pictures", sql: m18 },
  { tag: "0019_assistant", sql: m19 },
  { tag: "0020_semantic-search-widget-answers", sql: m20 },
  { tag: "0021_first_week_security_daily_work", sql: m21 },
  { tag: "0022_languages", sql: m22 },
  { tag: "0023_mail_ids_by_ticket", sql: m23 },
  { tag: "0024_job_leases", sql: m24 },
  { tag: "0025_consumer_cursors", sql: m25 },
  { tag: "custom/0100_search_tickets", sql: m26 },
  { tag: "custom/0101_search_contacts_fields", sql: m27 },
  { tag: "custom/0102_ticket_counts", sql: m28 },
  { tag: "custom/0103_search_staging", sql: m29 },
  { tag: "custom/0104_ticket_counts_snoozed", sql: m30 },
  { tag: "custom/0105_search_companies", sql: m31 },
  { tag: "custom/0120_search_kb_articles", sql: m32 },
  { tag: "custom/0130_ticket_times", sql: m33 },
  { tag: "custom/0140_consumer_cursors", sql: m34 },
  { tag: "custom/0150_semantic_seqs", sql: m35 },
];
