import { sqliteTable } from "../db/schema-kit";
import { mailboxOAuthStatesTable, mailboxesTable } from "./mailboxes.definition";

export {
  INBOUND_KINDS,
  OUTBOUND_KINDS,
  type InboundKind,
  type MailboxConfig,
  type OAuthProvider,
  type OutboundKind,
} from "./mailboxes.definition";

/** The SQLite builds of mailboxes.definition.ts: what every query, type and migration uses. */
export const mailboxes = sqliteTable("mailboxes", mailboxesTable);
export const mailboxOAuthStates = sqliteTable("mailbox_oauth_states", mailboxOAuthStatesTable);
