import { z } from "zod";
import { UserRefSchema } from "../tickets/tickets.public";

const Usd = z.number().describe("US dollars, up to 6 decimals");

const PriceSchema = z.object({
  id: z.string(),
  unit_amount: z.number(),
  currency: z.string(),
  interval: z.enum(["month", "year"]).nullable(),
  usd: z.number().optional(),
});

export const BillingSchema = z.object({
  plan: z.enum(["free", "pro", "self_hosted"]),
  billing_enabled: z.boolean(),
  status: z.enum([
    "none",
    "trialing",
    "active",
    "past_due",
    "unpaid",
    "canceled",
    "incomplete",
    "incomplete_expired",
    "paused",
  ]),
  interval: z.enum(["month", "year"]),
  seats: z.number(),
  billed_seats: z.number(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  limits: z.object({ max_mailboxes: z.number(), max_members: z.number() }),
  usage: z.object({ mailboxes: z.number(), members: z.number() }),
  ai: z.object({
    unlimited: z.boolean(),
    monthly_usd: Usd,
    used_usd: Usd,
    purchased_usd: Usd,
    remaining_usd: Usd,
    period_end: z.string(),
  }),
  prices: z.object({
    pro_month: PriceSchema.nullable(),
    pro_year: PriceSchema.nullable(),
    ai_top_up: PriceSchema.nullable(),
  }),
  auto_recharge: z.null(),
});

export const UsageQuery = z.object({
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});

export const UsageReportSchema = z.object({
  from: z.string(),
  to: z.string().describe("exclusive"),
  total_usd: Usd,
  total_calls: z.number(),
  by_feature: z.array(z.object({ feature: z.string(), usd: Usd, calls: z.number() })),
  by_day: z.array(z.object({ date: z.string(), usd: Usd, calls: z.number(), by_feature: z.record(z.string(), Usd) })),
  by_member: z.array(z.object({ user: UserRefSchema.nullable(), usd: Usd, calls: z.number() })),
  by_model: z.array(
    z.object({
      model: z.string(),
      usd: Usd,
      calls: z.number(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      source: z.enum(["instance", "own_key"]),
    }),
  ),
  own_key_calls: z.number(),
});
