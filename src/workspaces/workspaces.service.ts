import { first, one, rowsOf } from "../db/store";
import { purgeWorkspaceJob } from "./workspaces.jobs";
import { and, eq, isNull, sql } from "drizzle-orm";
import { signInOf } from "../identity/identity.public";
import type { RequestContext, UserContext } from "../auth/context";
import { signalAccessEnded } from "../auth/session-signals";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable, Tx } from "../db/database";
import { sqlParts } from "../db/dialect";
import { transact } from "../db/tx";
import { workspaceUpdated } from "./workspaces.events";
import { appendEvent } from "../events/append";
import { DeskError, invalidAt, notFound } from "../lib/errors";
import { enqueue } from "../jobs/enqueue";
import type { Clock } from "../lib/clock";
import type { Ports } from "../lib/ports";
import { newId, randomToken } from "../lib/ids";
import { slugify } from "../lib/slug";
import type { SecretBox } from "../lib/crypto";
import { setMemberRole } from "../members/members.public";
import { insertOwnerMembership, memberIdsOfWorkspace, memberRoleOf } from "../members/members.public";
import { workspaces } from "./workspaces.table";
import { type IMAGE_SLOTS, presentWorkspace } from "./workspaces.present";
import type { WorkspaceSettingsPatchInput } from "./workspaces.schemas";

export type CreateWorkspaceInput = { name: string; slug?: string };

