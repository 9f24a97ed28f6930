import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { slowListModules } from "../../test/kit/slow-lists";
import { newTicket } from "../../test/kit/tickets";

// The read pool's worker threads each open the SQLite file; on PostgreSQL a slow read takes a pooled
// connection and no worker starts (src/compose.ts), so these tests are SQLite's. The pooled reads'
// answers, which both engines give, are tested in tickets.read-pool.test.ts.
// A short budget: a `spin` read keeps its worker's SQLite busy for seconds (test/kit/slow-lists.ts).
// The tests that spin come last: their retired workers keep the machine's cores busy a while.
const desk = await startTestDesk({ config: { reads: { workers: 2, budgetMs: 1000, modules: slowListModules } } });
type Listed = { data: Array<{ subject: string }>; next_cursor: string | null };

describe("the ticket list's word search and export on the read pool", () => {
  test("a list without q stays on the request thread; with q it starts a worker", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newTicket(desk, owner, { subject: "Platypus refund request" });
    const plain = await desk.api("GET", "/v1/tickets", { headers: owner.headers });
    expect(plain.status).toBe(200);
    expect(desk.deps.reads.running()).toBe(0);
    const found = await desk.api("GET", "/v1/tickets?q=platypus", { headers: owner.headers });
    expect(found.status).toBe(200);
    expect((found.body as Listed).data.map((t) => t.subject)).toEqual(["Platypus refund request"]);
    expect(desk.deps.reads.running()).toBeGreaterThan(0);
  });

  test("the inbox's view counts are counted on a worker; with no view none starts", async () => {
    const quiet = await startTestDesk({ config: { reads: { workers: 2, budgetMs: 1000 } } });
    try {
      const { owner } = await createWorkspaceWithOwner(quiet);
      const counts = await quiet.api("GET", "/v1/tickets/counts", { headers: owner.headers });
      expect(counts.status).toBe(200);
      expect(counts.body.views).toEqual({});
      expect(quiet.deps.reads.running()).toBe(0);
      await newTicket(quiet, owner, { subject: "Echidna return" });
      await newTicket(quiet, owner, { subject: "Something else" });
      const view = await quiet.api("POST", "/v1/views", {
        headers: owner.headers,
        body: { name: "Echidnas", filters: { q: "echidna" } },
      });
      const other = await createWorkspaceWithOwner(quiet);
      await newTicket(quiet, other.owner, { subject: "Echidna elsewhere" });
      const counted = await quiet.api("GET", "/v1/tickets/counts", { headers: owner.headers });
      expect(counted.body.views).toEqual({ [view.body.id]: 1 });
      expect(counted.body.open).toBe(2);
      expect(quiet.deps.reads.running()).toBeGreaterThan(0);
    } finally {
      await quiet.stop();
    }
  });

  test("view counts past the budget are left out while the inbox's other counts answer", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newTicket(desk, owner, { subject: "spin" });
    await desk.api("POST", "/v1/views", { headers: owner.headers, body: { name: "Spinning", filters: { q: "spin" } } });
    const counts = await desk.api("GET", "/v1/tickets/counts", { headers: owner.headers });
    expect(counts.status).toBe(200);
    expect(counts.body.views).toEqual({});
    expect(counts.body.open).toBe(1);
  }, 30_000);

  test("a q list, a contact's q list and an export past the budget answer 503 query_timeout while /v1/me answers", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const made = await newTicket(desk, owner, { subject: "spin", contact: { email: "spin@x.test" } });
    const contactId = (made.contact as { id: string }).id;
    for (const path of [
      "/v1/tickets?q=spin",
      `/v1/contacts/${contactId}/tickets?q=spin`,
      "/v1/tickets/export.csv?q=spin",
    ]) {
      let settled = false;
      const slow = desk.api("GET", path, { headers: owner.headers }).then((res) => {
        settled = true;
        return res;
      });
      const me = await desk.api("GET", "/v1/me", { headers: owner.headers });
      expect(me.status).toBe(200);
      expect(settled).toBe(false);
      const res = await slow;
      expect(res.status, path).toBe(503);
      expect(res.body).toMatchObject({ status: 503, code: "query_timeout" });
    }
  }, 30_000);

  test("an export reads each page on the pool: a later page past the budget ends the download early", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (let i = 0; i < 501; i++)
      await newTicket(desk, owner, { subject: `Page ${i}`, kind: "note", tags: ["slowpages"] });
    const res = await fetch(`${desk.url}/v1/tickets/export.csv?tag=slowpages`, { headers: owner.headers });
    expect(res.status).toBe(200);
    // The first page went out; the second ran past its budget, so the body breaks off rather than ending as if complete.
    expect(
      await res.text().then(
        () => "complete",
        () => "broken",
      ),
    ).toBe("broken");
  }, 60_000);
});
