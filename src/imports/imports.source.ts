/**
 * What every source (one file each: imports.zendesk.ts, imports.csv.ts; Help Scout, Freshdesk and
 * IMAP later) gives the engine: records in Desk's terms, a page at a time, so memory stays bounded
 * whatever the account's size. The engine owns mappings, idempotency, progress and writes.
 */

export type Phase = "companies" | "people" | "tickets";

export type SourceCompany = { sourceId: string; updatedAt: string; name: string; domain: string | null; notes: string };

/** An end user becomes a contact; an agent is matched to a member by email (else only their name is kept). */
export type SourcePerson = {
  sourceId: string;
  updatedAt: string;
  email: string | null;
  name: string;
  phone: string;
  agent: boolean;
  companySourceId: string | null;
};

export type SourceAttachment = { sourceId: string; filename: string; url: string; inline: boolean };

export type SourceMessage = {
  sourceId: string;
  /** Public replies are replies; private comments are internal notes. */
  public: boolean;
  authorSourceId: string | null;
  /** Untrusted HTML: sanitized when stored, like any message. */
  html: string;
  createdAt: string;
  attachments: SourceAttachment[];
};

export type SourceTicket = {
  sourceId: string;
  updatedAt: string;
  subject: string;
  /** Already in Desk's terms (each source documents its table); null skips the record (deleted at the source). */
  status: "open" | "pending" | "on_hold" | "solved" | "closed" | null;
  priority: "low" | "normal" | "high" | "urgent";
  tags: string[];
  requesterSourceId: string | null;
  assigneeSourceId: string | null;
  createdAt: string;
  solvedAt: string | null;
};

export type SourcePage = {
  companies?: SourceCompany[];
  people?: SourcePerson[];
  tickets?: SourceTicket[];
  /** Where the next page starts; kept after the last page so a re-run asks only for what changed since. */
  cursor: string | null;
  done: boolean;
};

export interface ImportSource {
  readonly phases: readonly Phase[];
  /** Checks the credentials and answers the source's own totals per phase. */
  totals(signal: AbortSignal): Promise<Partial<Record<Phase, number>>>;
  page(phase: Phase, cursor: string | null, signal: AbortSignal): Promise<SourcePage>;
  /** Every message of a ticket, oldest first (at most MAX_MESSAGES_PER_TICKET). */
  messages(ticket: SourceTicket, signal: AbortSignal): Promise<SourceMessage[]>;
  /** An attachment's bytes (at most the attachment limit). */
  download(attachment: SourceAttachment, signal: AbortSignal): Promise<Uint8Array>;
}

export const MAX_MESSAGES_PER_TICKET = 10_000;

/** A source's failure the operator must fix (credentials, an unreachable host): the run fails with it. */
export class SourceError extends Error {}
