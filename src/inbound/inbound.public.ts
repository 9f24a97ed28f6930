/** What other features may use of inbound mail. */
export { workspaceMailFolder } from "./inbound.service";
