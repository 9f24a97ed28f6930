import { z } from "zod";
import { guardRuleOf, type GuardRule } from "./guard-rules";
import { idempotencyApplies } from "./idempotency";
import { ErrorBody } from "./schemas";

/**
 * Builds /v1/openapi.json from the routes themselves: their zod schemas give parameters, bodies and
 * answers, and their guard rule (`access`, `signedIn`, `identified`) gives security, the
 * DESK-Workspace header and the error answers the guard can produce. Validation, body parsing and
 * idempotency add theirs the same way, so no route restates the errors every route shares.
 */

export type RouteSchemas = {
  body?: unknown;
  query?: unknown;
  params?: unknown;
  response?: unknown;
  detail?: unknown;
  transform?: unknown;
};
export type DocumentedRoute = { method: string; path: string; hooks: RouteSchemas };

type Json = Record<string, unknown>;
type Operation = Json & { responses: Record<string, Json> };

/** Error answers shared by many operations, each a reusable response holding the error body. */
const ERRORS = {
  400: { name: "MalformedBody", description: "The body is not well-formed JSON (`malformed_json`)." },
  401: { name: "Unauthorized", description: "Missing, invalid, expired or revoked credentials (`unauthorized`)." },
  403: { name: "Forbidden", description: "The role or the API key's scopes do not allow this (`forbidden`)." },
  404: {
    name: "NotFound",
    description: "No such record in the caller's workspace, or the workspace is not the caller's (`not_found`).",
  },
  409: {
    name: "Conflict",
    description:
      "The request conflicts with the current state, or a request with the same Idempotency-Key is still running or had another body.",
  },
  413: { name: "TooLarge", description: "The body is over its size limit (`too_large`)." },
  415: {
    name: "UnsupportedMediaType",
    description: "The body is not sent as the type this operation reads (`unsupported_media_type`).",
  },
  422: {
    name: "ValidationFailed",
    description: "The input is invalid; `errors[]` locates each problem, like `body.name` (`validation_failed`).",
  },
  429: {
    name: "RateLimited",
    description:
      "Too many requests; `Retry-After` says when to try again (`rate_limited`). Limited routes also send `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every answer.",
  },
} as const satisfies Record<number, { name: string; description: string }>;
type ErrorStatus = keyof typeof ERRORS;

const STATUS_TEXT: Record<string, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No content",
  302: "Found: the answer is a redirect",
};

type Detail = {
  hide?: boolean;
  tags?: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security?: Json[];
  requestBody?: Json;
  responses?: Record<string, Json>;
  parameters?: Json[];
};

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** `/v1/contacts/` and `/v1/contacts/:id` → `/v1/contacts` and `/v1/contacts/{id}`. The router answers both spellings. */
export const documentedPath = (path: string): string => (path.replace(/\/+$/, "") || "/").replace(/:(\w+)/g, "{$1}");

/** An event type as the document shows it: what a webhook receiver is sent for it. */
export type DocumentedEvent = { type: string; schema: z.ZodType; description: string; subscribable: boolean };

export type OpenApiOptions = {
  serverUrl: string;
  /** The event catalogue's types webhooks are sent, documented under `webhooks` (OpenAPI 3.1). */
  events?: readonly DocumentedEvent[];
  /** Every API key scope, in its canonical order, with what it allows (the guards' vocabulary, auth's). */
  scopes: Readonly<Record<string, string>>;
};

type Convert = (schema: z.ZodType, io: "input" | "output") => Json;

