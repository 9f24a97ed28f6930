/** What other features may use of workspaces: reading one (name, settings, time zone) and setting its pictures. */
export {
  findWorkspace,
  setWorkspaceImage,
  workspaceRefOf,
  workspaceTimeZone,
  workspaceSettingsOf,
  autoCloseDaysOfWorkspaces,
  DEFAULT_AUTO_CLOSE_DAYS,
  type WorkspaceImageSlot,
} from "./workspaces.service";
export { WorkspaceSchema } from "./workspaces.schemas";
