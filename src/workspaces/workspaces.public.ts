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
export { liveWorkspaceJoinSql, workspaceJoinSql } from "./workspaces.sql";
export { memberRoleLookup, membershipsOf, ssoOnlyWorkspacesLookup } from "./workspaces.memberships";
export type { Membership } from "./workspaces.statements";
export { widgetWorkspaceOf, workspaceOfWidgetKey, type WidgetWorkspace } from "./workspaces.widget";

/** Events others' consumers and hooks name (src/events/define.ts): their data is typed from these. */
export { workspaceUpdated } from "./workspaces.events";
