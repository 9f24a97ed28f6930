/**
 * The PostgreSQL builds of mailboxes.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./mailboxes.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { mailboxOAuthStatesTable, mailboxesTable } from "./mailboxes.definition";

export {
  INBOUND_KINDS,
  OUTBOUND_KINDS,
  type InboundKind,
  type MailboxConfig,
  type OAuthProvider,
  type OutboundKind,
} from "./mailboxes.definition";

export const mailboxes = pgTable("mailboxes", mailboxesTable);
export const mailboxOAuthStates = pgTable("mailbox_oauth_states", mailboxOAuthStatesTable);
