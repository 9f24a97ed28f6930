import { aiResource } from "../ai/ai.queries";
import { companiesResource, contactsResource } from "../contacts/contacts.queries";
import { kbResource } from "../kb/kb.queries";
import { customFieldsResource } from "../lib/resources/custom-fields";
import { labelsResource } from "../lib/resources/labels";
import { macrosResource } from "../lib/resources/macros";
import { membersResource } from "../lib/resources/members";
import { savedRepliesResource } from "../lib/resources/saved-replies";
import { teamsResource } from "../lib/resources/teams";
import { viewsResource } from "../lib/resources/views";
import { workspaceResource } from "../lib/resources/workspace";
import type { Resource } from "../lib/realtime/invalidation";
import { mailboxesResource } from "../lib/resources/mailboxes";
import { automationsResource } from "../settings/automation/automations.queries";
import { webhooksResource } from "../settings/developers/developers.queries";
import { slaPoliciesResource } from "../settings/sla/sla.queries";
import { importsResource } from "../settings/import/imports.queries";
import { ticketsResource } from "../tickets/tickets.queries";
import { notificationsResource } from "../notifications/notifications.queries";

/**
 * Every resource the agent app caches, with the realtime events that make its queries stale: the
 * socket applies their union. A new resource adds its `*.queries.ts` module here.
 */
export const resources: readonly Resource[] = [
  ticketsResource,
  contactsResource,
  companiesResource,
  labelsResource,
  customFieldsResource,
  membersResource,
  teamsResource,
  viewsResource,
  savedRepliesResource,
  macrosResource,
  mailboxesResource,
  webhooksResource,
  slaPoliciesResource,
  automationsResource,
  workspaceResource,
  kbResource,
  notificationsResource,
  aiResource,
  importsResource,
];
