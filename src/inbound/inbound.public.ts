/** What other features may use of inbound mail. */
export { normalizeCidReferences, removeWorkspaceMail } from "./inbound.service";
