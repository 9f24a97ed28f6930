import { DeskError } from "./errors";

export const JSON_BODY_LIMIT = 1024 * 1024;
/** Types a route may accept with its own parser; everything else must be JSON. */
const OWN_PARSERS = ["multipart/form-data", "message/rfc822", "application/octet-stream"];

/**
 * Runs after Elysia's JSON parser and before validation. An empty body reads as `{}` so routes
 * whose fields are all optional take a bare POST; a body sent as anything but JSON answers 415.
 */
export function normalizeBody(context: { request: Request; body: unknown }): void {
  const { request } = context;
  if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") return;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (OWN_PARSERS.includes(type) || type.startsWith("image/")) return;
  if (context.body === undefined || context.body === null || context.body === "") {
    context.body = {};
    return;
  }
  if (type !== "application/json" && !type.endsWith("+json") && typeof context.body === "string") {
    throw new DeskError(415, "unsupported_media_type", "Send the body as application/json.");
  }
}
