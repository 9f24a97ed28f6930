/** What other features may use of workspaces: reading one (name, settings, time zone). */
export { findWorkspace, workspaceRefOf, workspaceTimeZone } from "./workspaces.service";
