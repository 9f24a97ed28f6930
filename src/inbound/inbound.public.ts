/** What other features may use of inbound mail. */
export { normalizeCidReferences, workspaceMailFolder } from "./inbound.service";
