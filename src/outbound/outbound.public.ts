/**
 * What other features may use of outbound mail: the Message-ID map that threads replies (inbound
 * records what it receives and reads it back), the delivery reports' look-up, and the auto-reply.
 */
export { outboundMessageId, rememberMessageId, sentDeskMessageIds, ticketsOfMessageIds } from "./outbound.threads";
export { autoReplyJob } from "./outbound.mail";
export { customerMailboxOf, sendCustomerMail, type CustomerMail } from "./outbound.customer-mail";
export { localeForContact, workspaceSettingsReader, type WorkspaceSettingsReader } from "./outbound.locale";
export {
  conversationKeyOf,
  isThreadIndexReply,
  rememberConversation,
  ticketOfConversation,
} from "./outbound.conversations";
