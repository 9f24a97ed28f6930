import type { Queryable } from "../db/database";
import { definePort } from "../lib/ports";

/** The workspace's `label_creation` setting ("admins" restricts it), null when unset or not a string. */
export type LabelCreationSetting = (db: Queryable, workspaceId: string) => (string | null) | Promise<string | null>;

/** Who may create a label by naming it on a record: a workspace setting, which workspaces (above labels) keep. */
export const labelCreationSetting = definePort<LabelCreationSetting>("labels.labelCreationSetting");
