import type { SQL } from "bun";

/** int8 (count(*), bigint columns) and numeric (sum, avg): Bun's client answers them as strings. */
const NUMERIC_TYPES = new Set([20, 1700]);

type Column = { name: string; type: number };
type Result = unknown[] & { columns?: Column[] };
type Query = PromiseLike<Result> & { values(): PromiseLike<Result> };

/**
 * Bun's PostgreSQL client answers int8 and numeric values as strings (they may not fit a double).
 * SQLite answers integers as numbers, and the same code runs on both: so this client answers them as
 * numbers, as drizzle's own `count()` would (Desk's counts, sizes and micro-cents fit a double).
 * Every query drizzle runs goes through `unsafe` (rows or `.values()`), on the pool or in a
 * transaction (`begin`, `savepoint`), so wrapping those covers all of them.
 */
export function numericResults(client: SQL): SQL {
  return new Proxy(client, {
    get(target, property) {
      if (property === "unsafe")
        return (query: string, params?: unknown[]) => numericQuery(target.unsafe(query, params) as unknown as Query);
      if (property === "begin" || property === "savepoint")
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: SQL) => unknown;
          const open = Reflect.get(target, property) as (...a: unknown[]) => unknown;
          return open.call(target, ...args, (tx: SQL) => body(numericResults(tx)));
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

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
