/** What other features may use of workspaces: reading one (name, settings, widget secret). */
export { findWorkspace, widgetSecretOf, workspaceRefOf, workspaceTimeZone } from "./workspaces.service";
