import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Queryable } from "../db/database";
import { withTx } from "../db/tx";
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

export function findImport(db: Queryable, workspaceId: string, id: string): ImportRow {
  const row = db
    .select()
    .from(imports)
    .where(and(eq(imports.workspaceId, workspaceId), eq(imports.id, id)))
    .get();
  if (!row) throw notFound("Import");
  return row;
}

export function listImports(db: Queryable, ctx: RequestContext, query: { limit: number; cursor?: string }) {
  const after = decodeCursor(query.cursor, 2);
  const rows = db
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
    .limit(query.limit + 1)
    .all();
  return pageOf(rows, query.limit, presentImport, (r) => [r.createdAt, r.id]);
}

/**
 * Starts a run of `source` for `account`. A re-run starts from the cursors the newest finished run
 * of the same account left (one that failed or was canceled too: a cursor is committed only after
 * its page), so the source is asked only for what changed since, or for what is still left. One run per
 * account at a time (409 otherwise): two would race for the same records.
 */
export function createImport(
  ctx: RequestContext,
  input: { source: ImportSourceName; account: string; options: unknown; id?: string },
  deps: Pick<Deps, "db" | "clock" | "secrets">,
): ImportRow {
  const now = deps.clock.now().toISOString();
  const sealed = deps.secrets.seal(JSON.stringify(input.options));
  return withTx(deps.db, (tx) => {
    const scope = and(
      eq(imports.workspaceId, ctx.workspaceId),
      eq(imports.source, input.source),
      eq(imports.account, input.account),
    );
    const active = tx
      .select({ id: imports.id })
      .from(imports)
      .where(and(scope, inArray(imports.status, ["queued", "running"])))
      .get();
    if (active) throw conflict("An import of this account is already running: wait for it or cancel it.");
    const previous = tx
      .select({ state: imports.state })
      .from(imports)
      .where(and(scope, inArray(imports.status, ["succeeded", "failed", "canceled"])))
      .orderBy(desc(imports.createdAt))
      .get();
    const row = tx
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
      .returning()
      .get();
    enqueue(tx, importRunJob, { import_id: row.id }, { workspaceId: ctx.workspaceId, uniqueKey: `import:${row.id}` });
    appendEvent(tx, importCreated, { workspaceId: ctx.workspaceId, data: { import: presentImport(row) } });
    return row;
  });
}

/** Stops a queued or running import at its next page; its credentials are dropped at once. */
export function cancelImport(ctx: RequestContext, id: string, deps: Pick<Deps, "db" | "clock">): ImportRow {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    const row = findImport(tx, ctx.workspaceId, id);
    if (row.status !== "queued" && row.status !== "running") return row;
    const canceled = tx
      .update(imports)
      .set({ status: "canceled", finishedAt: now, optionsSealed: null, leaseUntil: null, updatedAt: now })
      .where(eq(imports.id, row.id))
      .returning()
      .get()!;
    emitImportUpdated(tx, canceled);
    return canceled;
  });
}