export function buildOpenApiDocument(routes: readonly DocumentedRoute[], options: OpenApiOptions): Json {
  const schemas: Record<string, Json> = {};
  const convert: Convert = (schema, io) =>
    hoist(z.toJSONSchema(schema, { unrepresentable: "any", io, target: "draft-2020-12" }) as Json, schemas);

  const allScopes = Object.keys(options.scopes);
  const { paths, usedScopes, visitorRoutes } = describePaths(routes, convert);

  const webhooks = Object.fromEntries(
    (options.events ?? []).map((event) => [event.type, describeEvent(event, convert)]),
  );

  const bodyOf = (description: string): Json => ({
    description,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });
  const error = convert(ErrorBody, "output");
  // ErrorBody is a registered component once src/openapi-components.ts ran; name it anyway.
  if (!error.$ref) schemas.Error = error;
  const scopeRefs = scopeEnumsToRef(allScopes);
  const documentedPaths = scopeRefs(paths) as typeof paths;
  const components = {
    ...(scopeRefs(schemas) as Record<string, Json>),
    Scope: { type: "string", enum: allScopes.filter((s) => usedScopes.has(s)), description: "An API key scope." },
  };
  const document: Json = {
    openapi: "3.1.0",
    info: {
      title: "Desk API",
      version: "1",
      description:
        "Self-hosted multi-tenant help desk. Authenticate with `Authorization: Bearer <API key>` (the key's workspace, bounded by its scopes), " +
        "or a signed-in access token plus the `DESK-Workspace: <workspace id>` header. Errors answer `{ status, code, detail, errors? }`. " +
        "Lists page with `limit` and `cursor` and answer `{ data, next_cursor }`. Every POST outside /v1/auth takes an `Idempotency-Key`.",
    },
    servers: [{ url: options.serverUrl, description: "This Desk" }],
    security: [{ bearer: [] }],
    paths: documentedPaths,
    ...(Object.keys(webhooks).length ? { webhooks: scopeRefs(webhooks) } : {}),
    components: {
      schemas: pageComponents(components, documentedPaths),
      responses: Object.fromEntries(Object.values(ERRORS).map((e) => [e.name, bodyOf(e.description)])),
      parameters: {
        Workspace: {
          name: "DESK-Workspace",
          in: "header",
          required: false,
          description:
            "The workspace to act in. Required with a signed-in person's access token; ignored for API keys, which belong to one workspace.",
          schema: { type: "string", maxLength: 100 },
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "Makes a retry safe: the first answer for this key is replayed for 24 hours.",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
      },
      securitySchemes: securitySchemes(usedScopes, visitorRoutes, options.scopes),
    },
  };
  return document;
}

/** Each documented /v1 route as an operation, with the scopes and guards they use. */
function describePaths(routes: readonly DocumentedRoute[], convert: Convert) {
  const usedScopes = new Set<string>();
  let visitorRoutes = false;
  const paths: Record<string, Record<string, Operation>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const detail = (route.hooks.detail ?? {}) as Detail;
    if (!route.path.startsWith("/v1/") || detail.hide) continue;
    const method = route.method.toLowerCase();
    const path = documentedPath(route.path);
    const guard = guardRuleOf(route.hooks.transform);
    if (guard?.kind === "access") for (const scope of guard.rule.scopes ?? []) usedScopes.add(scope);
    if (guard?.kind === "visitor") visitorRoutes = true;
    const operation = describeOperation(route, method, path, detail, guard, convert);
    let id = operationIdOf(method, path);
    while (operationIds.has(id)) id += "_";
    operationIds.add(id);
    operation.operationId = id;
    paths[path] = { ...paths[path], [method]: operation };
  }
  return { paths, usedScopes, visitorRoutes };
}

function securitySchemes(usedScopes: Set<string>, visitorRoutes: boolean, scopes: OpenApiOptions["scopes"]): Json {
  return {
    bearer: {
      type: "http",
      scheme: "bearer",
      description:
        "An API key (`desk_live_…`) or a signed-in access token. API key scopes: " +
        [...usedScopes]
          .sort()
          .map((s) => `\`${s}\` (${scopes[s]})`)
          .join(", ") +
        ".",
    },
    inboundSecret: {
      type: "apiKey",
      in: "header",
      name: "DESK-Inbound-Secret",
      description: "The shared secret of the raw inbound mail door (DESK_INBOUND_SECRET).",
    },
    ...(visitorRoutes
      ? {
          visitor: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description: "`Visitor <token>`: a chat widget visitor's session token; the workspace is the session's.",
          },
        }
      : {}),
  };
}

/**
 * One event type as a webhook receiver sees it: a POST of the envelope without `topics`, whose
 * `type` is the event's and whose `data` has the definition's schema (the same components the
 * REST answers use).
 */