async function freeSlug(db: Db, wanted: string): Promise<string> {
  const base = slugify(wanted) || "workspace";
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}-${n + 1}`;
    const taken = first(
      await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, candidate)).limit(1),
    );
    if (!taken) return candidate;
  }
}

/** Creates a workspace with the caller as its owner. */
export async function createWorkspace(
  user: Pick<UserContext, "userId">,
  input: CreateWorkspaceInput,
  deps: { db: Db; clock: Clock; secrets: SecretBox },
) {
  const now = deps.clock.now().toISOString();
  const id = newId();
  const slug = await freeSlug(deps.db, input.slug ?? input.name);
  return await transact(deps.db, async (tx) => {
    const row = one(
      await tx
        .insert(workspaces)
        .values({
          id,
          name: input.name,
          slug,
          widgetKey: `wk_${randomToken(16)}`,
          widgetSecretSealed: deps.secrets.seal(randomToken(32)),
          settings: {},
          images: {},
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await insertOwnerMembership(tx, id, user.userId, now);
    await appendEvent(tx, workspaceUpdated, { workspaceId: id, data: { workspace: presentWorkspace(row) } });
    return row;
  });
}

/** The workspace's time zone setting, UTC when unset (reports count local days). */
export async function workspaceTimeZone(db: Queryable, workspaceId: string): Promise<string> {
  const row = first(
    await rowsOf<{ tz: string | null }>(
      db,
      sql`SELECT ${sqlParts(db).jsonText(workspaces.settings, "timezone")} AS tz FROM ${workspaces} WHERE ${workspaces.id} = ${workspaceId}`,
    ),
  );
  return row?.tz || "UTC";
}

/** A live workspace's name, slug and settings (for features that read a setting inside their own transaction). */
export async function workspaceSettingsOf(
  db: Queryable,
  workspaceId: string,
): Promise<{ id: string; name: string; slug: string; settings: Record<string, unknown> } | undefined> {
  return first(
    await db
      .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug, settings: workspaces.settings })
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), isNull(workspaces.deletedAt)))
      .limit(1),
  );
}

/** Days after which solved tickets close (WorkspaceSettings `auto_close_days`, default 4; 0 = never). */
export const DEFAULT_AUTO_CLOSE_DAYS = 4;

/** Every live workspace with its auto-close delay in days (the scheduled auto-close job walks these). */
export async function autoCloseDaysOfWorkspaces(db: Queryable): Promise<{ id: string; days: number }[]> {
  // A JSON number: SQLite's json_extract answers it as a number, PostgreSQL's `->>` as its text.
  const rows = await rowsOf<{ id: string; days: number | string | null }>(
    db,
    sql`SELECT ${workspaces.id} AS id, ${sqlParts(db).jsonText(workspaces.settings, "auto_close_days")} AS days
        FROM ${workspaces} WHERE ${workspaces.deletedAt} IS NULL`,
  );
  return rows.map((r) => {
    const days = r.days === null || r.days === "" ? Number.NaN : Number(r.days);
    return { id: r.id, days: Number.isInteger(days) && days >= 0 ? days : DEFAULT_AUTO_CLOSE_DAYS };
  });
}

/** A workspace's name and slug, deleted or not (`deletedAt` says): for invitations and their mail. */
export async function workspaceRefOf(db: Queryable, workspaceId: string) {
  return first(
    await db
      .select({ id: workspaces.id, name: workspaces.name, slug: workspaces.slug, deletedAt: workspaces.deletedAt })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .limit(1),
  );
}

export async function findWorkspace(db: Db, workspaceId: string) {
  return first(
    await db
      .select()
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), isNull(workspaces.deletedAt)))
      .limit(1),
  );
}

/** A workspace by its slug, unless deleted: the public help center's address. */
export async function findWorkspaceBySlug(db: Queryable, slug: string) {
  return first(
    await db
      .select()
      .from(workspaces)
      .where(and(eq(workspaces.slug, slug), isNull(workspaces.deletedAt)))
      .limit(1),
  );
}

async function requireWorkspace(db: Db | Tx, workspaceId: string) {
  const row = first(
    await db
      .select()
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), isNull(workspaces.deletedAt)))
      .limit(1),
  );
  if (!row) throw notFound("Workspace");
  return row;
}

type Settings = Record<string, unknown>;

/** Merges a settings patch into stored settings: members replace, `null` removes, `ai` merges one level down. */
export function mergeSettings(stored: Settings, patch: WorkspaceSettingsPatchInput): Settings {
  const next: Settings = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete next[key];
    } else if (key === "ai") {
      const ai: Settings = { ...((stored.ai as Settings | undefined) ?? {}) };
      for (const [aiKey, aiValue] of Object.entries(value as Settings)) {
        if (aiValue === undefined) continue;
        if (aiValue === null) delete ai[aiKey];
        else ai[aiKey] = aiValue;
      }
      next.ai = ai;
    } else {
      next[key] = value;
    }
  }
  return next;
}

export type UpdateWorkspaceInput = { name?: string; settings?: WorkspaceSettingsPatchInput };

/** Renames and/or merges settings; audit-logged; emits `workspace.updated` only when something changed. */
export async function updateWorkspace(
  ctx: RequestContext,
  input: UpdateWorkspaceInput,
  deps: { db: Db; clock: Clock },
) {
  return await transact(deps.db, async (tx) => {
    const current = await requireWorkspace(tx, ctx.workspaceId);
    const name = input.name ?? current.name;
    const settings = input.settings ? mergeSettings(current.settings ?? {}, input.settings) : current.settings;
    const changes: string[] = [];
    if (name !== current.name) changes.push("name");
    if (JSON.stringify(settings) !== JSON.stringify(current.settings)) changes.push("settings");
    if (!changes.length) return current;
    const row = one(
      await tx
        .update(workspaces)
        .set({ name, settings, updatedAt: deps.clock.now().toISOString() })
        .where(eq(workspaces.id, ctx.workspaceId))
        .returning(),
    );
    await recordAudit(tx, ctx, {
      action: "workspace.updated",
      entityType: "workspace",
      entityId: ctx.workspaceId,
      data: {
        changes,
        ...(changes.includes("name") ? { name: { from: current.name, to: name } } : {}),
        ...(input.settings ? { settings: input.settings } : {}),
      },
    });
    await appendEvent(tx, workspaceUpdated, {
      workspaceId: ctx.workspaceId,
      data: { workspace: presentWorkspace(row) },
    });
    return row;
  });
}

/** A sign-in within this window counts as recent for destructive owner actions. */
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;

/** Owner actions that cannot be undone need a two-factor session (and, for deletion, a recent sign-in). */
async function requireStrongSession(db: Db, ctx: RequestContext, clock: Clock, recent: boolean): Promise<void> {
  const sessionId = ctx.actor.type === "user" ? ctx.actor.sessionId : null;
  const session = sessionId ? await signInOf(db, sessionId) : null;
  if (!session?.mfaVerified) {
    throw new DeskError(
      403,
      "two_factor_required",
      "Turn on two-factor authentication and sign in with it to do this.",
    );
  }
  if (recent && clock.now().getTime() - new Date(session.authenticatedAt).getTime() > RECENT_SIGN_IN_MS) {
    throw new DeskError(403, "recent_sign_in_required", "Sign in again (within the last 15 minutes) to do this.");
  }
}

/**
 * Deletes the workspace: it disappears at once (credentials stop resolving), its members' live
 * connections end, and a durable job removes every row it owned.
 */
export async function deleteWorkspace(
  ctx: RequestContext,
  confirmName: string,
  deps: { db: Db; clock: Clock },
): Promise<void> {
  await requireStrongSession(deps.db, ctx, deps.clock, true);
  const memberIds = await transact(deps.db, async (tx) => {
    const current = await requireWorkspace(tx, ctx.workspaceId);
    if (confirmName !== current.name)
      throw invalidAt("body.confirm_name", "Type the workspace's name exactly to confirm.");
    const now = deps.clock.now().toISOString();
    await recordAudit(tx, ctx, {
      action: "workspace.deleted",
      entityType: "workspace",
      entityId: ctx.workspaceId,
      data: { name: current.name },
    });
    await tx.update(workspaces).set({ deletedAt: now, updatedAt: now }).where(eq(workspaces.id, ctx.workspaceId));
    const ids = await memberIdsOfWorkspace(tx, ctx.workspaceId);
    await enqueue(tx, purgeWorkspaceJob, { workspace_id: ctx.workspaceId }, { uniqueKey: `purge:${ctx.workspaceId}` });
    return ids;
  });
  for (const userId of memberIds)
    signalAccessEnded(deps.db, { kind: "membership", userId, workspaceId: ctx.workspaceId });
}

/** The target member becomes owner and the calling owner becomes admin, in one step. */
export async function transferOwnership(
  ctx: RequestContext,
  targetUserId: string,
  deps: { db: Db; clock: Clock; ports: Ports },
) {
  await requireStrongSession(deps.db, ctx, deps.clock, false);
  const callerId = ctx.actor.type === "user" ? ctx.actor.userId : "";
  if (targetUserId === callerId)
    throw invalidAt("body.user_id", "You already own this workspace; name another member.");
  return await transact(deps.db, async (tx) => {
    if ((await memberRoleOf(tx, ctx.workspaceId, targetUserId)) === null)
      throw invalidAt("body.user_id", "Not a member of this workspace.");
    const promoted = await setMemberRole(tx, ctx, targetUserId, "owner", deps);
    const demoted = await setMemberRole(tx, ctx, callerId, "admin", deps);
    await recordAudit(tx, ctx, {
      action: "workspace.ownership_transferred",
      entityType: "workspace",
      entityId: ctx.workspaceId,
      data: { from: callerId, to: targetUserId },
    });
    return { owner: promoted, previous_owner: demoted };
  });
}

/** A new widget secret (HMAC key of verified widget sessions): sealed at rest, shown once. */
export async function rotateWidgetSecret(
  ctx: RequestContext,
  deps: { db: Db; clock: Clock; secrets: SecretBox },
): Promise<string> {
  const secret = `whs_${randomToken(32)}`;
  await transact(deps.db, async (tx) => {
    await requireWorkspace(tx, ctx.workspaceId);
    await tx
      .update(workspaces)
      .set({ widgetSecretSealed: deps.secrets.seal(secret), updatedAt: deps.clock.now().toISOString() })
      .where(eq(workspaces.id, ctx.workspaceId));
    await recordAudit(tx, ctx, {
      action: "workspace.widget_secret_rotated",
      entityType: "workspace",
      entityId: ctx.workspaceId,
    });
  });
  return secret;
}

export type WorkspaceImageSlot = "logo" | (typeof IMAGE_SLOTS)[number];

/** Sets or clears one of the workspace's pictures (`logo` is its avatar) and appends `workspace.updated`. */
export async function setWorkspaceImage(
  tx: Tx,
  ctx: RequestContext,
  slot: WorkspaceImageSlot,
  url: string | null,
  now: string,
) {
  const current = await requireWorkspace(tx, ctx.workspaceId);
  const patch = slot === "logo" ? { avatarUrl: url } : { images: { ...(current.images ?? {}), [slot]: url } };
  const row = one(
    await tx
      .update(workspaces)
      .set({ ...patch, updatedAt: now })
      .where(eq(workspaces.id, ctx.workspaceId))
      .returning(),
  );
  const workspace = presentWorkspace(row);
  await appendEvent(tx, workspaceUpdated, { workspaceId: ctx.workspaceId, data: { workspace } });
  return workspace;
}
