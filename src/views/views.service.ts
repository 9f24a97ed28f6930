import { first, one } from "../db/store";
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { actorUserId, roleAtLeast, type RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { sqlParts } from "../db/dialect";
import { transact } from "../db/tx";
import { viewCreated, viewDeleted, viewUpdated } from "./views.events";
import { appendEvent } from "../events/append";
import { DeskError, forbidden, invalidAt, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { fieldFilterSql } from "../custom-fields/custom-fields.public";
import { labelNameProblem, normalizeLabelName } from "../labels/labels.public";
import { teamsAmong } from "../teams/teams.public";
import { isMember } from "../members/members.public";
import { mailboxExists } from "../mailboxes/mailboxes.public";
import { visibleViewRow, visibleViewRows } from "./views.statements";
import { views, type ViewFilters } from "./views.table";
import type { Clock } from "../lib/clock";

export type { ViewFilters } from "./views.table";
export type ViewRow = typeof views.$inferSelect;
type Deps = { db: Db; clock: Clock };

export const presentView = (
  row: Pick<ViewRow, "id" | "name" | "shared" | "position" | "filters" | "createdAt" | "updatedAt">,
) => ({
  id: row.id,
  name: row.name,
  shared: row.shared,
  position: row.position,
  filters: row.filters ?? {},
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
export type ViewJson = ReturnType<typeof presentView>;

/** The person whose personal views the caller sees (none for an API key). */
const viewerOf = (ctx: RequestContext): string | null => (ctx.actor.type === "user" ? ctx.actor.userId : null);

/** Shared views, plus a person's own personal ones (an API key sees shared views only). */
function visibleTo(ctx: RequestContext): SQL {
  const own = viewerOf(ctx);
  return own ? or(eq(views.shared, true), eq(views.userId, own))! : eq(views.shared, true);
}

/** A view the caller may use; 404 for another person's personal view, exactly like a missing one. */
export async function findVisibleView(db: Queryable, ctx: RequestContext, viewId: string): Promise<ViewJson> {
  const row = await visibleViewRow(db, ctx.workspaceId, viewerOf(ctx), viewId);
  if (!row) throw notFound("View");
  return presentView(row);
}

/** Shared views, plus a person's own personal ones (an API key sees shared views only). */
export const listVisibleViews = async (db: Queryable, ctx: RequestContext): Promise<ViewJson[]> =>
  (await visibleViewRows(db, ctx.workspaceId, viewerOf(ctx))).map(presentView);

/** Checks that the ids a view names belong to this workspace and its field filters are valid. */
async function checkFilters(tx: Tx, ctx: RequestContext, filters: ViewFilters): Promise<ViewFilters> {
  const out: ViewFilters = { ...filters };
  if (filters.assignee !== undefined && filters.assignee !== "me" && filters.assignee !== "none") {
    if (!(await isMember(tx, ctx.workspaceId, filters.assignee)))
      throw invalidAt("body.filters.assignee", "assignee is me, none or a member's user id");
  }
  if (filters.team_id !== undefined) {
    if (!(await teamsAmong(tx, ctx.workspaceId, [filters.team_id])).has(filters.team_id))
      throw invalidAt("body.filters.team_id", "no team of this workspace has this id");
  }
  if (filters.mailbox_id !== undefined) {
    if (!(await mailboxExists(tx, ctx.workspaceId, filters.mailbox_id)))
      throw invalidAt("body.filters.mailbox_id", "no mailbox of this workspace has this id");
  }
  if (filters.tag !== undefined) {
    out.tag = normalizeLabelName(filters.tag);
    const problem = labelNameProblem(out.tag);
    if (problem) throw invalidAt("body.filters.tag", problem);
  }
  for (const [index, filter] of (filters.fields ?? []).entries()) {
    try {
      await fieldFilterSql(ctx, "ticket", filter, views.id, tx);
    } catch (error) {
      if (error instanceof DeskError && error.errors?.[0])
        throw invalidAt(`body.filters.fields.${index}`, error.errors[0].message);
      throw error;
    }
  }
  return out;
}

function mayChange(ctx: RequestContext, row: ViewRow): boolean {
  if (row.shared) return roleAtLeast(ctx.role, "admin");
  return ctx.actor.type === "user" && row.userId === ctx.actor.userId;
}

export type ViewInput = { name?: string; shared?: boolean; position?: number; filters?: ViewFilters };

export async function createView(
  ctx: RequestContext,
  input: ViewInput & { name: string },
  deps: Deps,
): Promise<ViewRow> {
  const shared = input.shared ?? ctx.actor.type !== "user";
  if (shared && !roleAtLeast(ctx.role, "admin")) throw forbidden("Only admins create shared views.");
  if (!shared && ctx.actor.type !== "user")
    throw invalidAt("body.shared", "an API key has no personal views; create a shared view");
  return await transact(deps.db, async (tx) => {
    const filters = await checkFilters(tx, ctx, input.filters ?? {});
    const position =
      input.position ??
      first(
        await tx
          .select({ next: sql<number>`coalesce(max(${views.position}) + 1, 0)` })
          .from(views)
          .where(eq(views.workspaceId, ctx.workspaceId))
          .limit(1),
      )?.next ??
      0;
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(views)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          userId: actorUserId(ctx),
          name: input.name,
          shared,
          position,
          filters,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await appendEvent(tx, viewCreated, { workspaceId: ctx.workspaceId, data: { view: presentView(row) } });
    return row;
  });
}

async function findForChange(tx: Tx, ctx: RequestContext, id: string): Promise<ViewRow> {
  const row = first(
    await tx
      .select()
      .from(views)
      .where(and(eq(views.workspaceId, ctx.workspaceId), eq(views.id, id), visibleTo(ctx)))
      .limit(1),
  );
  if (!row) throw notFound("View");
  if (!mayChange(ctx, row)) throw forbidden("Only admins change shared views.");
  return row;
}

export async function updateView(ctx: RequestContext, id: string, input: ViewInput, deps: Deps): Promise<ViewRow> {
  return await transact(deps.db, async (tx) => {
    const before = await findForChange(tx, ctx, id);
    if (input.shared === true && !before.shared && !roleAtLeast(ctx.role, "admin"))
      throw forbidden("Only admins share views.");
    if (input.shared === false && before.shared && !before.userId)
      throw invalidAt("body.shared", "this view has no owner to keep it personal");
    const patch: Partial<ViewRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.shared !== undefined) patch.shared = input.shared;
    if (input.position !== undefined) patch.position = input.position;
    if (input.filters !== undefined) patch.filters = await checkFilters(tx, ctx, input.filters);
    const row = one(
      await tx
        .update(views)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(views.id, id))
        .returning(),
    );
    await appendEvent(tx, viewUpdated, { workspaceId: ctx.workspaceId, data: { view: presentView(row) } });
    return row;
  });
}

export async function deleteView(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    await findForChange(tx, ctx, id);
    await tx.delete(views).where(eq(views.id, id));
    await appendEvent(tx, viewDeleted, { workspaceId: ctx.workspaceId, data: { view_id: id } });
  });
}

/**
 * Rewrites the `tag` filter of every view naming a label (rename or merge of a label). Views
 * change as a side effect of the label change, each with its own view.updated event.
 */
export async function renameTagInViews(
  tx: Tx,
  workspaceId: string,
  fromKey: string,
  toName: string,
  now: Date,
): Promise<void> {
  const rows = await tx
    .select()
    .from(views)
    .where(
      and(eq(views.workspaceId, workspaceId), sql`lower(${sqlParts(tx).jsonText(views.filters, "tag")}) IS NOT NULL`),
    );
  for (const row of rows) {
    const tag = row.filters.tag;
    if (tag === undefined || tag.toLocaleLowerCase("en-US") !== fromKey || tag === toName) continue;
    const updated = one(
      await tx
        .update(views)
        .set({ filters: { ...row.filters, tag: toName }, updatedAt: now.toISOString() })
        .where(eq(views.id, row.id))
        .returning(),
    );
    await appendEvent(tx, viewUpdated, { workspaceId, data: { view: presentView(updated) } });
  }
}
