import { describe, expect, test } from "bun:test";
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { ticketFollowersTable } from "../tickets/followers.definition";
import { messagesTable } from "../tickets/messages.definition";
import { activitiesTable, ticketsTable } from "../tickets/tickets.definition";
import { customFieldsTable, fieldValuesTable } from "../custom-fields/fields.definition";
import { eventConsumersTable, eventSeqsTable, eventsTable } from "../events/events.definition";
import { jobsTable } from "../jobs/jobs.definition";
import {
  semanticDirtyTable,
  semanticSeqsTable,
  semanticStateTable,
  semanticVectorsTable,
} from "../semantic-search/semantic.definition";
import { triageSettingsTable } from "../triage/triage.definition";
import { attachmentsTable } from "../attachments/attachments.definition";
import { companiesTable } from "../contacts/companies.definition";
import { contactEmailsTable, contactsTable } from "../contacts/contacts.definition";
import { savedRepliesTable } from "../saved-replies/saved-replies.definition";
import { businessHoursTable, slaClocksTable, slaPoliciesTable } from "../sla/sla.definition";
import { webhookDeliveriesTable, webhooksTable } from "../webhooks/webhooks.definition";
import { aiQuietTicketsTable, aiSettingsTable, aiUsageTable } from "../ai/ai.definition";
import { apiKeysTable } from "../api-keys/api-keys.definition";
import { assignmentPointersTable, assignmentSettingsTable } from "../assignment/assignment.definition";
import { assistantActionsTable, assistantSessionsTable } from "../assistant/assistant.definition";
import { auditLogsTable } from "../audit/audit.definition";
import { automationRunsTable, automationsTable, automationTimeMarksTable } from "../automations/automations.definition";
import { backupRunsTable } from "../backups/backups.definition";
import { csatRequestsTable } from "../csat/csat.definition";

