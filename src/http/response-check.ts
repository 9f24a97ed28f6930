import { z } from "zod";
import type { Logger } from "../lib/logger";
import { DeskError } from "../lib/errors";

/** A route's declared answers by status, keyed `METHOD /v1/path/:param` like Elysia's route. */
export type ResponseSchemas = Map<string, Record<string, z.ZodType>>;

/** Elysia keeps a route's `response` either as one schema (status 200) or as a map by status. */
export function responseSchemasOf(response: unknown): Record<string, z.ZodType> | null {
  if (response instanceof z.ZodType) return { 200: response };
  if (!response || typeof response !== "object") return null;
  const out: Record<string, z.ZodType> = {};
  for (const [status, schema] of Object.entries(response)) if (schema instanceof z.ZodType) out[status] = schema;
  return Object.keys(out).length ? out : null;
}

/**
 * Checks a handler's answer against its route's response schema (tests and development only:
 * production answers go out unchecked, which saved ~20% of a served GET /v1/me). Stricter than
 * validation: a field the schema does not describe is drift too, because nothing strips it on its
 * way out in production. A mismatch answers 500 and logs where the answer and the schema differ.
 */
export function createResponseCheck(schemas: ResponseSchemas, logger: Logger) {
  return function checkResponse(context: {
    request: Request;
    route: string;
    response: unknown;
    set: { status?: number | string };
  }): void {
    const { response } = context;
    if (response instanceof Response || response === undefined) return;
    const byStatus = schemas.get(`${context.request.method} ${context.route}`);
    if (!byStatus) return;
    const status = typeof context.set.status === "number" ? context.set.status : 200;
    const schema = byStatus[String(status)];
    if (!schema) return;
    const problem = schemaDrift(schema, response);
    if (!problem) return;
    logger.error(
      { route: `${context.request.method} ${context.route}`, status, problem },
      "answer does not match its response schema",
    );
    throw new DeskError(500, "internal_error", "Something went wrong on our side.");
  };
}

/**
 * Where `value` differs from `schema`: its issues, or the fields the schema does not describe
 * (what it would strip); null when it matches. Shared by the response check and event data checks.
 */
export function schemaDrift(schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    return parsed.error.issues.map((i) => `${i.path.join(".") || "(value)"}: ${i.message}`).join("; ");
  if (Bun.deepEquals(parsed.data, value)) return null;
  return `fields the schema does not describe: ${extraFields(parsed.data, value).join(", ") || "(values changed by the schema)"}`;
}

/** Paths present in `sent` but not in `checked` (what the schema would have stripped). */
function extraFields(checked: unknown, sent: unknown, at = ""): string[] {
  if (!sent || typeof sent !== "object" || !checked || typeof checked !== "object") return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    const path = at ? `${at}.${key}` : key;
    if (!(key in checked)) {
      if (value !== undefined) out.push(path);
    } else out.push(...extraFields((checked as Record<string, unknown>)[key], value, path));
  }
  return out;
}