function describeEvent(event: DocumentedEvent, convert: Convert): Json {
  const envelope = z.object({
    id: z.string(),
    seq: z.number().describe("contiguous per workspace"),
    workspace_id: z.string(),
    type: z.literal(event.type),
    visibility: z.enum(["agents", "public"]),
    data: event.schema,
    occurred_at: z.string(),
  });
  return {
    post: {
      summary: event.type,
      description:
        event.description +
        (event.subscribable ? "" : " Not subscribable by name.") +
        " Signed with `DESK-Signature`; `DESK-Event-Id` and `DESK-Event-Type` name it. The same envelope, plus `topics`, reaches the realtime gateway and GET /v1/events.",
      requestBody: { required: true, content: { "application/json": { schema: convert(envelope, "output") } } },
      responses: { "2XX": { description: "Any 2xx status acknowledges the delivery; anything else is retried." } },
    },
  };
}

function describeOperation(
  route: DocumentedRoute,
  method: string,
  path: string,
  detail: Detail,
  guard: GuardRule | null,
  convert: Convert,
): Operation {
  const { hooks } = route;
  const errors = new Set<ErrorStatus>();
  const parameters = parametersOf(route, path, detail, guard, convert, errors);

  let requestBody: Json | undefined = detail.requestBody;
  if (!requestBody && isZod(hooks.body)) {
    // An empty body reads as `{}` (src/http/parse.ts), so a body whose fields are all optional may be left out.
    requestBody = {
      required: !hooks.body.safeParse({}).success,
      content: { "application/json": { schema: convert(hooks.body, "input") } },
    };
    errors.add(400).add(415).add(422);
  }
  if (requestBody) errors.add(413);
  addGuardErrors(guard, errors);
  const responses = responsesOf(route, method, detail, convert, errors);

  const operation: Operation = { responses };
  if (detail.tags?.length) operation.tags = detail.tags;
  if (detail.summary) operation.summary = detail.summary;
  if (detail.description) operation.description = detail.description;
  if (detail.deprecated) operation.deprecated = true;
  if (parameters.length) operation.parameters = parameters;
  if (requestBody) operation.requestBody = requestBody;
  // Routes without a guard authenticate in their own way (or not at all): they state it, else they are public.
  if (detail.security) operation.security = detail.security;
  else if (!guard || guard.kind === "public") operation.security = [];
  else if (guard.kind === "visitor") operation.security = [{ visitor: [] }];
  return operation;
}

/** Path, query and header parameters, adding the errors they can cause. */
function parametersOf(
  route: DocumentedRoute,
  path: string,
  detail: Detail,
  guard: GuardRule | null,
  convert: Convert,
  errors: Set<ErrorStatus>,
): Json[] {
  const { hooks } = route;
  const parameters: Json[] = [];
  const paramSchema = isZod(hooks.params) ? convert(hooks.params, "input") : null;
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    const schema = (paramSchema?.properties as Record<string, Json> | undefined)?.[name!] ?? { type: "string" };
    parameters.push({ name, in: "path", required: true, schema });
  }
  if (parameters.length) errors.add(404).add(422);
  if (isZod(hooks.query)) {
    const query = convert(hooks.query, "input");
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties as Record<string, Json> | undefined) ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
    errors.add(422);
  }
  if (guard?.kind === "access") parameters.push({ $ref: "#/components/parameters/Workspace" });
  if (idempotencyApplies(route.method, route.path)) {
    parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
    errors.add(409).add(422);
  }
  parameters.push(...(detail.parameters ?? []));
  return parameters;
}

function addGuardErrors(guard: GuardRule | null, errors: Set<ErrorStatus>): void {
  switch (guard?.kind) {
    case "access":
      // 403: role or scope; 404: a DESK-Workspace the person is no member of; 422: no DESK-Workspace.
      errors.add(401).add(403).add(404).add(422);
      break;
    case "signedIn":
      errors.add(401).add(403);
      break;
    case "identified":
    case "visitor":
      errors.add(401);
      break;
    case "public":
      errors.add(429);
      break;
  }
}

