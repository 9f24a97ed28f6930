import type { webhookDeliveries, webhooks } from "./webhooks.table";

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The Webhook resource; the signing secret never appears here (only once, at creation). */
export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    team_ids: row.teamIds,
    enabled: row.enabled,
    consecutive_failures: row.failureStreak,
    paused_until: row.pausedUntil ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    response_code: row.responseCode ?? null,
    duration_ms: row.durationMs ?? null,
    response_excerpt: row.responseExcerpt ?? null,
    error: row.lastError ?? null,
    next_attempt_at: row.nextAttemptAt ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
