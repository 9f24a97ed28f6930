import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { slowListModules } from "../../test/kit/slow-lists";

// What the pooled reads answer, on either engine; the workers themselves: contacts.read-pool.sqlite.test.ts.
const desk = await startTestDesk({ config: { reads: { workers: 2, budgetMs: 1000, modules: slowListModules } } });
type Listed = { data: Array<{ name: string; ticket_count?: number }>; next_cursor: string | null };

describe("the contact and company lists' word search and exports on the read pool", () => {
  test("another workspace's records never appear in pooled lists or exports", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    for (const [member, name] of [
      [a.owner, "Wombat Elsewhere"],
      [b.owner, "Wombat Here"],
    ] as const) {
      await desk.api("POST", "/v1/contacts", { headers: member.headers, body: { name } });
      await desk.api("POST", "/v1/companies", { headers: member.headers, body: { name } });
    }
    for (const path of ["/v1/contacts?q=wombat", "/v1/companies?q=wombat"]) {
      const res = await desk.api("GET", path, { headers: b.owner.headers });
      expect((res.body as Listed).data.map((r) => r.name)).toEqual(["Wombat Here"]);
    }
    for (const path of ["/v1/contacts/export.csv?q=wombat", "/v1/companies/export.csv"]) {
      const csv = await desk.api("GET", path, { headers: b.owner.headers });
      expect(csv.status).toBe(200);
      expect(csv.text).toContain("Wombat Here");
      expect(csv.text).not.toContain("Wombat Elsewhere");
    }
  });

  test("with the pool off (DESK_READ_WORKERS=0) the same reads answer on the request thread", async () => {
    const off = await startTestDesk({ config: { reads: { workers: 0, budgetMs: 1000 } } });
    try {
      const { owner } = await createWorkspaceWithOwner(off);
      await off.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "Pat Quokka" } });
      await off.api("POST", "/v1/companies", { headers: owner.headers, body: { name: "Quokka Ltd" } });
      for (const [path, name] of [
        ["/v1/contacts?q=quokka", "Pat Quokka"],
        ["/v1/companies?q=quokka", "Quokka Ltd"],
      ] as const) {
        const res = await off.api("GET", path, { headers: owner.headers });
        expect((res.body as Listed).data.map((r) => r.name)).toEqual([name]);
      }
      for (const [path, name] of [
        ["/v1/contacts/export.csv?q=quokka", "Pat Quokka"],
        ["/v1/companies/export.csv?q=quokka", "Quokka Ltd"],
      ] as const)
        expect((await off.api("GET", path, { headers: owner.headers })).text).toContain(name);
      expect(off.deps.reads.running()).toBe(0);
    } finally {
      await off.stop();
    }
  });
});
