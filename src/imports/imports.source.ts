/**
 * What every source (one file each: imports.zendesk.ts, imports.csv.ts; Help Scout, Freshdesk and
 * IMAP later) gives the engine: records in Desk's terms, a page at a time, so memory stays bounded
 * whatever the account's size. The engine owns mappings, idempotency, progress and writes.
 */

export type Phase = "companies" | "people" | "tickets";

/**
 * A vendor's custom field in Desk's terms: each source maps its vendor's types (README's import
 * table) and a type Desk has no match for becomes text. `options` carry the vendor's stored value
 * (what a record's value names) and its label.
 */
export type SourceField = {
  sourceId: string;
  name: string;
  type: "text" | "long_text" | "number" | "date" | "checkbox" | "select" | "multi_select";
  options: Array<{ value: string; label: string }>;
};
/** A record's value of one field as the vendor gives it (null: no value). */
export type SourceFieldValue = { field: SourceField; value: unknown };

export type SourceCompany = {
  sourceId: string;
  updatedAt: string;
  /** The source's creation time: kept as the company's created_at when the import creates it. */
  createdAt?: string | null;
  name: string;
  domain: string | null;
  notes: string;
  fields?: SourceFieldValue[];
};

/** An end user becomes a contact; an agent is matched to a member by email (else only their name is kept). */
export type SourcePerson = {
  sourceId: string;
  updatedAt: string;
  /** The source's creation time: kept as the contact's created_at when the import creates it. */
  createdAt?: string | null;
  email: string | null;
  name: string;
  phone: string;
  agent: boolean;
  companySourceId: string | null;
  fields?: SourceFieldValue[];
};

/** `contentId` is set for a mail part the HTML names as `cid:` (IMAP). */
export type SourceAttachment = {
  sourceId: string;
  filename: string;
  url: string;
  inline: boolean;
  contentId?: string | null;
};

export type SourceMessage = {
  sourceId: string;
  /** Public replies are replies; private comments are internal notes. */
  public: boolean;
  authorSourceId: string | null;
  /** Untrusted HTML: sanitized when stored, like any message. */
  html: string;
  createdAt: string;
  attachments: SourceAttachment[];
  /** The mail's Message-ID (normalized: no brackets, lower case) when the source has one: live replies naming it thread. */
  messageId?: string | null;
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
  fields?: SourceFieldValue[];
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
  /**
   * An image a message's HTML names by URL, as an attachment to download, when the URL is one of
   * the account's own files (on the vendor's host); null for any other URL (never fetched).
   */
  inlineImage?(url: string): SourceAttachment | null;
}

export const MAX_MESSAGES_PER_TICKET = 10_000;

/** A source's failure the operator must fix (credentials, an unreachable host): the run fails with it. */
export class SourceError extends Error {}
