import { first } from "../db/store";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { recordAiCall } from "../metrics/metrics";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { type CostKey, costMicros } from "./ai.prices";
import { type AiSource, type AiUsageRow, aiUsage } from "./ai.table";

/** What a call was for: SPEC.md's cost keys, plus free search indexing. */
export type UsageFeature = CostKey | "search_index";

export type UsageInput = {
  workspaceId: string;
  userId: string | null;
  feature: UsageFeature;
  model: string;
  inputTokens: number;
  outputTokens: number;
  source: AiSource;
  ok: boolean;
  /** Free work (search indexing): tokens recorded, nothing charged. */
  free?: boolean;
  /** A fixed price for the call (decision-engine runs), charged whatever the key. */
  fixedMicros?: number;
};

/**
 * Records one provider call (the meter every AI feature goes through, widget answers and search
 * included) and answers its cost in micro-USD at list price: 0 when it failed, was free, ran on
 * the workspace's own key, or the model's price is unknown.
 */
export async function recordUsage(deps: Pick<Deps, "db" | "clock">, input: UsageInput): Promise<number> {
  const micros =
    !input.ok || input.free
      ? 0
      : input.fixedMicros !== undefined
        ? input.fixedMicros
        : input.source === "instance"
          ? costMicros(input.model, input.inputTokens, input.outputTokens)
          : 0;
  recordAiCall(input.feature, input.ok ? "ok" : "failed");
  await transact(deps.db, async (tx) => {
    await tx.insert(aiUsage).values({
      id: newId(),
      workspaceId: input.workspaceId,
      feature: input.feature,
      model: input.model,
      inputTokens: input.inputTokens,
      outputTokens: input.outputTokens,
      usdMicros: micros,
      userId: input.userId,
      source: input.source,
      ok: input.ok,
      createdAt: deps.clock.now().toISOString(),
    });
  });
  return micros;
}

/** Recorded calls of a workspace in [from, to), oldest first (the usage report's source). */
export async function usageBetween(
  db: Queryable,
  workspaceId: string,
  from: string,
  to: string,
): Promise<AiUsageRow[]> {
  return await db
    .select()
    .from(aiUsage)
    .where(and(eq(aiUsage.workspaceId, workspaceId), gte(aiUsage.createdAt, from), lt(aiUsage.createdAt, to)))
    .orderBy(aiUsage.createdAt, aiUsage.id);
}

/** Micro-USD spent since `from` (optionally on one feature): caps and the billing summary. */
export async function spentSince(
  db: Queryable,
  workspaceId: string,
  from: string,
  features?: UsageFeature[],
): Promise<number> {
  const row = first(
    await db
      .select({ micros: sql<number>`coalesce(sum(${aiUsage.usdMicros}), 0)` })
      .from(aiUsage)
      .where(
        and(
          eq(aiUsage.workspaceId, workspaceId),
          gte(aiUsage.createdAt, from),
          features?.length ? sql`${aiUsage.feature} IN ${features}` : undefined,
        ),
      )
      .limit(1),
  );
  return Number(row?.micros ?? 0);
}

/**
 * This UTC month's spend that counts against `widget_monthly_cap_usd`, from `from`: the AI agent's
 * answers, and the triage and AI-condition calls Desk made on its own (no person asked for them),
 * which anonymous chats set off as surely as the answers.
 */
export async function unattendedSpendSince(db: Queryable, workspaceId: string, from: string): Promise<number> {
  const row = first(
    await db
      .select({ micros: sql<number>`coalesce(sum(${aiUsage.usdMicros}), 0)` })
      .from(aiUsage)
      .where(
        and(
          eq(aiUsage.workspaceId, workspaceId),
          gte(aiUsage.createdAt, from),
          sql`(${aiUsage.feature} IN ('answer', 'answer_email') OR (${aiUsage.feature} IN ('triage', 'decide') AND ${aiUsage.userId} IS NULL))`,
        ),
      )
      .limit(1),
  );
  return Number(row?.micros ?? 0);
}
