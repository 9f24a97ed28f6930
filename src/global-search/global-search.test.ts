import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { newTicket } from "../../test/kit/tickets";
import { readModules } from "../../test/kit/global-search";

// One worker and a short budget: a `spin` search keeps its worker's SQLite busy for seconds.
const desk = await startTestDesk({ config: { reads: { workers: 1, budgetMs: 400, modules: readModules } } });

describe("GET /v1/search on the read pool", () => {
  test("another workspace's tickets stay out of pooled results", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    await newTicket(desk, a.owner, { subject: "Wombat invoice" });
    const res = await desk.api("GET", "/v1/search?q=wombat", { headers: b.owner.headers });
    expect(res.status).toBe(200);
    expect((res.body as { tickets: unknown[] }).tickets).toEqual([]);
  });
});
