import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams } from "../http/schemas";
import { closeQuietly, eventStreamResponse, problemBody, sseFrame as frame, wantsEventStream } from "../http/sse";
import { DeskError } from "../lib/errors";
import { type StartedRun, startDecision, startMessage } from "./assistant.flow";
import type { Emit, RunResult } from "./assistant.run";
import {
  AssistantSessionSchema,
  CreateSessionBody,
  DecisionBody,
  MessageBody,
  RenameSessionBody,
  RunSchema,
  SessionDetailSchema,
  TipSchema,
} from "./assistant.schemas";
import {
  createSession,
  deleteSession,
  listSessions,
  presentSession,
  renameSession,
  requireAssistant,
  sessionDetail,
  sessionOf,
} from "./assistant.service";
import { type SlaClockReader, tipsFor } from "./assistant.tips";
import { type AssistantTool, BULK_CAP } from "./assistant.tools";
import { z } from "zod";

const viewer = { role: "viewer", scopes: ["tickets:read"] } as const;
const COMMON =
  " Signed-in people only (an API key answers 403); 403 `assistant_off` unless AI is on for the instance and the workspace and `settings.ai.assistant` is on.";
const RUN = ` With \`Accept: text/event-stream\` the run streams \`session\`, \`text\` ({ text }), \`tool\` (a step, at its start and end), \`approval\` ({ action_id, call_id, tool, preview, token, expires_at }), \`done\` ({ status }) and \`error\` (a problem body; the stream ends); without it one object \`{ session, text, steps, approval, status }\`. Errors found before the first piece of output (404, 409 \`assistant_busy\`, 429, 501 \`ai_unsupported\`, provider failures) answer as plain HTTP errors. Tool results are bounded (pages of at most 20 tickets, 15 messages of at most 1500 characters, at most 6000 characters a result, truncated with a note). Change tools are offered only when the person's message asks for a change; every change is a preview awaiting approval.${COMMON}`;

/**
 * Streams a run when asked (answering a plain HTTP error if it fails before any output), else runs
 * it and answers the JSON. The provider call is cancelled when the client goes away.
 */
async function respond(deps: Deps, request: Request, started: StartedRun): Promise<RunResult> {
  if (!wantsEventStream(request)) {
    try {
      return await started.run(() => {}, request.signal);
    } finally {
      started.release();
    }
  }
  const abort = new AbortController();
  request.signal.addEventListener("abort", () => abort.abort(), { once: true });
  const queued: Uint8Array[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let output = false;
  let signalOutput = () => {};
  const first = new Promise<void>((resolve) => {
    signalOutput = resolve;
  });
  const emit: Emit = (event, data) => {
    const bytes = frame(event, data);
    if (event !== "session") {
      output = true;
      signalOutput();
    }
    if (abort.signal.aborted) return;
    if (controller) controller.enqueue(bytes);
    else queued.push(bytes);
  };
  const done = started.run(emit, abort.signal).finally(started.release);
  await Promise.race([
    first,
    done.then(
      () => {},
      () => {},
    ),
  ]);
  if (!output) await done;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const bytes of queued.splice(0)) c.enqueue(bytes);
      // The run goes on after this returns: its end closes the stream, its failure becomes the error frame.
      void done
        .catch((error) => {
          if (!(error instanceof DeskError))
            deps.logger.error({ err: error, subsystem: "assistant" }, "assistant run failed");
          if (!abort.signal.aborted) c.enqueue(frame("error", problemBody(error)));
        })
        .finally(() => closeQuietly(c));
    },
    cancel() {
      abort.abort();
    },
  });
  // Elysia sends a Response as it is; the route's schema documents the JSON form.
  return eventStreamResponse(stream) as unknown as RunResult;
}

export function assistantRoutes(deps: Deps, tools: AssistantTool[], sla: SlaClockReader | null) {
  return new Elysia({ tags: ["assistant"] })
    .use(deps.guard)
    .use(sessionRoutes(deps))
    .use(runRoutes(deps, tools, sla));
}

