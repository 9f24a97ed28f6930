import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/database";
import { appendEvent } from "../events/append";
import { userTopic } from "../events/envelope";
import type { Clock } from "../lib/clock";
import { newId } from "../lib/ids";
import { notificationCreated } from "./notifications.events";
import type { NotificationType, NotificationWire } from "./notifications.schemas";
import { type NotificationTicketRef, notifications } from "./notifications.table";

export type NewNotification = {
  workspaceId: string;
  userId: string;
  type: NotificationType;
  ticket: NotificationTicketRef | null;
  data?: Record<string, unknown>;
};

export function presentNotification(row: typeof notifications.$inferSelect): NotificationWire {
  return {
    id: row.id,
    type: row.type as NotificationType,
    ticket: row.ticket ?? null,
    data: row.data,
    read_at: row.readAt,
    created_at: row.createdAt,
  };
}

/** Stores a notification for one person and tells their `user:<uid>` topic, in the caller's transaction. */
export function notify(tx: Tx, input: NewNotification, clock: Clock): NotificationWire {
  const row = {
    id: newId(),
    workspaceId: input.workspaceId,
    userId: input.userId,
    type: input.type,
    ticket: input.ticket,
    data: input.data ?? {},
    readAt: null,
    createdAt: clock.now().toISOString(),
  };
  tx.insert(notifications).values(row).run();
  const notification = presentNotification(row);
  appendEvent(tx, notificationCreated, {
    workspaceId: input.workspaceId,
    data: { notification },
    extraTopics: [userTopic(input.userId)],
  });
  return notification;
}

/** A person's notifications, newest first (tests and the notifications routes). */
export function notificationsOf(tx: Tx, workspaceId: string, userId: string, types?: NotificationType[]) {
  return tx
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.workspaceId, workspaceId),
        eq(notifications.userId, userId),
        types ? inArray(notifications.type, types) : undefined,
      ),
    )
    .orderBy(notifications.id)
    .all()
    .reverse()
    .map(presentNotification);
}
