import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { inboundReceipts } from "./inbound.table";

/** A receipt's claim: the mail's dedupe key in a mailbox and the outcome recorded with it. */
export type ReceiptClaim = { mailboxId: string; key: string; workspaceId: string; outcome: string; at: string };

/**
 * The receipts every received message reads and writes (one per mailbox and dedupe key), prepared
 * once per connection: building a drizzle query costs more than running it on this hot path; column
 * names come from the table definition. The SQL is portable: PostgreSQL's twin is the same text
 * with numbered parameters, its claim's `ON CONFLICT DO NOTHING RETURNING` answering no row when
 * another ingest holds the key.
 */
export interface InboundStatements {
  /** The outcome recorded for this mail in the mailbox before, if any. */
  receiptOutcome(mailboxId: string, key: string): Promise<string | undefined>;
  /** Claims the dedupe key; false when another ingest already holds it. */
  claimReceipt(claim: ReceiptClaim): Promise<boolean>;
  /** Records the ticket and message a claimed receipt led to. */
  recordReceiptTarget(mailboxId: string, key: string, ticketId: string, messageId: string): Promise<void>;
}

const r = {
  mailboxId: inboundReceipts.mailboxId.name,
  dedupeKey: inboundReceipts.dedupeKey.name,
  workspaceId: inboundReceipts.workspaceId.name,
  outcome: inboundReceipts.outcome.name,
  ticketId: inboundReceipts.ticketId.name,
  deskMessageId: inboundReceipts.deskMessageId.name,
  createdAt: inboundReceipts.createdAt.name,
};

const RECEIPT = `SELECT ${r.outcome} AS outcome FROM inbound_receipts WHERE ${r.mailboxId} = +? AND ${r.dedupeKey} = +?`;
const CLAIM = `INSERT INTO inbound_receipts (${r.mailboxId}, ${r.dedupeKey}, ${r.workspaceId}, ${r.outcome}, ${r.createdAt}) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING RETURNING ${r.dedupeKey} AS k`;
const RECORD_TARGET = `UPDATE inbound_receipts SET ${r.ticketId} = ?, ${r.deskMessageId} = ? WHERE ${r.mailboxId} = ? AND ${r.dedupeKey} = ?`;

const sqliteInboundStatements = (db: Queryable): InboundStatements => {
  const sqlite = sqliteOf(db);
  const receipt = sqlite.query<{ outcome: string }, [string, string]>(RECEIPT);
  const claim = sqlite.query<{ k: string }, [string, string, string, string, string]>(CLAIM);
  const recordTarget = sqlite.query<unknown, [string, string, string, string]>(RECORD_TARGET);
  return {
    receiptOutcome: async (mailboxId, key) => receipt.get(mailboxId, key)?.outcome,
    claimReceipt: async (c) => claim.all(c.mailboxId, c.key, c.workspaceId, c.outcome, c.at).length > 0,
    recordReceiptTarget: async (mailboxId, key, ticketId, messageId) => {
      recordTarget.run(ticketId, messageId, mailboxId, key);
    },
  };
};

/** PostgreSQL: the same texts; a claim another ingest holds returns no row (`ON CONFLICT DO NOTHING`). */
const postgresInboundStatements = (db: Queryable): InboundStatements => {
  const receipt = postgresQuery<{ outcome: string }, [string, string]>(db, RECEIPT);
  const claim = postgresQuery<{ k: string }, [string, string, string, string, string]>(db, CLAIM);
  const recordTarget = postgresQuery<unknown, [string, string, string, string]>(db, RECORD_TARGET);
  return {
    receiptOutcome: async (mailboxId, key) => (await receipt.get(mailboxId, key))?.outcome,
    claimReceipt: async (c) => (await claim.all(c.mailboxId, c.key, c.workspaceId, c.outcome, c.at)).length > 0,
    recordReceiptTarget: (mailboxId, key, ticketId, messageId) => recordTarget.run(ticketId, messageId, mailboxId, key),
  };
};

export const inboundStatements = dialectStatements<InboundStatements>({
  sqlite: sqliteInboundStatements,
  postgres: postgresInboundStatements,
});
