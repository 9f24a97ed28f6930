import { Elysia } from "elysia";
import { z } from "zod";
import type { VisitorContext } from "../auth/context";
import type { Deps } from "../deps";
import { AttachmentSchema } from "../attachments/attachments.public";
import { IdParams, PageQuery, pageOfSchema } from "../http/schemas";
import {
  conversationMessages,
  listConversations,
  requestHandoff,
  sendMessage,
  startConversation,
} from "./widget.conversations";
import { spendSessionBudget, spendVisitorBudget, WIDGET_LIMITS, type VisitorAction } from "./widget.limits";
import {
  ConfigQuery,
  ConversationCreated,
  HandoffAnswer,
  MessageBody,
  SessionBody,
  SettingsPatch,
  WidgetConfigSchema,
  WidgetConversationSchema,
  WidgetMessageSchema,
  WidgetSessionSchema,
  WidgetSettingsSchema,
} from "./widget.schemas";
import {
  gatewayAnswer,
  presentWidgetConfig,
  sessionAnswer,
  startVisitorSession,
  touchVisitorSession,
  widgetOfKey,
} from "./widget.sessions";
import { getWidgetSettings, originAllowed, updateWidgetSettings, widgetSettingsOf } from "./widget.settings";
import { uploadVisitorFile } from "./widget.uploads";

/** Paths a page on another site calls (everything under /v1/widget/ but the admins' settings). */
const crossSite = (path: string) => path.startsWith("/v1/widget/") && !path.startsWith("/v1/widget/settings");
const ALLOW_ORIGIN = "access-control-allow-origin";

const LIMITS_TEXT =
  `Rate limits per minute: ${WIDGET_LIMITS.readsPerVisitor} reads and ${WIDGET_LIMITS.writesPerVisitor} writes per visitor, ` +
  `${WIDGET_LIMITS.writesPerAddress} writes per client address, ${WIDGET_LIMITS.uploadsPerVisitor} uploads per visitor ` +
  "(429 with Retry-After past them).";

const CORS_TEXT =
  "CORS: answers carry Access-Control-Allow-Origin for the calling page's origin when the workspace's `allowed_origins` " +
  "is empty or lists it; for any other origin the header is left out, so browsers keep the answer from the page.";

type Set = { headers: Record<string, string | number> };

/** Withdraws CORS from a page whose site the workspace does not list. */
function corsFor(set: Set, request: Request, allowed: boolean): void {
  if (!allowed || !request.headers.get("origin")) delete set.headers[ALLOW_ORIGIN];
}

