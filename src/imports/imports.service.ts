import { first, one } from "../db/store";
import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { appendEvent } from "../events/append";
import { enqueue } from "../jobs/enqueue";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { importCreated } from "./imports.events";
import { importRunJob } from "./imports.jobs";
import { emitImportUpdated, presentImport } from "./imports.present";
import { imports, type ImportCounts, type ImportRow, type ImportSourceName } from "./imports.table";

export const EMPTY_COUNTS: ImportCounts = {
  tickets: 0,
  messages: 0,
  contacts: 0,
  companies: 0,
  attachments: 0,
  users: 0,
  skipped: 0,
  failed: 0,
};

export async function findImport(db: Queryable, workspaceId: string, id: string): Promise<ImportRow> {
  const row = first(
    await db
      .select()
      .from(imports)
      .where(and(eq(imports.workspaceId, workspaceId), eq(imports.id, id)))
      .limit(1),
  );
  if (!row) throw notFound("Import");
  return row;
}

export async function listImports(db: Queryable, ctx: RequestContext, query: { limit: number; cursor?: string }) {
  const after = decodeCursor(query.cursor, 2);
  const rows = await db
    .select()
    .from(imports)
    .where(
      and(
        eq(imports.workspaceId, ctx.workspaceId),
        after
          ? or(
              lt(imports.createdAt, String(after[0])),
              and(eq(imports.createdAt, String(after[0])), lt(imports.id, String(after[1]))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(query.limit + 1);
  return await pageOf(rows, query.limit, presentImport, (r) => [r.createdAt, r.id]);
}

/**
 * Starts a run of `source` for `account`. A re-run starts from the cursors the newest finished run
 * of the same account left (one that failed or was canceled too: a cursor is committed only after
 * its page), so the source is asked only for what changed since, or for what is still left. One run per
 * account at a time (409 otherwise): two would race for the same records.
 */
export async function createImport(
  ctx: RequestContext,
  input: { source: ImportSourceName; account: string; options: unknown; id?: string },
  deps: Pick<Deps, "db" | "clock" | "secrets">,
): Promise<ImportRow> {
  const now = deps.clock.now().toISOString();
  const sealed = deps.secrets.seal(JSON.stringify(input.options));
  return await transact(deps.db, async (tx) => {
    const scope = and(
      eq(imports.workspaceId, ctx.workspaceId),
      eq(imports.source, input.source),
      eq(imports.account, input.account),
    );
    const active = first(
      await tx
        .select({ id: imports.id })
        .from(imports)
        .where(and(scope, inArray(imports.status, ["queued", "running"])))
        .limit(1),
    );
    if (active) throw conflict("An import of this account is already running: wait for it or cancel it.");
    const previous = first(
      await tx
        .select({ state: imports.state })
        .from(imports)
        .where(and(scope, inArray(imports.status, ["succeeded", "failed", "canceled"])))
        .orderBy(desc(imports.createdAt))
        .limit(1),
    );
    const row = one(
      await tx
        .insert(imports)
        .values({
          id: input.id ?? newId(),
          workspaceId: ctx.workspaceId,
          source: input.source,
          account: input.account,
          status: "queued",
          phase: "queued",
          counts: EMPTY_COUNTS,
          errors: [],
          optionsSealed: sealed,
          state: { phase: "", cursors: previous?.state.cursors ?? {}, totals: {} },
          createdBy: actorUserId(ctx),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await enqueue(
      tx,
      importRunJob,
      { import_id: row.id },
      { workspaceId: ctx.workspaceId, uniqueKey: `import:${row.id}` },
    );
    await appendEvent(tx, importCreated, { workspaceId: ctx.workspaceId, data: { import: presentImport(row) } });
    return row;
  });
}

/** Stops a queued or running import at its next page; its credentials are dropped at once. */
export async function cancelImport(
  ctx: RequestContext,
  id: string,
  deps: Pick<Deps, "db" | "clock">,
): Promise<ImportRow> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const row = await findImport(tx, ctx.workspaceId, id);
    if (row.status !== "queued" && row.status !== "running") return row;
    const canceled = one(
      await tx
        .update(imports)
        .set({ status: "canceled", finishedAt: now, optionsSealed: null, leaseUntil: null, updatedAt: now })
        .where(eq(imports.id, row.id))
        .returning(),
    )!;
    await emitImportUpdated(tx, canceled);
    return canceled;
  });
}
