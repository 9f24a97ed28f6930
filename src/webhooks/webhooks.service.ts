import { first, one } from "../db/store";
import { and, desc, eq, lt } from "drizzle-orm";
import type { RequestContext, Scope } from "../auth/context";
import { scopesBeyond } from "../auth/grants";
import { recordAudit } from "../audit/audit.public";
import type { Config } from "../config/config";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Db, Tx } from "../db/database";
import { transact } from "../db/tx";
import { webhookCreated, webhookDeleted, webhookTest, webhookUpdated } from "./webhooks.events";
import { appendEvent } from "../events/append";
import type { EventCatalogue } from "../events/catalogue";
import { forbidden, invalidAt, notFound, validationFailed } from "../lib/errors";
import type { SecretBox } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { assertPublicUrl, UnsafeUrlError, type Resolver } from "../lib/ssrf";
import { teamsAmong } from "../teams/teams.public";
import { invalidateWebhooks } from "./webhooks.cache";
import { flightOf, wakeEndpoint } from "./webhooks.worker";
import { presentDelivery, presentWebhook } from "./webhooks.present";
import { webhookDeliveries, webhooks } from "./webhooks.table";
import type { Clock } from "../lib/clock";

type Deps = {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  config: Pick<Config, "allowedPrivateHosts">;
  resolver?: Resolver;
  /** The registered event types: their read scopes bound what an API key may subscribe to. */
  events: Pick<EventCatalogue, "readScopeOf" | "readScopes">;
};
export type WebhookRow = typeof webhooks.$inferSelect;

export type CreateWebhookInput = {
  url: string;
  description?: string;
  events: string[];
  enabled?: boolean;
  team_ids?: string[];
};
export type UpdateWebhookInput = Partial<CreateWebhookInput>;

export const SIGNING_SECRET_PREFIX = "whsec_";

/** Refuses URLs that are not https or that point at private addresses (after DNS), as a 422. */
async function checkedUrl(url: string, deps: Deps): Promise<string> {
  try {
    const { url: parsed } = await assertPublicUrl(url, deps.config.allowedPrivateHosts, deps.resolver);
    return parsed.toString();
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidAt("body.url", error.message);
    throw error;
  }
}

async function checkTeams(tx: Tx, workspaceId: string, teamIds: string[]): Promise<string[]> {
  const unique = [...new Set(teamIds)];
  if (!unique.length) return unique;
  const known = await teamsAmong(tx, workspaceId, unique);
  const errors = teamIds.flatMap((id, i) =>
    known.has(id) ? [] : [{ location: `body.team_ids.${i}`, message: "no such team in this workspace" }],
  );
  if (errors.length) throw validationFailed(errors);
  return unique;
}

/**
 * A webhook reads what it subscribes to, so setting one up grants that reading to its receiver:
 * an API key may create or change an endpoint only within its own reach (src/auth/grants.ts), the
 * read scope of every event type listed (`*`: all of them) and tickets:read for private-team
 * grants. It also cannot repoint, change or delete an endpoint that reaches further than it does.
 */
function assertWithinReach(
  ctx: RequestContext,
  webhook: { events: string[]; teamIds: string[] },
  what: string,
  catalogue: Deps["events"],
): void {
  if (ctx.scopes === null) return;
  const needed = new Set<Scope>(webhook.teamIds.length ? ["tickets:read"] : []);
  for (const type of webhook.events) {
    if (type === "*") for (const scope of catalogue.readScopes) needed.add(scope);
    else {
      const scope = catalogue.readScopeOf(type);
      if (scope) needed.add(scope);
    }
  }
  const beyond = scopesBeyond(ctx, [...needed]);
  if (beyond.length)
    throw forbidden(`An API key cannot ${what} a webhook reaching beyond its scopes: it lacks ${beyond.join(", ")}.`);
}

/** Runs a change to a workspace's endpoints so fan-out never keeps a stale or rolled-back list. */
async function changingWebhooks<T>(db: Db, workspaceId: string, change: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await transact(db, async (tx) => {
      invalidateWebhooks(db, workspaceId);
      return await change(tx);
    });
  } finally {
    invalidateWebhooks(db, workspaceId);
  }
}

const findRow = async (db: Db | Tx, workspaceId: string, id: string) =>
  first(
    await db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id)))
      .limit(1),
  );

export async function getWebhook(db: Db, ctx: RequestContext, id: string): Promise<WebhookRow> {
  const row = await findRow(db, ctx.workspaceId, id);
  if (!row) throw notFound("Webhook");
  return row;
}

export async function listWebhooks(db: Db, ctx: RequestContext): Promise<WebhookRow[]> {
  return await db
    .select()
    .from(webhooks)
    .where(eq(webhooks.workspaceId, ctx.workspaceId))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
}

