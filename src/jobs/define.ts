import type { ZodType } from "zod";
import type { Logger } from "../lib/logger";

export type RetryPolicy = { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 5_000, maxDelayMs: 3_600_000 };

export type JobRunContext = { jobId: string; attempt: number; logger: Logger; signal: AbortSignal };

export type JobDefinition<P = unknown> = {
  name: string;
  schema?: ZodType<P>;
  handler: (payload: P, run: JobRunContext) => Promise<void> | void;
  retry?: Partial<RetryPolicy>;
  /** At most this many of the kind run at once (default 4). */
  concurrency?: number;
  /** Cron expression for recurring jobs (croner syntax); the scheduler keeps one queued. */
  schedule?: string;
  /** How long a run may hold its lease before another start considers it crashed (default 5 min). */
  leaseMs?: number;
};

export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/** Thrown by a handler to retry at a chosen time instead of the backoff schedule. */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message = "retry later",
  ) {
    super(message);
  }
}

/** Thrown by a handler when retrying cannot help. */
export class PermanentFailure extends Error {}

/** Exponential backoff with full jitter between half and the whole step. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}
