import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { errorResponses, IdParams, PageQuery, pageOfSchema, completeList, completeListSchema } from "../http/schemas";
import { RETRY_SCHEDULE_TEXT } from "./webhooks.post";
import { presentDelivery, presentWebhook } from "./webhooks.present";
import { CreatedWebhookSchema, DeliverySchema, webhookBodies, WebhookSchema } from "./webhooks.schemas";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  testWebhook,
  updateWebhook,
} from "./webhooks.service";

const settingsAdmin = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

const SIGNING_TEXT =
  "Each delivery is an HTTP POST of the event envelope without `topics`, with headers `DESK-Signature: t=<unix>,v1=<hex>`, " +
  "`DESK-Event-Id` and `DESK-Event-Type`. Verify `v1` as the hex HMAC-SHA256, keyed with the signing secret, of `<t>.<raw body>`, " +
  "compared in constant time, and reject a `t` more than 5 minutes from your clock. The url must be https and must not resolve " +
  "to a private, loopback or link-local address (checked at creation and again before every delivery), unless the operator " +
  "allows the host in DESK_ALLOWED_PRIVATE_HOSTS (plain http is then accepted). `team_ids` grants private teams: events about " +
  "a private team's tickets reach only endpoints granted that team. An API key subscribes an endpoint only to event types it may " +
  "read (GET /v1/events lists the scope of each; `*` needs them all), grants teams only with tickets:read, and cannot change or " +
  "delete an endpoint that reaches further than it does (403).";

export function webhooksRoutes(deps: Deps) {
  const bodies = webhookBodies(deps.events.subscribable);
  return new Elysia({ prefix: "/webhooks", tags: ["webhooks"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => completeList((await listWebhooks(deps.db, ctx)).map(presentWebhook)), {
      access: settingsAdmin,
      response: { 200: completeListSchema(WebhookSchema), ...errorResponses },
      detail: { summary: "List webhook endpoints" },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        const { row, secret } = await createWebhook(ctx, body, deps);
        set.status = 201;
        return { ...presentWebhook(row), secret };
      },
      {
        access: settingsAdmin,
        body: bodies.create,
        response: { 201: CreatedWebhookSchema, ...errorResponses },
        detail: {
          summary: "Create a webhook endpoint; the signing secret is shown only here",
          description: SIGNING_TEXT,
        },
      },
    )
    .get("/:id", async ({ ctx, params }) => presentWebhook(await getWebhook(deps.db, ctx, params.id)), {
      access: settingsAdmin,
      params: IdParams,
      response: { 200: WebhookSchema, ...errorResponses },
      detail: { summary: "One webhook endpoint" },
    })
    .patch("/:id", async ({ ctx, params, body }) => presentWebhook(await updateWebhook(ctx, params.id, body, deps)), {
      access: settingsAdmin,
      params: IdParams,
      body: bodies.update,
      response: { 200: WebhookSchema, ...errorResponses },
      detail: { summary: "Change a webhook endpoint; `enabled: false` pauses it (no deliveries are created)" },
    })
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteWebhook(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsAdmin,
        params: IdParams,
        detail: { summary: "Delete a webhook endpoint and its delivery history" },
      },
    )
    .get("/:id/deliveries", async ({ ctx, params, query }) => await listDeliveries(deps.db, ctx, params.id, query), {
      access: settingsAdmin,
      params: IdParams,
      query: PageQuery,
      response: { 200: pageOfSchema(DeliverySchema), ...errorResponses },
      detail: { summary: "Recent deliveries to this endpoint, newest first", description: RETRY_SCHEDULE_TEXT },
    })
    .post(
      "/:id/test",
      async ({ ctx, params, set }) => {
        set.status = 202;
        return presentDelivery(await testWebhook(ctx, params.id, deps));
      },
      {
        access: settingsAdmin,
        params: IdParams,
        response: { 202: DeliverySchema, ...errorResponses },
        detail: { summary: "Send a `webhook.test` event to this endpoint only; answers the pending delivery" },
      },
    );
}
