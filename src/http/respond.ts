import type { DeskError } from "../lib/errors";

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(error: DeskError): Response {
  return jsonResponse(error.toBody(), error.status, error.headers ?? {});
}
