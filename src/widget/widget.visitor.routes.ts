import { Elysia } from "elysia";
import { z } from "zod";
import { AttachmentSchema } from "../attachments/attachments.public";
import type { VisitorContext } from "../auth/context";
import type { Deps } from "../deps";
import { IdParams, NoContent, PageQuery, pageOfSchema } from "../http/schemas";
import { markConversationSeen } from "./widget.chat-mail";
import {
  conversationMessages,
  listConversations,
  requestHandoff,
  sendMessage,
  startConversation,
} from "./widget.conversations";
import {
  spendVisitorBudget,
  WIDGET_AI_ALLOWANCE,
  WIDGET_LIMITS,
  WIDGET_UPLOAD_VOLUME,
  type VisitorAction,
} from "./widget.limits";
import {
  ConversationCreated,
  HandoffAnswer,
  MessageBody,
  SeenBody,
  WidgetConversationSchema,
  WidgetMessageSchema,
} from "./widget.schemas";
import { gatewayAnswer, touchVisitorSession } from "./widget.sessions";
import { uploadVisitorFile } from "./widget.uploads";

const LIMITS_TEXT =
  `Rate limits per minute: ${WIDGET_LIMITS.readsPerVisitor} reads and ${WIDGET_LIMITS.writesPerVisitor} writes per visitor, ` +
  `${WIDGET_LIMITS.writesPerAddress} writes per client address, ${WIDGET_LIMITS.uploadsPerVisitor} uploads per visitor; ` +
  `upload volume per hour: ${WIDGET_UPLOAD_VOLUME.mbPerVisitor} MB per visitor and ${WIDGET_UPLOAD_VOLUME.mbPerAddress} MB per client address ` +
  "(each started MB counts; 429 with Retry-After past them). Uploads no message took within an hour are removed. " +
  `AI per hour: ${WIDGET_AI_ALLOWANCE.aiPerVisitor} messages per visitor and ${WIDGET_AI_ALLOWANCE.aiPerAddress} per client address ` +
  "may set the AI going (an answer; on a new chat, auto-triage and AI conditions); later ones are stored and left to people. CORS and Idempotency-Key: as on POST /v1/widget/session.";

/**
 * Every visitor route starts here (`enters: "read" | "write" | "upload"`): budget, CORS by the
 * workspace's origins, the session's expiry moved.
 */
function visitorEntry(deps: Deps) {
  return new Elysia().use(deps.guard).macro({
    // Each route using it also says `visitor: true`, whose guard has resolved the visitor by now.
    enters: (action: VisitorAction) => ({
      async beforeHandle({ visitor, request }: { visitor?: VisitorContext; request: Request }) {
        await spendVisitorBudget(deps, request, visitor!, action);
        await touchVisitorSession(deps, visitor!.visitorSessionId);
      },
    }),
  });
}

/** What a visitor's page calls besides chats: a new gateway token, uploads for the next message. */
function visitorSessionRoutes(deps: Deps) {
  return new Elysia({ tags: ["widget"] })
    .use(visitorEntry(deps))
    .post(
      "/gateway-token",
      async ({ visitor }) => {
        return gatewayAnswer(visitor.workspaceId, visitor.contactId, deps);
      },
      {
        visitor: true,
        enters: "read",
        response: { 200: z.object({ ws_token: z.string(), gateway_url: z.string() }) },
        detail: {
          summary: "A fresh 5-minute gateway token for the visitor (reconnecting after the first one expired)",
          description:
            `Reconnect with \`&since=<seq>\` to first receive the public events of your chats missed after that seq. ` +
            "An invalid or expired gateway token answers 401 without an upgrade; past " +
            `${deps.config.realtimeLimits.widgetPerToken} sockets per gateway token, ` +
            `${deps.config.realtimeLimits.widgetPerVisitor} per visitor or ` +
            `${deps.config.realtimeLimits.widgetPerAddress} per client address (DESK_WIDGET_SOCKETS_PER_TOKEN, ` +
            `_PER_VISITOR, _PER_ADDRESS) the upgrade answers 429 \`too_many_sockets\`. ${LIMITS_TEXT}`,
        },
      },
    )
    .post(
      "/attachments",
      async ({ visitor, request, set }) => {
        set.status = 201;
        return uploadVisitorFile(deps, visitor, request);
      },
      {
        visitor: true,
        enters: "upload",
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
    );
}

/** The visitor's chats: the list, a new one, asking for a person. */
function visitorConversationRoutes(deps: Deps) {
  return new Elysia({ tags: ["widget"] })
    .use(visitorEntry(deps))
    .get(
      "/conversations",
      async ({ visitor, query }) => {
        return await listConversations(deps, visitor, query);
      },
      {
        visitor: true,
        enters: "read",
        query: PageQuery,
        response: { 200: pageOfSchema(WidgetConversationSchema) },
        detail: { summary: "The visitor's chat conversations, latest activity first", description: LIMITS_TEXT },
      },
    )
    .post(
      "/conversations",
      async ({ visitor, body, set }) => {
        set.status = 201;
        return await startConversation(deps, visitor, body);
      },
      {
        visitor: true,
        enters: "write",
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
    .post(
      "/conversations/:id/handoff",
      async ({ visitor, params }) => {
        return await requestHandoff(deps, visitor, params.id);
      },
      {
        visitor: true,
        enters: "write",
        params: IdParams,
        response: { 200: HandoffAnswer },
        detail: {
          summary: "Ask for a person",
          description:
            "Sends an `ai_handoff` notification to the conversation's assignee, or to every owner and admin when nobody " +
            `is assigned; \`notified\` counts them. ${LIMITS_TEXT}`,
        },
      },
    );
}

/** The messages of one of the visitor's chats, and how far the visitor has seen them. */
function visitorMessageRoutes(deps: Deps) {
  return new Elysia({ tags: ["widget"] })
    .use(visitorEntry(deps))
    .get(
      "/conversations/:id/messages",
      async ({ visitor, params }) => {
        return { data: await conversationMessages(deps, visitor, params.id), next_cursor: null };
      },
      {
        visitor: true,
        enters: "read",
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
      async ({ visitor, params, body, set }) => {
        set.status = 201;
        return await sendMessage(deps, visitor, params.id, body);
      },
      {
        visitor: true,
        enters: "write",
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
      "/conversations/:id/seen",
      async ({ visitor, params, body, set }) => {
        await markConversationSeen(deps, visitor, params.id, body.message_id);
        set.status = 204;
        return null;
      },
      {
        visitor: true,
        enters: "read",
        params: IdParams,
        body: SeenBody,
        response: { 204: NoContent },
        detail: {
          summary: "The visitor saw the conversation up to a message (the widget reports it while the thread is shown)",
          description:
            "An agent's reply the visitor has not seen DESK_CHAT_MAIL_DELAY (default 2 minutes) after it was sent is mailed to the " +
            "visitor's email (unseen replies batched into one mail); replies up to `message_id` are not. Marks only move " +
            "forward. Another visitor's conversation answers 404; a message not in it 422 at body.message_id. " +
            LIMITS_TEXT,
        },
      },
    );
}

/** The routes a visitor session (`Authorization: Visitor <token>`) calls, mounted under /widget. */
export const widgetVisitorRoutes = (deps: Deps) =>
  new Elysia().use(visitorSessionRoutes(deps)).use(visitorConversationRoutes(deps)).use(visitorMessageRoutes(deps));