/** Your conversations: list, start, read, rename, delete. */
function sessionRoutes(deps: Deps) {
  return new Elysia({ prefix: "/assistant", tags: ["assistant"] })
    .use(deps.guard)
    .get("/sessions", async ({ ctx }) => ({ data: await listSessions(deps, ctx, await requireAssistant(deps, ctx)) }), {
      access: viewer,
      response: { 200: z.object({ data: z.array(AssistantSessionSchema) }) },
      detail: { summary: "Your assistant conversations, newest first (at most 100)", description: COMMON },
    })
    .post(
      "/sessions",
      async ({ ctx, body, set }) => {
        const userId = await requireAssistant(deps, ctx);
        set.status = 201;
        return presentSession(await createSession(deps, ctx, userId, body?.title));
      },
      {
        access: viewer,
        body: CreateSessionBody,
        response: { 201: AssistantSessionSchema },
        detail: {
          summary: "Start a conversation",
          description: `Body \`{ title? }\`; without a title the first message names it.${COMMON}`,
        },
      },
    )
    .get(
      "/sessions/:id",
      async ({ ctx, params }) =>
        await sessionDetail(deps, await sessionOf(deps, ctx, await requireAssistant(deps, ctx), params.id)),
      {
        access: viewer,
        params: IdParams,
        response: { 200: SessionDetailSchema },
        detail: {
          summary: "A conversation: its turns with their steps and any pending approval",
          description: `Another user's conversation answers 404. The pending approval's token is not shown again (it was in the run's \`approval\`).${COMMON}`,
        },
      },
    )
    .patch(
      "/sessions/:id",
      async ({ ctx, params, body }) =>
        presentSession(await renameSession(deps, ctx, await requireAssistant(deps, ctx), params.id, body.title)),
      {
        access: viewer,
        params: IdParams,
        body: RenameSessionBody,
        response: { 200: AssistantSessionSchema },
        detail: { summary: "Rename a conversation", description: `Body \`{ title }\` (1 to 200 characters).${COMMON}` },
      },
    )
    .delete(
      "/sessions/:id",
      async ({ ctx, params, set }) => {
        await deleteSession(deps, ctx, await requireAssistant(deps, ctx), params.id);
        set.status = 204;
        return null;
      },
      {
        access: viewer,
        params: IdParams,
        detail: {
          summary: "Delete a conversation and its approvals",
          description: `409 \`assistant_busy\` while it runs.${COMMON}`,
        },
      },
    );
}

/** What runs the assistant: a message, a decision on a proposed change, and the tips. */
function runRoutes(deps: Deps, tools: AssistantTool[], sla: SlaClockReader | null) {
  return new Elysia({ prefix: "/assistant", tags: ["assistant"] })
    .use(deps.guard)
    .post(
      "/sessions/:id/messages",
      async ({ ctx, params, body, request }) => {
        const userId = await requireAssistant(deps, ctx);
        return respond(deps, request, await startMessage(deps, ctx, userId, params.id, body, tools));
      },
      {
        access: viewer,
        params: IdParams,
        body: MessageBody,
        response: { 200: RunSchema },
        detail: {
          summary: "Send a message: the assistant looks things up and may propose a change",
          description: `30 messages a minute per person (429). A new message expires a pending approval (its step becomes \`expired\`).${RUN}`,
        },
      },
    )
    .post(
      "/actions/:id/decision",
      async ({ ctx, params, body, request }) => {
        const userId = await requireAssistant(deps, ctx);
        return respond(deps, request, await startDecision(deps, ctx, userId, params.id, body, tools));
      },
      {
        access: viewer,
        params: IdParams,
        body: DecisionBody,
        response: { 200: RunSchema },
        detail: {
          summary: "Approve or deny a proposed change; the run continues",
          description: `The token is bound to the action, the person, their sign-in session and the workspace, and lasts 15 minutes: a wrong token (or another sign-in session) answers 403 \`approval_invalid\`, an expired one too (and the approval becomes \`expired\`); a second decision 409 \`approval_not_pending\`. Approve performs the change through the regular service functions with the person's permissions (a change they could not make fails as it would for them, and the approval is spent); A bulk change is bound to the tickets its preview counted (at most ${BULK_CAP}; a filter listing every status is no filter): when the filter matches other tickets at approval, it answers 409 \`approval_stale\` and changes nothing. A change is offered only after a dry run shows it would succeed; one that would fail is explained in the step instead. Preview changes carry \`label\`, \`from_text\` and \`to_text\`: the field and values in words (people and teams by name). Activities carry actor \`ai\` with the approving user; audit \`assistant.action\` records approvals, denials and failures.${RUN}`,
        },
      },
    )
    .get("/tips", async ({ ctx }) => ({ tips: await tipsFor(deps, ctx, await requireAssistant(deps, ctx), sla) }), {
      access: viewer,
      response: { 200: z.object({ tips: z.array(TipSchema) }) },
      detail: {
        summary: "Tips from counts (no model call, free)",
        description: `Tips with a count of zero are left out. \`sla_breached\`: open tickets that missed a deadline; \`sla_due_soon\`: due within an hour; \`sla_at_risk\`: due within 4 hours with triage's stored sla_risk at least 0.6; \`unassigned_old\`: open and unassigned for over 24 hours; \`mine_waiting\`: open, assigned to you, the customer wrote last.${COMMON}`,
      },
    });
}
