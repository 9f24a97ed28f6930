import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { slowListModules } from "../../test/kit/slow-lists";
import { newTicket } from "../../test/kit/tickets";

// The answers of the pooled reads, on either engine (SQLite answers them on its worker threads,
// PostgreSQL on the request's pooled connection); the workers themselves: tickets.read-pool.sqlite.test.ts.
const desk = await startTestDesk({ config: { reads: { workers: 2, budgetMs: 1000, modules: slowListModules } } });
type Listed = { data: Array<{ subject: string }>; next_cursor: string | null };

describe("the ticket list's word search and export on the read pool", () => {
  test("another workspace's tickets never appear in pooled lists or exports", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    await newTicket(desk, a.owner, { subject: "Wombat invoice" });
    await newTicket(desk, b.owner, { subject: "Wombat quote" });
    const list = await desk.api("GET", "/v1/tickets?q=wombat", { headers: b.owner.headers });
    expect(list.status).toBe(200);
    expect((list.body as Listed).data.map((t) => t.subject)).toEqual(["Wombat quote"]);
    const csv = await desk.api("GET", "/v1/tickets/export.csv?q=wombat", { headers: b.owner.headers });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain("Wombat quote");
    expect(csv.text).not.toContain("Wombat invoice");
  });

  test("with the pool off (DESK_READ_WORKERS=0) the same reads answer on the request thread", async () => {
    const off = await startTestDesk({ config: { reads: { workers: 0, budgetMs: 1000 } } });
    try {
      const { owner } = await createWorkspaceWithOwner(off);
      const made = await newTicket(off, owner, { subject: "Platypus refund", contact: { email: "p@x.test" } });
      const contactId = (made.contact as { id: string }).id;
      for (const path of ["/v1/tickets?q=platypus", `/v1/contacts/${contactId}/tickets?q=platypus`]) {
        const res = await off.api("GET", path, { headers: owner.headers });
        expect((res.body as Listed).data.map((t) => t.subject)).toEqual(["Platypus refund"]);
      }
      expect((await off.api("GET", "/v1/tickets/export.csv?q=platypus", { headers: owner.headers })).text).toContain(
        "Platypus refund",
      );
      expect(off.deps.reads.running()).toBe(0);
    } finally {
      await off.stop();
    }
  });
});
