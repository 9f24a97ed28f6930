import { first } from "../db/store";
import { and, eq, isNull } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { presentWorkspace } from "./workspaces.present";
import { workspaces } from "./workspaces.table";

/** What the chat widget reads of a live workspace: its public face and the sealed widget secret. */
export type WidgetWorkspace = ReturnType<typeof presentWorkspace> & { widgetSecretSealed: string | null };

const widgetWorkspace = (row: typeof workspaces.$inferSelect | undefined): WidgetWorkspace | null =>
  row ? { ...presentWorkspace(row), widgetSecretSealed: row.widgetSecretSealed } : null;

/** The live workspace whose public widget key this is, or null. */
export async function workspaceOfWidgetKey(db: Queryable, key: string): Promise<WidgetWorkspace | null> {
  return widgetWorkspace(
    first(
      await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.widgetKey, key), isNull(workspaces.deletedAt)))
        .limit(1),
    ),
  );
}

/** The live workspace by id (a visitor session's), or null once it is deleted. */
export async function widgetWorkspaceOf(db: Queryable, workspaceId: string): Promise<WidgetWorkspace | null> {
  return widgetWorkspace(
    first(
      await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.id, workspaceId), isNull(workspaces.deletedAt)))
        .limit(1),
    ),
  );
}
