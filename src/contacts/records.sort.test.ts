import { describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";

const desk: TestDesk = await startTestDesk();

async function field(owner: Member, entity: string, key: string, type: string) {
  const res = await desk.api("POST", "/v1/custom-fields", {
    headers: owner.headers,
    body: { entity, key, name: key, type },
  });
  expect(res.status).toBe(201);
}

/** Every page of a list, following next_cursor, with a small page size. */
async function allPages(path: string, headers: Record<string, string>): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await desk.api("GET", `${path}${sep}limit=2${cursor ? `&cursor=${cursor}` : ""}`, { headers });
    expect(res.status).toBe(200);
    names.push(...res.body.data.map((r: { name: string }) => r.name));
    cursor = res.body.next_cursor;
    if (!cursor) break;
  }
  return names;
}

describe("sort=field.<key> on contacts and companies", () => {
  test("sorts by a number field (missing values lowest), both orders, pages without repeats", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await field(owner, "contact", "seats", "number");
    await field(owner, "company", "tier", "text");
    for (const [name, seats] of [
      ["Ann", 30],
      ["Bob", 5],
      ["Cid", null],
      ["Dee", 5],
      ["Eve", 100],
    ] as const) {
      const res = await desk.api("POST", "/v1/contacts", {
        headers: owner.headers,
        body: {
          name,
          email: `${name.toLowerCase()}@example.test`,
          ...(seats === null ? {} : { fields: { seats } }),
        },
      });
      expect(res.status).toBe(201);
    }
    for (const [name, tier] of [
      ["Zeta", "gold"],
      ["Alpha", "Bronze"],
      ["Mid", "silver"],
    ] as const) {
      const res = await desk.api("POST", "/v1/companies", {
        headers: owner.headers,
        body: { name, fields: { tier } },
      });
      expect(res.status).toBe(201);
    }

    const asc = await allPages("/v1/contacts?sort=field.seats", owner.headers);
    expect(asc).toEqual(["Cid", "Bob", "Dee", "Ann", "Eve"]);
    const descending = await allPages("/v1/contacts?sort=field.seats&order=desc", owner.headers);
    expect(descending).toEqual(["Eve", "Ann", "Dee", "Bob", "Cid"]);
    // Default order is unchanged: newest first.
    expect(await allPages("/v1/contacts", owner.headers)).toEqual(["Eve", "Dee", "Cid", "Bob", "Ann"]);
    // Text sorts ignoring case.
    expect(await allPages("/v1/companies?sort=field.tier", owner.headers)).toEqual(["Alpha", "Zeta", "Mid"]);
    const key = await createKey(desk, owner, ["contacts:read"]);
    expect(await allPages("/v1/companies?sort=field.tier&order=desc", key.headers)).toEqual(["Mid", "Zeta", "Alpha"]);
  });

  test("422 at query.sort for an unknown key, another entity's field, an unsortable type or another sort; 401 without credential", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    await field(other.owner, "contact", "theirs", "number");
    await field(owner, "ticket", "ticket_only", "number");
    await field(owner, "contact", "seats", "number");
    for (const path of [
      "/v1/contacts?sort=field.nope",
      "/v1/contacts?sort=field.theirs",
      "/v1/contacts?sort=field.ticket_only",
      "/v1/contacts?sort=name",
      "/v1/companies?sort=field.seats",
    ]) {
      const res = await desk.api("GET", path, { headers: owner.headers });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe("query.sort");
    }
    const bad = await desk.api("GET", "/v1/contacts?sort=field.seats&order=sideways", { headers: owner.headers });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("query.order");
    // A cursor of the default order does not page a field sort.
    for (const email of ["a@x.test", "b@x.test", "c@x.test"])
      await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email } });
    const first = await desk.api("GET", "/v1/contacts?limit=1", { headers: owner.headers });
    const mixed = await desk.api("GET", `/v1/contacts?sort=field.seats&cursor=${first.body.next_cursor}`, {
      headers: owner.headers,
    });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors[0].location).toBe("query.cursor");
    expect((await desk.api("GET", "/v1/contacts?sort=field.seats")).status).toBe(401);
  });
});