/**
 * Every table converted to the kit answers the same row types on both dialects, so code written
 * against the SQLite build reads and writes PostgreSQL rows unchanged (booleans, JSON, bigint read as
 * number, generated columns left out of inserts on both).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Build = { $inferSelect: unknown; $inferInsert: unknown };
type SameRows<T extends { sqlite: Build; pg: Build }> =
  Same<T["sqlite"]["$inferSelect"], T["pg"]["$inferSelect"]> extends true
    ? Same<T["sqlite"]["$inferInsert"], T["pg"]["$inferInsert"]>
    : false;

const tables = {
  ticketFollowersTable: true satisfies SameRows<typeof ticketFollowersTable>,
  messagesTable: true satisfies SameRows<typeof messagesTable>,
  ticketsTable: true satisfies SameRows<typeof ticketsTable>,
  activitiesTable: true satisfies SameRows<typeof activitiesTable>,
  customFieldsTable: true satisfies SameRows<typeof customFieldsTable>,
  fieldValuesTable: true satisfies SameRows<typeof fieldValuesTable>,
  eventsTable: true satisfies SameRows<typeof eventsTable>,
  eventSeqsTable: true satisfies SameRows<typeof eventSeqsTable>,
  eventConsumersTable: true satisfies SameRows<typeof eventConsumersTable>,
  jobsTable: true satisfies SameRows<typeof jobsTable>,
  semanticVectorsTable: true satisfies SameRows<typeof semanticVectorsTable>,
  semanticSeqsTable: true satisfies SameRows<typeof semanticSeqsTable>,
  semanticDirtyTable: true satisfies SameRows<typeof semanticDirtyTable>,
  semanticStateTable: true satisfies SameRows<typeof semanticStateTable>,
  triageSettingsTable: true satisfies SameRows<typeof triageSettingsTable>,
  attachmentsTable: true satisfies SameRows<typeof attachmentsTable>,
  companiesTable: true satisfies SameRows<typeof companiesTable>,
  contactsTable: true satisfies SameRows<typeof contactsTable>,
  contactEmailsTable: true satisfies SameRows<typeof contactEmailsTable>,
  savedRepliesTable: true satisfies SameRows<typeof savedRepliesTable>,
  slaPoliciesTable: true satisfies SameRows<typeof slaPoliciesTable>,
  slaClocksTable: true satisfies SameRows<typeof slaClocksTable>,
  businessHoursTable: true satisfies SameRows<typeof businessHoursTable>,
  webhooksTable: true satisfies SameRows<typeof webhooksTable>,
  webhookDeliveriesTable: true satisfies SameRows<typeof webhookDeliveriesTable>,
  aiSettingsTable: true satisfies SameRows<typeof aiSettingsTable>,
  aiUsageTable: true satisfies SameRows<typeof aiUsageTable>,
  aiQuietTicketsTable: true satisfies SameRows<typeof aiQuietTicketsTable>,
  apiKeysTable: true satisfies SameRows<typeof apiKeysTable>,
  assignmentSettingsTable: true satisfies SameRows<typeof assignmentSettingsTable>,
  assignmentPointersTable: true satisfies SameRows<typeof assignmentPointersTable>,
  assistantSessionsTable: true satisfies SameRows<typeof assistantSessionsTable>,
  assistantActionsTable: true satisfies SameRows<typeof assistantActionsTable>,
  auditLogsTable: true satisfies SameRows<typeof auditLogsTable>,
  automationsTable: true satisfies SameRows<typeof automationsTable>,
  automationRunsTable: true satisfies SameRows<typeof automationRunsTable>,
  automationTimeMarksTable: true satisfies SameRows<typeof automationTimeMarksTable>,
  backupRunsTable: true satisfies SameRows<typeof backupRunsTable>,
  csatRequestsTable: true satisfies SameRows<typeof csatRequestsTable>,
};
const definitions = [
  ticketFollowersTable,
  messagesTable,
  ticketsTable,
  activitiesTable,
  customFieldsTable,
  fieldValuesTable,
  eventsTable,
  eventSeqsTable,
  eventConsumersTable,
  jobsTable,
  semanticVectorsTable,
  semanticSeqsTable,
  semanticDirtyTable,
  semanticStateTable,
  triageSettingsTable,
  attachmentsTable,
  companiesTable,
  contactsTable,
  contactEmailsTable,
  savedRepliesTable,
  slaPoliciesTable,
  slaClocksTable,
  businessHoursTable,
  webhooksTable,
  webhookDeliveriesTable,
  aiSettingsTable,
  aiUsageTable,
  aiQuietTicketsTable,
  apiKeysTable,
  assignmentSettingsTable,
  assignmentPointersTable,
  assistantSessionsTable,
  assistantActionsTable,
  auditLogsTable,
  automationsTable,
  automationRunsTable,
  automationTimeMarksTable,
  backupRunsTable,
  csatRequestsTable,
];

describe("schema kit: the converted tables", () => {
  test("rows have the same type on SQLite and PostgreSQL", () => {
    expect(Object.values(tables).every(Boolean)).toBe(true);
  });

  test("each builds for both dialects with the same columns, indexes and keys", () => {
    for (const def of definitions) {
      const lite = getTableConfig(def.sqlite);
      const pg = pgConfig(def.pg);
      expect([pg.name, pg.columns.map((c) => c.name)]).toEqual([lite.name, lite.columns.map((c) => c.name)]);
      expect(pg.indexes.map((i) => [i.config.name, i.config.unique, i.config.columns.length])).toEqual(
        lite.indexes.map((i) => [i.config.name, i.config.unique, i.config.columns.length]),
      );
      expect(pg.primaryKeys.map((k) => k.columns.map((c) => c.name))).toEqual(
        lite.primaryKeys.map((k) => k.columns.map((c) => c.name)),
      );
      expect(pg.foreignKeys.map((k) => k.reference().foreignTable)).toHaveLength(lite.foreignKeys.length);
    }
  });
});
