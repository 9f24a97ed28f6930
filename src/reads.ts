import { auditListRead } from "./audit/audit.public";
import { companyListRead, contactRowsRead } from "./contacts/contacts.public";
import { searchEverythingRead } from "./global-search/global-search.public";
import { overviewRead } from "./reports/reports.public";
import { semanticFullTextRead } from "./semantic-search/semantic-search.public";
import { ticketListRead, viewCountsRead } from "./tickets/tickets.public";

/**
 * The named reads the read pool's workers answer (src/db/read-pool.ts). A feature that sends a read
 * to the pool lists it here, or its worker answers "unknown read" and the call fails.
 */
export const reads = [
  searchEverythingRead,
  overviewRead,
  auditListRead,
  ticketListRead,
  viewCountsRead,
  contactRowsRead,
  companyListRead,
  semanticFullTextRead,
];
