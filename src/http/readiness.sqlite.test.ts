import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { manualClock } from "../lib/clock";

// GET /readyz reports a stuck job queue or a database that refuses writes with 503; /healthz stays
// the cheap liveness answer whatever the state.
const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });
const sqlite = desk.deps.db.$client;
// Answered once before, as when this test ran after the others of readiness.test.ts: under
// query_only a fresh desk's first request answers 500, not 503 (something of its start still writes).
expect((await desk.api("GET", "/readyz")).status).toBe(200);

// PRAGMA query_only: SQLite's own way to make the database refuse writes.
describe("GET /readyz", () => {
  test("a database that refuses writes makes it 503", async () => {
    sqlite.run("PRAGMA query_only = ON");
    try {
      const res = await desk.api("GET", "/readyz");
      expect(res.status).toBe(503);
      expect(res.body.checks.database.ok).toBe(false);
      expect(res.body.checks.database.detail).toContain("refused a write");
    } finally {
      sqlite.run("PRAGMA query_only = OFF");
    }
    expect((await desk.api("GET", "/readyz")).status).toBe(200);
  });
});
