import { DeskError } from "../lib/errors";
import { checkJsonBounds } from "./json-bounds";

export const JSON_BODY_LIMIT = 1024 * 1024;
/** Types a route may take with its own reader (declared with `parse: "none"`); everything else must be JSON. */
const OWN_PARSERS = ["multipart/form-data", "message/rfc822", "application/octet-stream"];

const isJson = (type: string) => type === "application/json" || type.endsWith("+json");
const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
const unsupportedMediaType = () => new DeskError(415, "unsupported_media_type", "Send the body as application/json.");

/**
 * What a body Elysia failed to parse answers: 400 for broken JSON; 415 for anything else (a
 * malformed multipart or form body sent to a JSON route is refused for its type, as a valid one is).
 */
export const parseFailure = (request: Request): DeskError =>
  isJson(mediaType(request))
    ? new DeskError(400, "malformed_json", "The request body could not be parsed as JSON.")
    : unsupportedMediaType();

/**
 * Runs after Elysia's parser and before credentials and validation: the one place every request
 * body passes. An empty body reads as `{}` so routes whose fields are all optional take a bare
 * POST; a body sent as anything but JSON answers 415 (form and multipart included: Elysia would
 * parse them into objects the route's schema might accept); a JSON body past the shape limits or
 * holding NUL characters answers 422 before any schema walks it.
 */
export function normalizeBody(request: Request, body: unknown): unknown {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "DELETE") return body;
  const type = mediaType(request);
  // Upload routes declare `parse: "none"` and read the body themselves: it stays unparsed here.
  if (body === undefined && (OWN_PARSERS.includes(type) || type.startsWith("image/"))) return body;
  if (body === undefined || body === null || body === "") return {};
  if (!isJson(type)) throw unsupportedMediaType();
  checkJsonBounds(body);
  return body;
}
