import { DeskError, internalError } from "../lib/errors";

/**
 * Server-Sent Events answers (the AI features' and the assistant's streams): the framing, the
 * problem body an `error` event carries and the headers that keep proxies from buffering.
 */

const encoder = new TextEncoder();

/** True when the caller asked for Server-Sent Events. */
export const wantsEventStream = (request: Request): boolean =>
  (request.headers.get("accept") ?? "").includes("text/event-stream");

/** One event: its name and its data as JSON. */
export const sseFrame = (event: string, data: unknown): Uint8Array =>
  encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/** The problem body of an `error` event: a DeskError's own, anything else the plain 500 (the caller logs it). */
export const problemBody = (error: unknown) => (error instanceof DeskError ? error : internalError()).toBody();

/** Closes a stream the client may already have cancelled. */
export function closeQuietly(controller: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    controller.close();
  } catch {
    // Already cancelled by the client.
  }
}

export function eventStreamResponse(stream: ReadableStream<Uint8Array>): Response {
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
