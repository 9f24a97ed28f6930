import { deskTable } from "../db/schema-kit";
import { mailboxOAuthStatesTable, mailboxesTable } from "./mailboxes.definition";

export {
  INBOUND_KINDS,
  OUTBOUND_KINDS,
  type InboundKind,
  type MailboxConfig,
  type OAuthProvider,
  type OutboundKind,
} from "./mailboxes.definition";

/** The builds of mailboxes.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const mailboxes = deskTable("mailboxes", mailboxesTable);
export const mailboxOAuthStates = deskTable("mailbox_oauth_states", mailboxOAuthStatesTable);
