/** What other features may use of mailboxes: the lookups and settings the inbound and outbound doors need. */
export {
  isOwnMailboxAddress,
  mailboxAtAddress,
  mailboxById,
  mailboxStatusAtAddress,
  recordImapPosition,
  sendingMailboxOf,
} from "./mailboxes.lookups";
export { imapSettingsOf, smtpSettingsOf } from "./mailboxes.connection";
export { isTrustedSender } from "./mailboxes.rules";
export { MAILBOX_SYNC_JOB, recordMailboxHealth, scheduleMailboxSync } from "./mailboxes.service";
export type { MailboxRow } from "./mailboxes.present";