export function widgetRoutes(deps: Deps) {
  /** Every visitor route starts here: budget, CORS by the workspace's origins, the session's expiry moved. */
  const enter = (visitor: VisitorContext, request: Request, set: Set, action: VisitorAction) => {
    spendVisitorBudget(deps, request, visitor, action);
    corsFor(set, request, originAllowed(widgetSettingsOf(deps.db, visitor.workspaceId), request.headers.get("origin")));
    touchVisitorSession(deps, visitor.visitorSessionId);
  };

  return (
    new Elysia({ prefix: "/widget", tags: ["widget"] })
      // Pages on other sites call these routes: every answer (errors included) names the page's origin
      // first; a route that knows the workspace withdraws it for a site not listed in allowed_origins.
      .onRequest(({ request, set }) => {
        const origin = request.headers.get("origin");
        if (!origin || !crossSite(new URL(request.url).pathname)) return;
        set.headers[ALLOW_ORIGIN] = origin;
        set.headers.vary = "Origin";
        set.headers["access-control-expose-headers"] =
          "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
      })
      .options(
        "/*",
        ({ set, request }) => {
          if (!crossSite(new URL(request.url).pathname)) {
            set.status = 404;
            return null;
          }
          set.headers["access-control-allow-methods"] = "GET, POST";
          set.headers["access-control-allow-headers"] = "Authorization, Content-Type, Idempotency-Key";
          set.headers["access-control-max-age"] = "600";
          set.status = 204;
          return null;
        },
        { detail: { hide: true } },
      )
      .use(deps.guard)
      .get(
        "/config",
        ({ query, request, set }) => {
          const { workspace, settings } = widgetOfKey(deps, query.key);
          corsFor(set, request, originAllowed(settings, request.headers.get("origin")));
          set.headers["cache-control"] = "public, max-age=60";
          return presentWidgetConfig(workspace, settings, deps);
        },
        {
          public: true,
          query: ConfigQuery,
          response: { 200: WidgetConfigSchema },
          detail: {
            summary:
              "The widget's look and rules for a public widget key (404 for an unknown key or a disabled widget)",
            description: `No credentials. ${CORS_TEXT}`,
          },
        },
      )
      .post(
        "/session",
        async ({ body, request, set }) => {
          spendSessionBudget(deps, request);
          const started = await startVisitorSession(body, request.headers.get("origin"), deps);
          set.headers["cache-control"] = "no-store";
          return sessionAnswer(started, deps);
        },
        {
          public: true,
          body: SessionBody,
          response: { 200: WidgetSessionSchema },
          detail: {
            summary: "Start or resume a visitor session",
            description:
              "No credentials. A `visitor_token` of a live session of this workspace resumes it (same token, same contact; " +
              "email and name fill what the contact lacks); an unknown or expired one starts a new session. " +
              "Verified visitors send `user_id` and `user_hash` (hex HMAC-SHA256 of user_id keyed with the widget secret): " +
              "they become the contact with that external_id, created if needed, and may send `avatar_url` (their picture on " +
              "the site, copied server-side as the contact's `widget` picture unless an agent uploaded one; 422 at body.avatar_url " +
              "without a verified identity or for an address the server will not fetch); a wrong hash answers 401 " +
              "`identity_unverified` and stores nothing. Unverified visitors always get a contact of their own: an email " +
              "another contact holds is kept on the session only, so nobody reaches another person's conversations by " +
              "typing their address. `require_email` answers 422 at body.email until an email is given. A page whose " +
              `origin is not in allowed_origins gets 403. Visitor sessions last ${30} days after their last use. ` +
              `Sessions per client address: ${WIDGET_LIMITS.sessionsPerAddress} a minute. ${CORS_TEXT}`,
          },
        },
      )
      .post(
        "/gateway-token",
        async ({ visitor, request, set }) => {
          enter(visitor, request, set, "read");
          return gatewayAnswer(visitor.workspaceId, visitor.contactId, deps);
        },
        {
          visitor: true,
          response: { 200: z.object({ ws_token: z.string(), gateway_url: z.string() }) },
          detail: {
            summary: "A fresh 5-minute gateway token for the visitor (reconnecting after the first one expired)",
            description: `Reconnect with \`&since=<seq>\` to first receive the public events of your chats missed after that seq. ${LIMITS_TEXT}`,
          },
        },
      )
      .get(
        "/conversations",
        ({ visitor, query, request, set }) => {
          enter(visitor, request, set, "read");
          return listConversations(deps, visitor, query);
        },
        {
          visitor: true,
          query: PageQuery,
          response: { 200: pageOfSchema(WidgetConversationSchema) },
          detail: { summary: "The visitor's chat conversations, latest activity first", description: LIMITS_TEXT },
        },
      )
      .post(
        "/conversations",
        ({ visitor, body, request, set }) => {
          enter(visitor, request, set, "write");
          set.status = 201;
          return startConversation(deps, visitor, body);
        },
        {
          visitor: true,
          body: MessageBody,
          response: { 201: ConversationCreated },
          detail: {
            summary: "Start a chat: a `chat` ticket with the visitor's first message",
            description:
              "`body` is plain text (up to 5000 characters; markup is shown as typed); `attachment_ids` are the visitor's own " +
              `uploads from POST /v1/widget/attachments. ${LIMITS_TEXT}`,
          },
        },
      )
      .get(
        "/conversations/:id/messages",
        ({ visitor, params, request, set }) => {
          enter(visitor, request, set, "read");
          return { data: conversationMessages(deps, visitor, params.id), next_cursor: null };
        },
        {
          visitor: true,
          params: IdParams,
          response: { 200: z.object({ data: z.array(WidgetMessageSchema), next_cursor: z.null() }) },
          detail: {
            summary: "The public messages of the visitor's conversation, oldest first (never notes)",
            description: `Another visitor's conversation answers 404. ${LIMITS_TEXT}`,
          },
        },
      )
      .post(
        "/conversations/:id/messages",
        ({ visitor, params, body, request, set }) => {
          enter(visitor, request, set, "write");
          set.status = 201;
          return sendMessage(deps, visitor, params.id, body);
        },
        {
          visitor: true,
          params: IdParams,
          body: MessageBody,
          response: { 201: WidgetMessageSchema },
          detail: {
            summary: "Send a message in the visitor's conversation (reopens it when solved)",
            description: `Body as for a new conversation. ${LIMITS_TEXT}`,
          },
        },
      )
      .post(
        "/conversations/:id/handoff",
        ({ visitor, params, request, set }) => {
          enter(visitor, request, set, "write");
          return requestHandoff(deps, visitor, params.id);
        },
        {
          visitor: true,
          params: IdParams,
          response: { 200: HandoffAnswer },
          detail: {
            summary: "Ask for a person",
            description:
              "Sends an `ai_handoff` notification to the conversation's assignee, or to every owner and admin when nobody " +
              `is assigned; \`notified\` counts them. ${LIMITS_TEXT}`,
          },
        },
      )
      .post(
        "/attachments",
        async ({ visitor, request, set }) => {
          enter(visitor, request, set, "upload");
          set.status = 201;
          return uploadVisitorFile(deps, visitor, request);
        },
        {
          visitor: true,
          parse: "none",
          response: { 201: AttachmentSchema },
          detail: {
            summary: "Upload a file for the visitor's next message (multipart field `file`)",
            description:
              "At most 10 MB (413 `too_large`). The type is read from the content: PNG, JPEG, GIF, WebP, PDF or plain text; " +
              "anything else, or a name whose extension says another type, answers 422 `unsupported_file` and nothing is stored. " +
              `Only the visitor who uploaded a file may attach it. ${LIMITS_TEXT}`,
            requestBody: {
              required: true,
              content: {
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    properties: { file: { type: "string", format: "binary" } },
                    required: ["file"],
                  },
                },
              },
            },
          },
        },
      )
      .get("/settings", ({ ctx }) => getWidgetSettings(ctx, deps), {
        access: { role: "admin", scopes: ["settings:read"] },
        response: { 200: WidgetSettingsSchema },
        detail: {
          summary: "The chat widget's settings and embed snippet",
          description:
            "The widget secret for identity verification is rotated with POST /v1/workspace/widget-secret/rotate.",
        },
      })
      .patch("/settings", ({ ctx, body }) => updateWidgetSettings(ctx, body, deps), {
        access: { role: "admin", scopes: ["settings:write"] },
        body: SettingsPatch,
        response: { 200: WidgetSettingsSchema },
        detail: {
          summary: "Change the chat widget's settings",
          description:
            "`allowed_origins`: sites whose pages may run the widget (`https://shop.example`, `https://*.example.com`); " +
            "empty allows any. Enforced on POST /v1/widget/session (403) and by CORS on every widget route. " +
            "`enabled: false` makes GET /v1/widget/config answer 404 and ends visitor sessions' access (401).",
        },
      })
  );
}
