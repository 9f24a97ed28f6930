import type { LabelCreationSetting } from "../labels/labels.public";
import { workspaceStatements } from "./workspaces.statements";

/** The `label_creation` member of the workspace's settings, read when a record names a label that does not exist yet. */
export const labelCreationOf: LabelCreationSetting = async (db, workspaceId) => {
  const text = await workspaceStatements(db).settingsText(workspaceId);
  const settings = text !== undefined ? (JSON.parse(text) as { label_creation?: unknown } | null) : null;
  return typeof settings?.label_creation === "string" ? settings.label_creation : null;
};
