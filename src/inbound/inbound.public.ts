/** What other features may use of inbound mail: where a workspace's stored originals live (its purge removes them). */
export { workspaceMailFolder } from "./inbound.service";
