/** What other features may use of mailboxes: the look-ups, settings and health the inbound and outbound doors need. */
export { imapSettingsOf, smtpSettingsOf } from "./mailboxes.connection";
export {
  firstMailboxOf,
  isOwnMailboxAddress,
  mailboxById,
  mailboxesOf,
  mailboxCountOf,
  mailboxByAddress,
  mailboxExists,
  mailboxHealthOf,
  mailboxStatusByAddress,
  setImapPosition,
  type MailboxHealth,
} from "./mailboxes.lookup";
export type { MailboxRow } from "./mailboxes.present";
export { isTrustedSender } from "./mailboxes.rules";
export { findMailbox, recordMailboxHealth } from "./mailboxes.service";

/** Events others' consumers and hooks name (src/events/define.ts): their data is typed from these. */
export { mailboxCreated, mailboxUpdated } from "./mailboxes.events";
