import { first } from "../db/store";
import { and, eq, like, or } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { slugify } from "../lib/slug";
import type { kbArticles, kbCollections } from "./kb.table";

const MAX_DERIVED = 80;

/** A slug from a name or title (src/lib/slug.ts), or `fallback` when nothing of it is a letter or digit. */
export const slugFrom = (text: string, fallback: string): string => slugify(text, "-", MAX_DERIVED) || fallback;

type SlugTable = typeof kbCollections | typeof kbArticles;

/** Whether `slug` is taken in the workspace by a row other than `exceptId`. */
export async function slugTaken(
  db: Queryable,
  table: SlugTable,
  workspaceId: string,
  slug: string,
  exceptId: string | null,
): Promise<boolean> {
  const row = first(
    await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.workspaceId, workspaceId), eq(table.slug, slug)))
      .limit(1),
  );
  return !!row && row.id !== exceptId;
}

/** The first free slug of `base`, `base-2`, `base-3`, … in the workspace (one query for all candidates). */
export async function freeSlug(db: Queryable, table: SlugTable, workspaceId: string, base: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ slug: table.slug })
        .from(table)
        .where(and(eq(table.workspaceId, workspaceId), or(eq(table.slug, base), like(table.slug, `${base}-%`))))
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
