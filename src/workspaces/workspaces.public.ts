/** What other features may use of workspaces: reading one (name, settings, time zone) and setting its pictures. */
export {
  findWorkspace,
  findWorkspaceBySlug,
  setWorkspaceImage,
  updateWorkspace,
  workspaceRefOf,
  workspaceTimeZone,
  workspaceSettingsOf,
  autoCloseDaysOfWorkspaces,
  DEFAULT_AUTO_CLOSE_DAYS,
  type WorkspaceImageSlot,
} from "./workspaces.service";
export { WorkspaceSchema } from "./workspaces.schemas";
export { widgetWorkspaceOf, workspaceOfWidgetKey, type WidgetWorkspace } from "./workspaces.widget";