/** Creates an endpoint; the signing secret exists in plain text only in this return value. */
export async function createWebhook(
  ctx: RequestContext,
  input: CreateWebhookInput,
  deps: Deps,
): Promise<{ row: WebhookRow; secret: string }> {
  assertWithinReach(ctx, { events: input.events, teamIds: input.team_ids ?? [] }, "create", deps.events);
  const url = await checkedUrl(input.url, deps);
  const secret = `${SIGNING_SECRET_PREFIX}${randomToken(32)}`;
  const now = deps.clock.now().toISOString();
  const row = await changingWebhooks(deps.db, ctx.workspaceId, async (tx) => {
    const created = one(
      await tx
        .insert(webhooks)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          url,
          description: input.description ?? "",
          events: input.events,
          teamIds: await checkTeams(tx, ctx.workspaceId, input.team_ids ?? []),
          enabled: input.enabled ?? true,
          secretSealed: deps.secrets.seal(secret),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await recordAudit(tx, ctx, {
      action: "webhook.created",
      entityType: "webhook",
      entityId: created.id,
      data: { url, events: created.events },
    });
    await appendEvent(tx, webhookCreated, {
      workspaceId: ctx.workspaceId,
      data: { webhook: presentWebhook(created) },
    });
    return created;
  });
  return { row, secret };
}

export async function updateWebhook(
  ctx: RequestContext,
  id: string,
  input: UpdateWebhookInput,
  deps: Deps,
): Promise<WebhookRow> {
  const existing = await getWebhook(deps.db, ctx, id);
  assertWithinReach(ctx, existing, "change", deps.events);
  assertWithinReach(
    ctx,
    { events: input.events ?? existing.events, teamIds: input.team_ids ?? existing.teamIds },
    "change",
    deps.events,
  );
  const url = input.url === undefined ? undefined : await checkedUrl(input.url, deps);
  return await changingWebhooks(deps.db, ctx.workspaceId, async (tx) => {
    const before = await findRow(tx, ctx.workspaceId, id);
    if (!before) throw notFound("Webhook");
    // Read again inside the change: another request may have widened it after the check above.
    assertWithinReach(ctx, before, "change", deps.events);
    const changes: Partial<WebhookRow> = { updatedAt: deps.clock.now().toISOString() };
    if (url !== undefined && url !== before.url) {
      // A new address is a new endpoint: its circuit closes, and waiting deliveries go to it now.
      changes.url = url;
      changes.failureStreak = 0;
      changes.pausedUntil = null;
      flightOf(deps.db).pausedUntil.delete(id);
      await wakeEndpoint(tx, id, ctx.workspaceId);
    }
    if (input.description !== undefined) changes.description = input.description;
    if (input.events !== undefined) changes.events = input.events;
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    if (input.team_ids !== undefined) changes.teamIds = await checkTeams(tx, ctx.workspaceId, input.team_ids);
    const after = one(
      await tx
        .update(webhooks)
        .set(changes)
        .where(and(eq(webhooks.workspaceId, ctx.workspaceId), eq(webhooks.id, id)))
        .returning(),
    )!;
    const changed = (["url", "description", "events", "enabled", "teamIds"] as const).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    await recordAudit(tx, ctx, { action: "webhook.updated", entityType: "webhook", entityId: id, data: { changed } });
    await appendEvent(tx, webhookUpdated, {
      workspaceId: ctx.workspaceId,
      data: { webhook: presentWebhook(after) },
    });
    return after;
  });
}

export async function deleteWebhook(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await changingWebhooks(deps.db, ctx.workspaceId, async (tx) => {
    const existing = await findRow(tx, ctx.workspaceId, id);
    if (existing) assertWithinReach(ctx, existing, "delete", deps.events);
    const row = first(
      await tx
        .delete(webhooks)
        .where(and(eq(webhooks.workspaceId, ctx.workspaceId), eq(webhooks.id, id)))
        .returning(),
    );
    if (!row) throw notFound("Webhook");
    await recordAudit(tx, ctx, {
      action: "webhook.deleted",
      entityType: "webhook",
      entityId: id,
      data: { url: row.url },
    });
    await appendEvent(tx, webhookDeleted, { workspaceId: ctx.workspaceId, data: { webhook_id: id } });
  });
}

/**
 * Sends a `webhook.test` event to this endpoint only (even when paused or not subscribed to it):
 * the event is stored like any other, and fan-out routes it to the tested endpoint alone.
 */
export async function testWebhook(ctx: RequestContext, id: string, deps: Deps) {
  return await transact(deps.db, async (tx) => {
    const row = await findRow(tx, ctx.workspaceId, id);
    if (!row) throw notFound("Webhook");
    const event = await appendEvent(tx, webhookTest, {
      workspaceId: ctx.workspaceId,
      data: { webhook: presentWebhook(row) },
    });
    await recordAudit(tx, ctx, {
      action: "webhook.tested",
      entityType: "webhook",
      entityId: id,
      data: { event_id: event.id },
    });
    return first(
      await tx
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.eventId, event.id)))
        .limit(1),
    )!;
  });
}

/** Newest first, keyset-paged on the (time-ordered) delivery id. */
export async function listDeliveries(
  db: Db,
  ctx: RequestContext,
  id: string,
  page: { limit: number; cursor?: string },
) {
  await getWebhook(db, ctx, id);
  const after = decodeCursor(page.cursor, 1);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.workspaceId, ctx.workspaceId),
        eq(webhookDeliveries.webhookId, id),
        after ? lt(webhookDeliveries.id, String(after[0])) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(page.limit + 1);
  return await pageOf(rows, page.limit, presentDelivery, (r) => [r.id]);
}
