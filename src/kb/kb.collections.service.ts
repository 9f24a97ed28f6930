import { first, one, rowsOf } from "../db/store";
import { and, asc, eq, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import type { Clock } from "../lib/clock";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { kbCollectionCreated, kbCollectionDeleted, kbCollectionUpdated } from "./kb.events";
import { type KbCollectionRow, presentCollection } from "./kb.present";
import { freeSlug, slugFrom, slugTaken } from "./kb.slugs";
import { kbArticles, kbCollections } from "./kb.table";

type Deps = { db: Db; clock: Clock };
export type CollectionInput = { name?: string; slug?: string; description?: string; position?: number };

/** The workspace's collections by position, then name. */
export async function listCollections(db: Queryable, workspaceId: string): Promise<KbCollectionRow[]> {
  return await db
    .select()
    .from(kbCollections)
    .where(eq(kbCollections.workspaceId, workspaceId))
    .orderBy(asc(kbCollections.position), asc(kbCollections.name), asc(kbCollections.id));
}

export async function findCollection(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<KbCollectionRow | undefined> {
  return first(
    await db
      .select()
      .from(kbCollections)
      .where(and(eq(kbCollections.workspaceId, workspaceId), eq(kbCollections.id, id)))
      .limit(1),
  );
}

export async function requireCollection(db: Queryable, workspaceId: string, id: string): Promise<KbCollectionRow> {
  const row = await findCollection(db, workspaceId, id);
  if (!row) throw notFound("Collection");
  return row;
}

async function nextPosition(tx: Tx, workspaceId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | null }>(
    tx,
    sql`SELECT max(${kbCollections.position}) AS n FROM ${kbCollections} WHERE ${kbCollections.workspaceId} = ${workspaceId}`,
  );
  return row?.n === null || row?.n === undefined ? 0 : row.n + 1;
}

async function assertSlugFree(tx: Tx, workspaceId: string, slug: string, exceptId: string | null) {
  if (await slugTaken(tx, kbCollections, workspaceId, slug, exceptId))
    throw conflict("Another collection of this workspace has this slug.");
}

export async function createCollection(
  ctx: RequestContext,
  input: CollectionInput & { name: string },
  deps: Deps,
): Promise<KbCollectionRow> {
  return await transact(deps.db, async (tx) => {
    let slug: string;
    if (input.slug) {
      await assertSlugFree(tx, ctx.workspaceId, input.slug, null);
      slug = input.slug;
    } else slug = await freeSlug(tx, kbCollections, ctx.workspaceId, slugFrom(input.name, "collection"));
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(kbCollections)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          slug,
          description: input.description ?? "",
          position: input.position ?? (await nextPosition(tx, ctx.workspaceId)),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, kbCollectionCreated, {
      workspaceId: ctx.workspaceId,
      data: { kb_collection: presentCollection(row) },
    });
    return row;
  });
}

export async function updateCollection(ctx: RequestContext, id: string, input: CollectionInput, deps: Deps) {
  return await transact(deps.db, async (tx) => {
    await requireCollection(tx, ctx.workspaceId, id);
    const patch: Partial<KbCollectionRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.slug !== undefined) {
      await assertSlugFree(tx, ctx.workspaceId, input.slug, id);
      patch.slug = input.slug;
    }
    if (input.description !== undefined) patch.description = input.description;
    if (input.position !== undefined) patch.position = input.position;
    const row = one(
      await tx
        .update(kbCollections)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(and(eq(kbCollections.workspaceId, ctx.workspaceId), eq(kbCollections.id, id)))
        .returning(),
    );
    await appendEvent(tx, kbCollectionUpdated, {
      workspaceId: ctx.workspaceId,
      data: { kb_collection: presentCollection(row) },
    });
    return row;
  });
}

/** Deletes an empty collection; one holding articles answers 409 (move or delete them first: nothing is lost by accident). */
export async function deleteCollection(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    await requireCollection(tx, ctx.workspaceId, id);
    const article = first(
      await tx
        .select({ id: kbArticles.id })
        .from(kbArticles)
        .where(and(eq(kbArticles.workspaceId, ctx.workspaceId), eq(kbArticles.collectionId, id)))
        .limit(1),
    );
    if (article) throw conflict("The collection holds articles: move or delete them first.");
    await tx.delete(kbCollections).where(and(eq(kbCollections.workspaceId, ctx.workspaceId), eq(kbCollections.id, id)));
    await appendEvent(tx, kbCollectionDeleted, { workspaceId: ctx.workspaceId, data: { kb_collection_id: id } });
  });
}
