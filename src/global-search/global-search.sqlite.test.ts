import { describe, expect, test } from "bun:test";
import { createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { newTicket } from "../../test/kit/tickets";
import { readModules } from "../../test/kit/global-search";

// One worker and a short budget: a `spin` search keeps its worker's SQLite busy for seconds.
const desk = await startTestDesk({ config: { reads: { workers: 1, budgetMs: 400, modules: readModules } } });

// Worker threads are SQLite's read pool (on PostgreSQL a slow read takes a pooled connection).
describe("GET /v1/search on the read pool", () => {
  test("no worker runs before the first slow read", () => {
    expect(desk.deps.reads.running()).toBe(0);
  });

  test("a search past its budget answers 503 query_timeout while /v1/me answers meanwhile; the next search works", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ["tickets:read"]);
    await newTicket(desk, owner, { subject: "Platypus refund request" });
    // A first search starts the worker, so the budget below times the statement, not the start.
    const warm = await desk.api("GET", "/v1/search?q=platypus", { headers: key.headers });
    expect(warm.status).toBe(200);
    expect(desk.deps.reads.running()).toBe(1);

    let searchSettled = false;
    const slow = desk.api("GET", "/v1/search?q=spin", { headers: key.headers }).then((res) => {
      searchSettled = true;
      return res;
    });
    const me = await desk.api("GET", "/v1/me", { headers: key.headers });
    expect(me.status).toBe(200);
    expect(searchSettled).toBe(false);

    const timedOut = await slow;
    expect(timedOut.status).toBe(503);
    expect(timedOut.body).toMatchObject({ status: 503, code: "query_timeout" });
    expect(String((timedOut.body as { detail: string }).detail)).toContain("Narrow it");

    // A fresh worker answers the next one (the terminated one may still be finishing its statement).
    const again = await desk.api("GET", "/v1/search?q=platypus", { headers: key.headers });
    expect(again.status).toBe(200);
    expect((again.body as { tickets: Array<{ subject: string }> }).tickets.map((t) => t.subject)).toEqual([
      "Platypus refund request",
    ]);
    expect(again.body).toEqual(warm.body);
  });
});
