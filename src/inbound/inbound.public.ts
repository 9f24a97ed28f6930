/** What other features may use of inbound mail. */
export { normalizeCidReferences, removeWorkspaceMail, workspaceMailFolder } from "./inbound.service";
