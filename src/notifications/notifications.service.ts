import { first } from "../db/store";
import { and, count, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import { enqueue } from "../jobs/enqueue";
import type { Clock } from "../lib/clock";
import { forbidden, invalidAt } from "../lib/errors";
import { newId } from "../lib/ids";
import { notificationCreated } from "./notifications.events";
import { notificationEmailJob } from "./notifications.jobs";
import type { NotificationType, NotificationWire } from "./notifications.schemas";
import {
  type EmailPreference,
  type NotificationTicketRef,
  notificationPreferences,
  notifications,
} from "./notifications.table";

type Deps = { db: Db; clock: Clock };

export type NewNotification = {
  workspaceId: string;
  userId: string;
  type: NotificationType;
  ticket: NotificationTicketRef | null;
  data?: Record<string, unknown>;
  /**
   * The private team of the ticket it is about, if any: a webhook then receives the event only when
   * granted that team (people see a notification only when it is theirs anyway).
   */
  privateTeamId?: string | null;
  /** False: shown in the app (and in a digest) but never mailed on its own, for the sender's rate limits. */
  email?: boolean;
};

export type NotificationRow = typeof notifications.$inferSelect;

export function presentNotification(row: NotificationRow): NotificationWire {
  return {
    id: row.id,
    type: row.type as NotificationType,
    ticket: row.ticket ?? null,
    data: row.data,
    read_at: row.readAt,
    created_at: row.createdAt,
  };
}

/** A member's email preference in a workspace (default: immediately). */
export async function emailPreferenceOf(db: Queryable, workspaceId: string, userId: string): Promise<EmailPreference> {
  return (
    first(
      await db
        .select({ email: notificationPreferences.email })
        .from(notificationPreferences)
        .where(and(eq(notificationPreferences.workspaceId, workspaceId), eq(notificationPreferences.userId, userId)))
        .limit(1),
    )?.email ?? "immediately"
  );
}

/**
 * Stores a notification for one person and publishes `notification.created` as a personal event
 * (main topic `user:<uid>`: only that person sees it in full), in the caller's transaction. When
 * the person wants email at once, the mail job is enqueued in the same transaction.
 */
export async function notify(tx: Tx, input: NewNotification, clock: Clock): Promise<NotificationWire> {
  const row: NotificationRow = {
    id: newId(),
    workspaceId: input.workspaceId,
    userId: input.userId,
    type: input.type,
    ticket: input.ticket,
    data: input.data ?? {},
    readAt: null,
    emailedAt: null,
    createdAt: clock.now().toISOString(),
  };
  await tx.insert(notifications).values(row);
  const notification = presentNotification(row);
  await appendEvent(tx, notificationCreated, {
    workspaceId: input.workspaceId,
    data: { notification },
    personalTo: input.userId,
    privateTeamId: input.privateTeamId ?? null,
  });
  if (input.email !== false && (await emailPreferenceOf(tx, input.workspaceId, input.userId)) === "immediately")
    await enqueue(tx, notificationEmailJob, { notification_id: row.id }, { workspaceId: input.workspaceId });
  return notification;
}

/** A person's notifications, newest first (tests and other features' checks). */
export async function notificationsOf(tx: Queryable, workspaceId: string, userId: string, types?: NotificationType[]) {
  return (
    await tx
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.workspaceId, workspaceId),
          eq(notifications.userId, userId),
          types ? inArray(notifications.type, types) : undefined,
        ),
      )
      .orderBy(desc(notifications.id))
  ).map(presentNotification);
}

/** Notifications are a person's own: an API key has none to list or mark. */
function personOf(ctx: RequestContext): string {
  if (ctx.actor.type !== "user") throw forbidden("Notifications belong to people; an API key has none.");
  return ctx.actor.userId;
}

const mine = (ctx: RequestContext, userId: string) =>
  and(eq(notifications.workspaceId, ctx.workspaceId), eq(notifications.userId, userId));

async function unreadCount(db: Queryable, ctx: RequestContext, userId: string): Promise<number> {
  return (
    first(
      await db
        .select({ n: count() })
        .from(notifications)
        .where(and(mine(ctx, userId), isNull(notifications.readAt)))
        .limit(1),
    )?.n ?? 0
  );
}

/** Newest first, keyset-paged on the (time-ordered) id; `unread` keeps only those not read. */
export async function listNotifications(
  db: Db,
  ctx: RequestContext,
  query: { limit: number; cursor?: string; unread?: boolean },
) {
  const userId = personOf(ctx);
  const after = decodeCursor(query.cursor, 1);
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        mine(ctx, userId),
        query.unread ? isNull(notifications.readAt) : undefined,
        after ? lt(notifications.id, String(after[0])) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(query.limit + 1);
  return {
    ...(await pageOf(rows, query.limit, presentNotification, (r) => [r.id])),
    unread_count: await unreadCount(db, ctx, userId),
  };
}

/** Marks the given notifications (only the caller's; unknown ids are ignored) or all of them read. */
export async function markRead(ctx: RequestContext, body: { ids?: string[]; all?: boolean }, deps: Deps) {
  const userId = personOf(ctx);
  if ((body.ids === undefined) === (body.all === undefined))
    throw invalidAt("body.ids", "Send ids (the notifications to mark read) or all: true, not both.");
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const updated = (
      await tx
        .update(notifications)
        .set({ readAt: now })
        .where(
          and(
            mine(ctx, userId),
            isNull(notifications.readAt),
            body.all ? undefined : inArray(notifications.id, body.ids ?? []),
          ),
        )
        .returning({ id: notifications.id })
    ).length;
    return { updated, unread_count: await unreadCount(tx, ctx, userId) };
  });
}

export async function getPreferences(db: Db, ctx: RequestContext) {
  return { email: await emailPreferenceOf(db, ctx.workspaceId, personOf(ctx)) };
}

export async function setPreferences(ctx: RequestContext, body: { email: EmailPreference }, deps: Deps) {
  const userId = personOf(ctx);
  const now = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => {
    await tx
      .insert(notificationPreferences)
      .values({ workspaceId: ctx.workspaceId, userId, email: body.email, digestSentAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [notificationPreferences.workspaceId, notificationPreferences.userId],
        set: { email: body.email, updatedAt: now },
      });
  });
  return { email: body.email };
}
