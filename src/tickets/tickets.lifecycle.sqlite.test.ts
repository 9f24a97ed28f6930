import { describe, expect, test } from "bun:test";
import { unaryPlusParameters } from "../db/sqlite/open";
import { startTestDesk } from "../../test/harness";
import { solvedTicketsBeforeQuery } from "./tickets.lifecycle";

const desk = await startTestDesk();

describe("auto-close's seek", () => {
  test("reads only the partial index of solved tickets (closed ones, the many, are never scanned)", async () => {
    const query = solvedTicketsBeforeQuery(desk.deps.db, "w", "2026-01-01T00:00:00.000Z", 200).toSQL();
    // As the database layer runs it: bare comparison parameters become `+?`.
    const plan = desk.deps.db.$client
      .query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${unaryPlusParameters(query.sql)}`)
      .all(...(query.params as (string | number)[]))
      .map((row) => row.detail)
      .join(" | ");
    expect(plan).toContain("USING INDEX tickets_ws_autoclose_idx");
    expect(plan).not.toContain("TEMP B-TREE");
  });
});
