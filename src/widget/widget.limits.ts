import type { VisitorContext } from "../auth/context";
import { deskState } from "../db/desk-state";
import type { Deps } from "../deps";
import { deskRateLimiter, enforceRateLimits, type RateLimiter, takeRateLimit } from "../http/rate-limit";
import { rateLimited } from "../lib/errors";
import { requestMeta } from "../http/request-meta";

/** Budgets per minute: a person chatting never meets them; a script hammering one session or address does. */
export const WIDGET_LIMITS = {
  /** Reads (conversation list, threads) per visitor session. */
  readsPerVisitor: 120,
  /** Messages, new conversations and handoffs per visitor session. */
  writesPerVisitor: 20,
  /** The same per client address, across all its sessions. */
  writesPerAddress: 60,
  /** Uploads per visitor session. */
  uploadsPerVisitor: 10,
  /** New or resumed sessions per client address. */
  sessionsPerAddress: 30,
} as const;

/**
 * Upload volume per hour, in whole megabytes (a started megabyte counts): a visitor sending a few
 * screenshots never meets it; a script filling the disk through one session or address does.
 */
export const WIDGET_UPLOAD_VOLUME = {
  /** Megabytes per visitor session per hour. */
  mbPerVisitor: 25,
  /** Megabytes per client address per hour, across all its sessions. */
  mbPerAddress: 60,
} as const;
const MB = 1024 * 1024;

/**
 * Visitor messages per hour that may set the AI going (an answer, and on a new chat the auto-triage
 * and AI conditions): past them the message is stored and people answer, but the conversation is
 * left to people (quietTicketForAi). A person chatting never meets them; a script does.
 */
export const WIDGET_AI_ALLOWANCE = {
  /** Per visitor session per hour. */
  aiPerVisitor: 20,
  /** Per client address per hour, across all its sessions. */
  aiPerAddress: 60,
} as const;

type Limiters = Record<
  keyof typeof WIDGET_LIMITS | keyof typeof WIDGET_UPLOAD_VOLUME | keyof typeof WIDGET_AI_ALLOWANCE,
  RateLimiter
>;

const limitersOf = deskState("widget.rate-limits", () => new Map<Deps["clock"], Limiters>());

function limiters(deps: Pick<Deps, "db" | "clock">): Limiters {
  const byClock = limitersOf(deps.db);
  let found = byClock.get(deps.clock);
  if (!found) {
    found = Object.fromEntries([
      ...Object.entries(WIDGET_LIMITS).map(([name, limit]) => [
        name,
        deskRateLimiter(deps, { name: `widget.${name}`, limit, windowMs: 60_000 }),
      ]),
      ...Object.entries({ ...WIDGET_UPLOAD_VOLUME, ...WIDGET_AI_ALLOWANCE }).map(([name, limit]) => [
        name,
        deskRateLimiter(deps, { name: `widget.${name}`, limit, windowMs: 3_600_000 }),
      ]),
    ]) as Limiters;
    byClock.set(deps.clock, found);
  }
  return found;
}

export type VisitorAction = "read" | "write" | "upload";

/** 429 with Retry-After once the visitor or their address is over budget; otherwise counts the request. */
export async function spendVisitorBudget(
  deps: Pick<Deps, "db" | "clock">,
  request: Request,
  visitor: VisitorContext,
  action: VisitorAction,
): Promise<void> {
  const all = limiters(deps);
  const session = visitor.visitorSessionId;
  const checks: Array<[RateLimiter, string | null]> =
    action === "read"
      ? [[all.readsPerVisitor, session]]
      : action === "write"
        ? [
            [all.writesPerVisitor, session],
            [all.writesPerAddress, visitor.ip],
          ]
        : [
            [all.uploadsPerVisitor, session],
            [all.writesPerAddress, visitor.ip],
          ];
  await enforceRateLimits(checks, requestMeta(request));
  for (const [limiter, key] of checks) if (key !== null) await limiter.hit(key);
}

/** Session starts per client address (in-process calls, with no address, are not counted). */
export async function spendSessionBudget(deps: Pick<Deps, "db" | "clock">, request: Request): Promise<void> {
  const meta = requestMeta(request);
  await takeRateLimit(limiters(deps).sessionsPerAddress, meta.ip, meta);
}

const volumeChecks = (all: Limiters, visitor: VisitorContext): Array<[RateLimiter, string | null]> => [
  [all.mbPerVisitor, visitor.visitorSessionId],
  [all.mbPerAddress, visitor.ip],
];

/** 429 before the body is read when the visitor or their address already sent their hour's volume. */
export async function checkUploadVolume(
  deps: Pick<Deps, "db" | "clock">,
  request: Request,
  visitor: VisitorContext,
): Promise<void> {
  await enforceRateLimits(volumeChecks(limiters(deps), visitor), requestMeta(request));
}

/**
 * Spends a read file's megabytes; a file that would take the visitor or their address past the
 * hour's volume is refused (429 with Retry-After, nothing stored) and spends nothing.
 */
export async function spendUploadVolume(
  deps: Pick<Deps, "db" | "clock">,
  visitor: VisitorContext,
  bytes: number,
): Promise<void> {
  const units = Math.max(1, Math.ceil(bytes / MB));
  const checks = volumeChecks(limiters(deps), visitor).filter((c): c is [RateLimiter, string] => c[1] !== null);
  const states = await Promise.all(checks.map(([limiter, key]) => limiter.state(key)));
  const short = states.filter((state) => state.remaining < units);
  if (short.length > 0) throw rateLimited(Math.max(1, ...short.map((state) => state.reset)));
  for (const [limiter, key] of checks) for (let i = 0; i < units; i++) await limiter.hit(key);
}

/**
 * True (and counted) while the visitor and their address have AI allowance left this hour: both
 * budgets are checked before either is spent, so a message refused by one spends nothing.
 */
export async function spendVisitorAi(deps: Pick<Deps, "db" | "clock">, visitor: VisitorContext): Promise<boolean> {
  const all = limiters(deps);
  const budgets: Array<[RateLimiter, string | null]> = [
    [all.aiPerVisitor, visitor.visitorSessionId],
    [all.aiPerAddress, visitor.ip],
  ];
  const checks = budgets.filter((c): c is [RateLimiter, string] => c[1] !== null);
  for (const [limiter, key] of checks) if ((await limiter.retryAfter(key)) > 0) return false;
  for (const [limiter, key] of checks) await limiter.hit(key);
  return true;
}
