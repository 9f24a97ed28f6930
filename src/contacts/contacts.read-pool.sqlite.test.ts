import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { slowListModules } from "../../test/kit/slow-lists";

// The read pool's worker threads, each with its read-only SQLite connection: a `spin` read keeps its
// worker's SQLite busy for seconds (test/kit/slow-lists.ts); a short budget.
const desk = await startTestDesk({ config: { reads: { workers: 2, budgetMs: 1000, modules: slowListModules } } });
type Listed = { data: Array<{ name: string; ticket_count?: number }>; next_cursor: string | null };

describe("the contact and company lists' word search and exports on the read pool", () => {
  test("lists without q stay on the request thread; with q they run on a worker, presented as before", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { name: "Pat Quokka", email: "pat@q.test" },
    });
    await desk.api("POST", "/v1/companies", { headers: owner.headers, body: { name: "Quokka Ltd", domain: "q.test" } });
    for (const path of ["/v1/contacts", "/v1/companies"])
      expect((await desk.api("GET", path, { headers: owner.headers })).status).toBe(200);
    expect(desk.deps.reads.running()).toBe(0);
    const contacts = await desk.api("GET", "/v1/contacts?q=quokka", { headers: owner.headers });
    expect(contacts.status).toBe(200);
    expect((contacts.body as Listed).data).toMatchObject([{ name: "Pat Quokka", ticket_count: 0 }]);
    expect(desk.deps.reads.running()).toBeGreaterThan(0);
    const companies = await desk.api("GET", "/v1/companies?q=quokka", { headers: owner.headers });
    expect((companies.body as Listed).data.map((c) => c.name)).toEqual(["Quokka Ltd"]);
  });

  test("q lists and exports past the budget answer 503 query_timeout while /v1/me answers", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const paths = [
      "/v1/contacts?q=spin",
      "/v1/companies?q=spin",
      "/v1/contacts/export.csv?q=spin",
      "/v1/companies/export.csv?q=spin",
    ];
    for (const path of paths) {
      let settled = false;
      const slow = desk.api("GET", path, { headers: owner.headers }).then((res) => {
        settled = true;
        return res;
      });
      expect((await desk.api("GET", "/v1/me", { headers: owner.headers })).status).toBe(200);
      expect(settled).toBe(false);
      const res = await slow;
      expect(res.status, path).toBe(503);
      expect(res.body).toMatchObject({ status: 503, code: "query_timeout" });
    }
  }, 30_000);
});
