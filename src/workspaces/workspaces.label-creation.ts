import { preparedFor } from "../db/prepared";
import type { LabelCreationSetting } from "../labels/labels.public";

const statements = preparedFor((sqlite) => ({
  settings: sqlite.query<{ settings: string }, [string]>("SELECT settings FROM workspaces WHERE id = +?"),
}));

/** The `label_creation` member of the workspace's settings, read when a record names a label that does not exist yet. */
export const labelCreationOf: LabelCreationSetting = async (db, workspaceId) => {
  const row = statements(db).settings.get(workspaceId);
  const settings = row ? (JSON.parse(row.settings) as { label_creation?: unknown } | null) : null;
  return typeof settings?.label_creation === "string" ? settings.label_creation : null;
};
