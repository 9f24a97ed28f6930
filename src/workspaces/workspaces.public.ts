/** What other features may use of workspaces: reading one (name, settings, time zone) and setting its pictures. */
export {
  findWorkspace,
  setWorkspaceImage,
  updateWorkspace,
  workspaceRefOf,
  workspaceTimeZone,
  type WorkspaceImageSlot,
} from "./workspaces.service";
export { WorkspaceSchema } from "./workspaces.schemas";
