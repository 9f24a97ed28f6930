import type { Deps } from "../deps";
import { closeQuietly, eventStreamResponse, problemBody, sseFrame as frame, wantsEventStream } from "../http/sse";
import { DeskError } from "../lib/errors";
import { type AiTask, runTask } from "./ai.agent";
import { chat } from "./ai.provider";

/**
 * Runs a task as SPEC.md's stream: `delta` events `{ text }` as the provider's pieces arrive, then
 * one `done` whose data is the non-streaming JSON (the call is metered once, when it ends). A
 * failure after the stream began is an `error` event carrying the problem body. When the client
 * goes away, the provider request is aborted with it.
 */
export function streamTask<T>(deps: Deps, request: Request, task: AiTask<T>): Response {
  const abort = new AbortController();
  const onClientGone = () => abort.abort();
  request.signal.addEventListener("abort", onClientGone, { once: true });
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (bytes: Uint8Array) => {
        if (!abort.signal.aborted) controller.enqueue(bytes);
      };
      try {
        const result = await chat(deps, {
          ...task.call,
          signal: abort.signal,
          onDelta: (text) => send(frame("delta", { text })),
        });
        send(frame("done", task.finish(result)));
      } catch (error) {
        if (!(error instanceof DeskError)) deps.logger.error({ err: error, subsystem: "ai" }, "AI stream failed");
        send(frame("error", problemBody(error)));
      } finally {
        request.signal.removeEventListener("abort", onClientGone);
        closeQuietly(controller);
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return eventStreamResponse(stream);
}

/**
 * Streams when asked to, else answers the JSON; the provider call is cancelled if the caller leaves.
 * Typed as the JSON answer: Elysia sends a Response as it is, and the route's schema documents the
 * `done` event's data.
 */
export function runOrStream<T>(deps: Deps, request: Request, task: AiTask<T>): Promise<T> {
  if (wantsEventStream(request)) return Promise.resolve(streamTask(deps, request, task) as unknown as T);
  return runTask(deps, task, request.signal);
}
