import { sql } from "drizzle-orm";
import { defineRead } from "../../src/db/read-pool";

/** Reads only tests send to a pool (its workers load this file through `modules`). */
export const sumRead = defineRead(
  "test.sum",
  async (db, p: { n: number }) => db.all<{ v: number }>(sql`SELECT ${p.n} + 1 AS v`)[0]!.v,
);
export const writeRead = defineRead("test.write", async (db, _p: Record<string, never>) => {
  db.run(sql`CREATE TABLE never_made (a)`);
  return true;
});
export const countRead = defineRead(
  "test.count",
  async (db, p: { table: string }) =>
    db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(p.table)}`)[0]!.n,
);
