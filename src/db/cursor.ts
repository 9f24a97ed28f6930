import { validationFailed } from "../lib/errors";

/** Keyset cursors are opaque to clients: the sort key values of the last row, base64url JSON. */
export function encodeCursor(values: Array<string | number | null>): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

export function decodeCursor(cursor: string | undefined, arity: number): Array<string | number | null> | null {
  if (cursor === undefined || cursor === "") return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(values) &&
      values.length === arity &&
      values.every((v) => v === null || typeof v === "string" || typeof v === "number")
    ) {
      return values as Array<string | number | null>;
    }
  } catch {
    // fall through to the validation error
  }
  throw validationFailed([{ location: "query.cursor", message: "cursor is not one this server issued" }]);
}

export type Page<T> = { data: T[]; next_cursor: string | null };

/** Builds a page from `limit + 1` fetched rows: the extra row only says whether more exist. */
export async function pageOf<Row, T>(
  rows: Row[],
  limit: number,
  present: (row: Row) => T | Promise<T>,
  keyOf: (row: Row) => Array<string | number | null>,
): Promise<Page<T>> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  const data: T[] = [];
  for (const row of kept) data.push(await present(row));
  return { data, next_cursor: more && last ? encodeCursor(keyOf(last)) : null };
}