/** The declared answers, then every error the operation can give as a shared response. */
function responsesOf(
  route: DocumentedRoute,
  method: string,
  detail: Detail,
  convert: Convert,
  errors: Set<ErrorStatus>,
): Record<string, Json> {
  const { hooks } = route;
  const responses: Record<string, Json> = {};
  const declared = isZod(hooks.response)
    ? { 200: hooks.response }
    : ((hooks.response ?? {}) as Record<string, unknown>);
  for (const [status, schema] of Object.entries(declared)) {
    if (Number(status) >= 400) {
      if (Number(status) in ERRORS) errors.add(Number(status) as ErrorStatus);
      else
        responses[status] = {
          description: "Error",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        };
      continue;
    }
    if (!isZod(schema) || schema instanceof z.ZodNull) {
      responses[status] = { description: STATUS_TEXT[status] ?? "Success" };
      continue;
    }
    responses[status] = {
      description: STATUS_TEXT[status] ?? "Success",
      content: { "application/json": { schema: convert(schema, "output") } },
    };
  }
  for (const [status, response] of Object.entries(detail.responses ?? {})) {
    if (Number(status) >= 400 && Number(status) in ERRORS) errors.add(Number(status) as ErrorStatus);
    else responses[status] = response;
  }
  if (method === "delete" && !Object.keys(responses).some((s) => s.startsWith("2")))
    responses["204"] = { description: STATUS_TEXT[204]! };
  for (const status of [...errors].sort())
    responses[String(status)] = { $ref: `#/components/responses/${ERRORS[status].name}` };
  return responses;
}

/** `get /v1/tickets/{id}/messages` → `getTicketsByIdMessages`. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/v1\//, "")
    .split("/")
    .map((segment) => (segment.startsWith("{") ? `By_${segment.slice(1, -1)}` : segment))
    .join("_")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/**
 * Moves a converted schema's `$defs` (schemas registered with an id, like `Ticket`) into the
 * document's components and points its references there. A definition that differs from a
 * component of the same name (a request's input form of it) gets a numbered name.
 */
function hoist(converted: Json, components: Record<string, Json>): Json {
  const { $schema: _dialect, $defs, ...schema } = converted;
  const definitions = Object.entries(($defs ?? {}) as Record<string, Json>);
  const names = new Map<string, string>();
  const retarget = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(retarget);
    if (!value || typeof value !== "object") return value;
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      const def = key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/") ? inner.slice(8) : null;
      out[key] = def !== null ? `#/components/schemas/${names.get(def) ?? def}` : retarget(inner);
    }
    return out;
  };
  // Compared in their final form (references already pointing at components).
  const final = new Map(definitions.map(([name, definition]) => [name, retarget(definition) as Json]));
  for (const [name, definition] of final) {
    let chosen = name;
    for (let n = 2; components[chosen] && !Bun.deepEquals(components[chosen], definition); n++) chosen = `${name}${n}`;
    names.set(name, chosen);
  }
  for (const [name, definition] of definitions) components[names.get(name)!] ??= retarget(definition) as Json;
  return retarget(schema) as Json;
}

/**
 * Every enum of all scopes becomes a reference to one `Scope` component, which lists only the scopes
 * some served route asks for: scopes reserved for routes not served yet (the knowledge base) are
 * not advertised.
 */
function scopeEnumsToRef(scopes: readonly string[]): (value: unknown) => unknown {
  const all = [...scopes].sort().join(" ");
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    const enumValues = (value as Json).enum;
    if (Array.isArray(enumValues) && [...enumValues].sort().join(" ") === all)
      return { $ref: "#/components/schemas/Scope" };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return walk;
}

/**
 * Lists answer `{ data, next_cursor }`: each such shape whose items are a component becomes a
 * component of its own (`TicketPage`; `TagList` for complete lists whose next_cursor is always null).
 */
function pageComponents(
  components: Record<string, Json>,
  paths: Record<string, Record<string, Operation>>,
): Record<string, Json> {
  const pageName = (value: Json): string | null => {
    const properties = value.properties as Record<string, Json> | undefined;
    if (value.type !== "object" || !properties || Object.keys(properties).join(",") !== "data,next_cursor") return null;
    const ref = (properties.data?.items as Json | undefined)?.$ref;
    if (properties.data?.type !== "array" || typeof ref !== "string") return null;
    const item = ref.split("/").pop()!;
    return properties.next_cursor?.type === "null" ? `${item}List` : `${item}Page`;
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    const name = pageName(value as Json);
    if (name) {
      components[name] ??= value as Json;
      if (Bun.deepEquals(components[name], value)) return { $ref: `#/components/schemas/${name}` };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  for (const item of Object.values(paths))
    for (const [method, operation] of Object.entries(item)) item[method] = walk(operation) as Operation;
  return components;
}
