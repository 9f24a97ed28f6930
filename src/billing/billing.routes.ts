import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { BillingSchema, UsageQuery, UsageReportSchema } from "./billing.schemas";
import { billingDisabled, selfHostedBilling, usageReport } from "./billing.service";

const manage = { role: "admin", scopes: ["settings:write"] } as const;
const DISABLED =
  "Answers 404 `billing_disabled`: this instance has no payment processor (self-hosted). The success answer documented is the hosted offering's.";
const UrlAnswer = z.object({ url: z.string() });

/** Billing as the self-hosted offering answers it (DECISIONS.md "Hosted-only parts"). */
export function billingRoutes(deps: Deps) {
  /** Every hosted-only route: the caller is authorised first, then told billing is off here. */
  const disabled = (): never => {
    throw billingDisabled();
  };
  return new Elysia({ prefix: "/billing", tags: ["billing"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => await selfHostedBilling(deps, ctx), {
      access: { role: "viewer", scopes: ["settings:read"] },
      response: { 200: BillingSchema },
      detail: {
        summary: "The workspace's plan and entitlements",
        description:
          "Self-hosted: plan `self_hosted`, `billing_enabled: false`, no limits (0 = unlimited), unlimited AI (`monthly_usd`, `purchased_usd` and `remaining_usd` are 0; `used_usd` is this UTC month's recorded AI spend at list price), no prices, `auto_recharge: null`.",
      },
    })
    .get("/usage", async ({ ctx, query }) => await usageReport(deps, ctx, query), {
      access: { role: "admin", scopes: ["settings:read"] },
      query: UsageQuery,
      response: { 200: UsageReportSchema },
      detail: {
        summary: "AI usage report",
        description:
          "From the recorded AI calls (failed ones count as calls costing 0). `from`/`to` are RFC 3339 or YYYY-MM-DD; default this UTC month; a date-only `to` includes that day; at most one year (366 days); `to` in the report is exclusive. Days are UTC dates; `by_member` user null = automations, jobs and the AI agent. Every breakdown adds up to the totals exactly.",
      },
    })
    .post("/checkout", () => disabled(), {
      access: manage,
      response: { 200: UrlAnswer },
      detail: { summary: "Start a plan checkout", description: DISABLED },
    })
    .post("/portal", () => disabled(), {
      access: manage,
      response: { 200: UrlAnswer },
      detail: { summary: "Open the customer portal", description: DISABLED },
    })
    .post("/top-up/checkout", () => disabled(), {
      access: manage,
      response: { 200: UrlAnswer },
      detail: { summary: "Buy AI top-ups", description: DISABLED },
    })
    .patch("/auto-recharge", () => disabled(), {
      access: manage,
      response: { 200: BillingSchema },
      detail: { summary: "Change auto-recharge", description: DISABLED },
    })
    .post("/payment-method", () => disabled(), {
      access: manage,
      response: { 200: UrlAnswer },
      detail: { summary: "Save a card", description: DISABLED },
    });
}
