import type { z } from "zod";
import type { Logger } from "../lib/logger";

export type RetryPolicy = { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 5_000, maxDelayMs: 3_600_000 };

/** What a run knows about itself. */
export type JobRunContext = { jobId: string; attempt: number; logger: Logger; signal: AbortSignal };

/** A handler's second argument: its run, plus the dependencies the runner was built with. */
export type JobContext<D> = JobRunContext & { deps: D };

/** Options shared by every kind, whatever its payload. */
type JobOptions = {
  name: string;
  retry?: Partial<RetryPolicy>;
  /** At most this many of the kind run at once (default 4). */
  concurrency?: number;
  /** Cron expression for recurring jobs (croner syntax); the scheduler keeps one queued. */
  schedule?: string;
  /** How long a run may hold its lease before another start considers it crashed (default 5 min). */
  leaseMs?: number;
  /**
   * `customer`: work someone outside is waiting for (customer mail, webhook deliveries). Its kinds
   * are claimed first in every scheduler turn, from a start budget of their own, so a flood of
   * background work (indexing, lookups, reactions) never takes their turn.
   */
  lane?: "customer" | "background";
};

export type JobSpec<S extends z.ZodType, D> = JobOptions & {
  /** The payload's shape: `enqueue` is checked against its input type, the handler gets its output. */
  schema: S;
  handler: (payload: z.output<S>, context: JobContext<D>) => Promise<void> | void;
};

/**
 * A job kind as the runner and `enqueue` see it. `In` (what enqueue accepts) only appears in a
 * phantom field and `D` only in `perform`'s argument, so every kind of a desk fits one list typed
 * `Job<unknown, D>` without casts.
 */
export type Job<In, D = unknown> = JobOptions & {
  /** Never set at run time: carries the payload type for `enqueue`. */
  readonly __payload?: (payload: In) => void;
  /** Validates a stored payload (one that does not parse is a permanent failure) and runs the handler. */
  perform(raw: unknown, context: JobContext<D>): Promise<void> | void;
};

/** Any job whose handler needs at most `D`: what a runner built with `D` accepts. */
export type AnyJob<D> = Job<never, D>;

/**
 * Defines a job kind at module scope. The handler's payload type comes from the schema; its
 * dependencies come from the runner (`context.deps`), so the definition needs nothing at import time.
 */
export function defineJob<S extends z.ZodType, D = unknown>(spec: JobSpec<S, D>): Job<z.input<S>, D> {
  const { schema, handler, ...options } = spec;
  return {
    ...options,
    perform(raw, context) {
      const parsed = schema.safeParse(raw);
      // A payload that does not parse will not parse on a retry either.
      if (!parsed.success) throw new PermanentFailure(`invalid payload: ${parsed.error.message}`);
      return handler(parsed.data, context);
    },
  };
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

/**
 * Thrown by a handler whose work must wait its turn (a fair share taken, an endpoint paused): the
 * job runs again after `delayMs` without spending an attempt, and nothing is logged. Not for
 * failures: those are RetryLater or a plain error.
 */
export class Requeue extends Error {
  constructor(readonly delayMs: number) {
    super("requeued");
  }
}

/** Thrown by a handler when retrying cannot help. */
export class PermanentFailure extends Error {}

/** Exponential backoff with full jitter between half and the whole step. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}
