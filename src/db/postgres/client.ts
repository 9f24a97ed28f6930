import type { SQL } from "bun";

/** int8 (count(*), bigint columns) and numeric (sum, avg): Bun's client answers them as strings. */
const NUMERIC_TYPES = new Set([20, 1700]);

type Column = { name: string; type: number };
type Result = unknown[] & { columns?: Column[] };
type Query = PromiseLike<Result> & { values(): PromiseLike<Result> };

/**
 * Bun's PostgreSQL client as the desk's code expects a store to behave, the same as on SQLite:
 * - int8 and numeric values come back as numbers, not strings (they may not fit a double, but
 *   Desk's counts, sizes and micro-cents do), as drizzle's own `count()` would answer them;
 * - text may hold U+0000, which PostgreSQL's text and jsonb refuse ("invalid byte sequence"): a
 *   mail's header or body with a NUL byte would fail its whole change. A NUL in a parameter is
 *   stored as U+FFFD, the replacement character (SQLite keeps it; no answer shows it either way).
 * Every query drizzle runs goes through `unsafe` (rows or `.values()`), on the pool or in a
 * transaction (`begin`, `savepoint`), so wrapping those covers all of them.
 */
export function deskClient(client: SQL): SQL {
  return new Proxy(client, {
    get(target, property) {
      if (property === "unsafe")
        return (query: string, params?: unknown[]) =>
          numericQuery(target.unsafe(query, params && paramsWithoutNul(query, params)) as unknown as Query);
      if (property === "begin" || property === "savepoint")
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: SQL) => unknown;
          const open = Reflect.get(target, property) as (...a: unknown[]) => unknown;
          return open.call(target, ...args, (tx: SQL) => body(deskClient(tx)));
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const NUL = /\u0000/g;
/** A parameter cast to jsonb from text (`$3::text::jsonb`): JSON text, where a NUL is the escape `\u0000`. */
const JSON_TEXT_PARAM = /\$(\d+)::(?:text::)?jsonb/g;
/** The escape `\u0000` (an even run of backslashes before it is text, not an escape). */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

function paramsWithoutNul(query: string, params: unknown[]): unknown[] {
  const jsonText = new Set([...query.matchAll(JSON_TEXT_PARAM)].map((m) => Number(m[1]) - 1));
  return params.map((value, i) =>
    jsonText.has(i) && typeof value === "string" && value.includes("\\u0000")
      ? value.replace(NUL_ESCAPE, "$1\\uFFFD")
      : withoutNul(value),
  );
}

/** A parameter with every U+0000 of its strings (nested in JSON too) replaced; others as they are. */
function withoutNul(value: unknown): unknown {
  if (typeof value === "string") return value.includes("\u0000") ? value.replace(NUL, "\uFFFD") : value;
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value) || value instanceof Date) return value;
  if (Array.isArray(value)) return value.some(holdsNul) ? value.map(withoutNul) : value;
  if (!holdsNul(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [withoutNul(key) as string, withoutNul(v)]));
}

const holdsNul = (value: unknown): boolean =>
  typeof value === "string"
    ? value.includes("\u0000")
    : value !== null && typeof value === "object" && !ArrayBuffer.isView(value) && !(value instanceof Date)
      ? Object.entries(value).some(([key, v]) => key.includes("\u0000") || holdsNul(v))
      : false;

function numericQuery(query: Query): Query {
  return {
    // biome-ignore lint/suspicious/noThenProperty: a query is a thenable, as Bun's own is
    then: (resolve, reject) => query.then((rows) => withNumbers(rows, false)).then(resolve, reject),
    values: () => ({
      // biome-ignore lint/suspicious/noThenProperty: as above
      then: (resolve, reject) =>
        query
          .values()
          .then((rows) => withNumbers(rows, true))
          .then(resolve, reject),
    }),
  } as Query;
}

function withNumbers(rows: Result, positional: boolean): Result {
  const columns = rows.columns;
  if (!columns || rows.length === 0) return rows;
  const numeric = columns.flatMap((c, i) => (NUMERIC_TYPES.has(c.type) ? [positional ? i : c.name] : []));
  if (numeric.length === 0) return rows;
  for (const row of rows as Array<Record<string | number, unknown>>)
    for (const key of numeric) {
      const value = row[key];
      if (typeof value === "string") row[key] = Number(value);
    }
  return rows;
}
