import type { Db } from "../../src/db/database";

/**
 * A digest of everything stored: every row of every table, in rowid order. Two equal digests mean
 * nothing was stored or changed in between (a savepoint rolled back leaves it equal, unlike SQLite's
 * change counter). Cheap on a test database of a few hundred rows. It lists the tables from
 * SQLite's catalogue, hence the file's name.
 */
export async function storedState(db: Db): Promise<string> {
  const sqlite = db.$client;
  const hasher = new Bun.CryptoHasher("sha256");
  const tables = sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
  for (const { name } of tables) {
    hasher.update(name);
    for (const row of sqlite.query(`SELECT * FROM "${name}"`).values()) hasher.update(JSON.stringify(row, bigints));
  }
  return hasher.digest("hex");
}

const bigints = (_key: string, value: unknown) =>
  typeof value === "bigint"
    ? value.toString()
    : value instanceof Uint8Array
      ? Buffer.from(value).toString("base64")
      : value;
