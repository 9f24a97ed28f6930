import { expect, test } from "bun:test";
import fc from "fast-check";
import { createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";
import { storedState } from "./fingerprint";

/**
 * A request fuzzer over every operation of /v1/openapi.json: for each one, fast-check builds
 * requests that break its declared shapes (a body of the wrong type, each property given a wrong
 * type, a huge value or a deeply nested one, unknown properties, bad query values, hostile path ids)
 * and sends them as the workspace owner. Whatever arrives: never a 5xx, never a stall, always
 * SPEC.md's error body for a refusal, and a refused request stores nothing (every stored row reads the
 * same before and after). `FUZZ_RUNS` sets the cases per operation, `FUZZ_SEED` replays a run.
 */
type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
};
type Parameter = { name: string; in: "query" | "path" | "header"; schema?: Schema; $ref?: string };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** A request answering slower than this counts as a stall (each is in-process: milliseconds normally). */
const STALL_MS = 5_000;
/** Operations that end the caller's own session or workspace: fuzzing them would end the run. */
const SKIPPED = [/^post \/v1\/auth\/logout$/, /^delete \/v1\/workspace$/, /^delete \/v1\/me/];

const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
const { owner } = await createWorkspaceWithOwner(desk);
const headers = owner.headers;
const doc = (await desk.api("GET", "/v1/openapi.json")).body as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
};

/** Real records, so path ids reach the handlers' validation and not only their 404. */
const ticket = (await desk.api("POST", "/v1/tickets", { headers, body: { subject: "Fuzzed ticket" } })).body;
const contact = (await desk.api("POST", "/v1/contacts", { headers, body: { email: "fuzz@example.com" } })).body;
const company = (await desk.api("POST", "/v1/companies", { headers, body: { name: "Fuzz Inc" } })).body;
const view = (await desk.api("POST", "/v1/views", { headers, body: { name: "Fuzz view" } })).body;
const realIds: Record<string, string> = {
  tickets: ticket.id,
  contacts: contact.id,
  companies: company.id,
  views: view.id,
};

const resolve = (schema: Schema | undefined): Schema => {
  if (!schema?.$ref) return schema ?? {};
  return resolve(doc.components.schemas[schema.$ref.split("/").at(-1)!]);
};
const typeOf = (schema: Schema): string => {
  const s = resolve(schema);
  if (s.anyOf || s.oneOf) return "mixed";
  return (Array.isArray(s.type) ? s.type[0] : s.type) ?? (s.properties ? "object" : "any");
};

const deep = (depth: number): unknown => (depth === 0 ? "leaf" : { a: deep(depth - 1) });
/** A value of another JSON type than `type`, or one at the edge of sizes. */
const wrongValue = (type: string) =>
  fc
    .oneof(
      fc.constantFrom<unknown>(
        null,
        true,
        -1,
        1e308,
        0.5,
        "",
        "x".repeat(1_100_000),
        [],
        {},
        deep(40),
        Array.from({ length: 2_000 }, (_, i) => i),
        "\u0000",
        "'; DROP TABLE tickets; --",
        "<script>alert(1)</script>",
        "../../etc/passwd",
        "😀".repeat(3000),
      ),
      fc.string(),
      fc.integer(),
      fc.object(),
    )
    .filter((value) => type === "any" || type === "mixed" || jsonType(value) !== type);

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function bodyArbitrary(schema: Schema | undefined) {
  const s = resolve(schema);
  const props = Object.entries(s.properties ?? {});
  const whole = wrongValue("object").map((body) => ({ body, what: "the whole body" }));
  if (props.length === 0) return whole;
  const oneProperty = fc
    .tuple(fc.constantFrom(...props), fc.nat())
    .chain(([[name, prop]]) =>
      wrongValue(typeOf(prop)).map((value) => ({ body: { [name]: value }, what: `body.${name}` })),
    );
  const unknown = fc
    .string({ minLength: 1, maxLength: 20 })
    .filter((k) => !(k in (s.properties ?? {})))
    .map((k) => ({ body: { [k]: "unexpected" }, what: `unknown property ${k}` }));
  return fc.oneof(whole, oneProperty, oneProperty, unknown);
}

const queryValue = fc.constantFrom(
  "-1",
  "0",
  "1e309",
  "abc",
  "%00",
  "x".repeat(5_000),
  "[]",
  "{}",
  "null",
  "2026-13-45",
  "field.nope",
);
const pathId = fc.constantFrom("nope", "0", "-1", "x".repeat(300), "%2e%2e", "00000000-0000-0000-0000-000000000000");

const changes = async () => await storedState(desk.deps.db);

type Case = { path: string; body?: unknown; what: string };

async function send(method: string, c: Case): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const res = await Promise.race([
    desk.api(method.toUpperCase(), c.path, { headers, body: c.body }),
    Bun.sleep(STALL_MS).then(() => null),
  ]);
  const ms = performance.now() - started;
  if (!res) throw new Error(`${method} ${c.path} (${c.what}) did not answer within ${STALL_MS} ms`);
  return { status: res.status, body: res.body, ms };
}

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .filter(([method]) => !SKIPPED.some((re) => re.test(`${method} ${path}`)))
    .map(([method, op]) => ({ method, path, op })),
);

test(`every operation (${operations.length}) survives hostile input: no 5xx, no stall, refusals store nothing`, async () => {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  for (const { method, path, op } of operations) {
    const params = (op.parameters ?? []).map((p) =>
      p.$ref ? doc.components.parameters[p.$ref.split("/").at(-1)!]! : p,
    );
    const query = params.filter((p) => p.in === "query");
    const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
    const collection = path.split("/")[2] ?? "";
    const fillPath = (id: string) => path.replace(/\{[^}]+\}/g, id);
    const withRealId = method !== "delete" && realIds[collection] ? fillPath(realIds[collection]!) : null;

    const cases: fc.Arbitrary<Case>[] = [
      pathId.map((id) => ({ path: fillPath(encodeURIComponent(id)), what: `path id ${id.slice(0, 20)}` })),
    ];
    if (bodySchema && method !== "get" && method !== "delete")
      cases.push(
        fc.tuple(bodyArbitrary(bodySchema), fc.boolean()).map(([b, real]) => ({
          path: real && withRealId ? withRealId : fillPath("00000000-0000-0000-0000-000000000000"),
          body: b.body,
          what: b.what,
        })),
      );
    if (query.length)
      cases.push(
        fc.tuple(fc.constantFrom(...query), queryValue).map(([p, v]) => ({
          path: `${withRealId ?? fillPath("00000000-0000-0000-0000-000000000000")}?${p.name}=${encodeURIComponent(v)}`,
          what: `query ${p.name}=${v.slice(0, 20)}`,
        })),
      );

    await fc.assert(
      fc.asyncProperty(fc.oneof(...cases), async (c) => {
        const before = await changes();
        const res = await send(method, c);
        const label = `${method.toUpperCase()} ${path} with ${c.what}`;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) problems.push(`${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (res.status >= 400 && res.status < 500) {
          const body = res.body as { status?: number; code?: string; detail?: string } | null;
          if (!body || body.status !== res.status || typeof body.code !== "string" || typeof body.detail !== "string")
            problems.push(`${label}: ${res.status} without the error body: ${JSON.stringify(body).slice(0, 200)}`);
          if ((await changes()) !== before)
            problems.push(`${label}: refused with ${res.status} but changed the database`);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }
  console.log(`request fuzzer: answers by status ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  expect(problems).toEqual([]);
}, 600_000);
