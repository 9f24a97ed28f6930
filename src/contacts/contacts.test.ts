import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { transact } from "../db/tx";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { presentContact } from "./contacts.present";
import { contactTicketCounts } from "./contacts.ticket-counts";
import { contactRefsOf, findOrCreateContactByEmail } from "./contacts.service";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();
const eventsSince = async (workspaceId: string, seq: number) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).filter((e) => e.seq > seq);

describe("contacts", () => {
  test("access: 401, 403 for viewers writing and keys without contacts scopes", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await desk.api("GET", "/v1/contacts")).status).toBe(401);
    expect((await desk.api("GET", "/v1/contacts", { headers: viewer.headers })).status).toBe(200);
    expect((await desk.api("POST", "/v1/contacts", { headers: viewer.headers, body: { name: "x" } })).status).toBe(403);
    expect(
      (await desk.api("GET", "/v1/contacts", { headers: (await createKey(desk, owner, ["tickets:read"])).headers }))
        .status,
    ).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/contacts", {
          headers: (await createKey(desk, owner, ["contacts:read"])).headers,
          body: {},
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/contacts", {
          headers: (await createKey(desk, owner, ["contacts:write"])).headers,
          body: { name: "k" },
        })
      ).status,
    ).toBe(201);
  });

  test("create, read, update, delete with exactly the events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const company = (
      await desk.api("POST", "/v1/companies", {
        headers: owner.headers,
        body: { name: "Acme", domain: "https://www.Acme.test/about" },
      })
    ).body;
    expect(company.domain).toBe("acme.test");
    const seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: {
        email: " Ann@Example.TEST ",
        name: "Ann",
        phone: "+1 555",
        company_id: company.id,
        external_id: "u-1",
        notes: "n",
        custom: { plan: "pro" },
        blocked: false,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: "ann@example.test",
      name: "Ann",
      phone: "+1 555",
      company: { id: company.id, name: "Acme", domain: "acme.test" },
      external_id: "u-1",
      custom: { plan: "pro" },
      blocked: false,
      ticket_count: 0,
      tags: [],
      fields: {},
    });
    const id = created.body.id;
    expect((await desk.api("GET", `/v1/companies/${company.id}`, { headers: owner.headers })).body.contact_count).toBe(
      1,
    );
    const patched = await desk.api("PATCH", `/v1/contacts/${id}`, {
      headers: owner.headers,
      body: { blocked: true, company_id: null },
    });
    expect(patched.body).toMatchObject({ blocked: true, company: null });
    const same = await desk.api("PATCH", `/v1/contacts/${id}`, { headers: owner.headers, body: { blocked: true } });
    expect(same.status).toBe(200);
    expect((await desk.api("DELETE", `/v1/contacts/${id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/contacts/${id}`, { headers: owner.headers })).status).toBe(404);
    const emitted = await eventsSince(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual(["contact.created", "contact.updated", "contact.deleted"]);
    expect((emitted[0]!.data as { contact: { email: string } }).contact.email).toBe("ann@example.test");
    expect(emitted[2]!.data).toEqual({ contact_id: id });
    // the email is free again once its contact is deleted
    expect(
      (await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "ann@example.test" } })).status,
    ).toBe(201);
  });

  test("409 conflict on a taken email (any case) or external_id", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "bo@example.test", external_id: "ext" },
    });
    const byEmail = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "BO@example.test" },
    });
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.code).toBe("conflict");
    expect(
      (await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { external_id: "ext" } })).status,
    ).toBe(409);
    const other = (
      await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "cy@example.test" } })
    ).body;
    expect(
      (
        await desk.api("PATCH", `/v1/contacts/${other.id}`, {
          headers: owner.headers,
          body: { email: "bo@example.test" },
        })
      ).status,
    ).toBe(409);
    // another workspace may hold the same email
    const b = await createWorkspaceWithOwner(desk);
    expect(
      (await desk.api("POST", "/v1/contacts", { headers: b.owner.headers, body: { email: "bo@example.test" } })).status,
    ).toBe(201);
  });

  test("422 on bad input; nothing stored", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: "nope" }, "body.email"],
      [{ email: 5 }, "body.email"],
      [{ name: "x".repeat(201) }, "body.name"],
      [{ blocked: "yes" }, "body.blocked"],
      [{ company_id: "missing" }, "body.company_id"],
      [{ custom: "text" }, "body.custom"],
      [{ tags: "vip" }, "body.tags"],
      [{ fields: { undefined_key: 1 } }, "body.fields.undefined_key"],
      [{ surprise: true }, "body"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location.startsWith(location)).toBe(true);
    }
    expect((await desk.api("GET", "/v1/contacts", { headers: owner.headers })).body.data).toEqual([]);
  });

  test("another workspace's contact answers 404 and its company never links", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const contact = (
      await desk.api("POST", "/v1/contacts", { headers: a.owner.headers, body: { email: "z@example.test" } })
    ).body;
    const company = (await desk.api("POST", "/v1/companies", { headers: a.owner.headers, body: { name: "A Co" } }))
      .body;
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      expect((await desk.api(method, `/v1/contacts/${contact.id}`, { headers: b.owner.headers, body })).status).toBe(
        404,
      );
      expect((await desk.api(method, `/v1/companies/${company.id}`, { headers: b.owner.headers, body })).status).toBe(
        404,
      );
    }
    const linked = await desk.api("POST", "/v1/contacts", {
      headers: b.owner.headers,
      body: { company_id: company.id },
    });
    expect(linked.status).toBe(422);
    expect((await desk.api("GET", "/v1/contacts", { headers: b.owner.headers })).body.data).toEqual([]);
    expect(
      (await desk.api("GET", `/v1/contacts?company_id=${company.id}`, { headers: b.owner.headers })).body.data,
    ).toEqual([]);
  });

  test("filters q, company_id, tag and keyset pagination", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const company = (await desk.api("POST", "/v1/companies", { headers: owner.headers, body: { name: "Beta" } })).body;
    for (let i = 0; i < 5; i++) {
      await desk.api("POST", "/v1/contacts", {
        headers: owner.headers,
        body: {
          email: `p${i}@example.test`,
          name: `Person ${i}`,
          company_id: i < 2 ? company.id : null,
          tags: i % 2 ? ["odd"] : [],
        },
      });
    }
    await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "zed@example.test", name: "100% Zed" },
    });
    const get = async (q: string) => (await desk.api("GET", `/v1/contacts?${q}`, { headers: owner.headers })).body;
    expect((await get("q=person%203")).data.map((c: { name: string }) => c.name)).toEqual(["Person 3"]);
    expect((await get("q=ZED")).data.length).toBe(1);
    expect((await get("q=100%25")).data.length).toBe(1);
    expect((await get("q=%25")).data.length).toBe(0);
    expect((await get(`company_id=${company.id}`)).data.length).toBe(2);
    expect((await get("tag=ODD")).data.map((c: { name: string }) => c.name)).toEqual(["Person 3", "Person 1"]);
    const seen: string[] = [];
    let page = await get("limit=2");
    seen.push(...page.data.map((c: { name: string }) => c.name));
    while (page.next_cursor) {
      page = await get(`limit=2&cursor=${page.next_cursor}`);
      seen.push(...page.data.map((c: { name: string }) => c.name));
    }
    expect(seen).toEqual(["100% Zed", "Person 4", "Person 3", "Person 2", "Person 1", "Person 0"]);
    expect((await desk.api("GET", "/v1/contacts?limit=0", { headers: owner.headers })).status).toBe(422);
    expect((await desk.api("GET", "/v1/contacts?cursor=garbage", { headers: owner.headers })).status).toBe(422);
  });

  test("q searches words of names, email parts and custom text values; never another workspace's contacts", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/custom-fields", {
      headers: owner.headers,
      body: { entity: "contact", name: "City", type: "text" },
    });
    const post = async (headers: Record<string, string>, body: Record<string, unknown>) => {
      const res = await desk.api("POST", "/v1/contacts", { headers, body });
      expect(res.status).toBe(201);
      return res.body;
    };
    const jo = await post(owner.headers, { email: "jo.jansen@bakery.test", name: "Jo Jansen" });
    await post(owner.headers, { email: "kim@shop.test", name: "Kim Park", fields: { city: "Rotterdam" } });
    await post(other.owner.headers, { email: "jan.jansen@bakery.test", name: "Jan Jansen" });
    const names = async (q: string, headers = owner.headers) => {
      const res = await desk.api("GET", `/v1/contacts?q=${encodeURIComponent(q)}`, { headers });
      expect(res.status).toBe(200);
      return res.body.data.map((c: { name: string }) => c.name);
    };
    expect(await names("jansen")).toEqual(["Jo Jansen"]); // a later word of the name, not its start
    expect(await names("JANS")).toEqual(["Jo Jansen"]); // the last word is a prefix
    expect(await names("bakery")).toEqual(["Jo Jansen"]); // a part of the email
    expect(await names("jo.jansen@bakery.test")).toEqual(["Jo Jansen"]); // the whole email
    expect(await names("rotterdam")).toEqual(["Kim Park"]); // a custom text value
    expect(await names("jo jansen")).toEqual(["Jo Jansen"]);
    expect(await names("jansen", other.owner.headers)).toEqual(["Jan Jansen"]);
    expect(await names("jan")).toEqual(["Jo Jansen"]); // jan* matches jansen here, never the other workspace's Jan
    expect(await names("nobody")).toEqual([]);
    expect(await names('"jansen*" ^(')).toEqual(["Jo Jansen"]); // FTS syntax is read as words, never as syntax
    expect(await names("jansen OR kim")).toEqual([]); // OR is a word here, not an operator
    // No word matches: the prefix match answers (the email starts with "jo.j").
    expect(await names("jo.j")).toEqual(["Jo Jansen"]);
    const one = await desk.api("GET", `/v1/contacts/${jo.id}`, { headers: other.owner.headers });
    expect(one.status).toBe(404);
  });

  test("q pages through word matches with the cursor", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (let i = 0; i < 5; i++)
      await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: `Fan ${i} Jansen` } });
    await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "Someone Else" } });
    const seen: string[] = [];
    let page = (await desk.api("GET", "/v1/contacts?q=jansen&limit=2", { headers: owner.headers })).body;
    seen.push(...page.data.map((c: { name: string }) => c.name));
    while (page.next_cursor) {
      page = (
        await desk.api("GET", `/v1/contacts?q=jansen&limit=2&cursor=${page.next_cursor}`, { headers: owner.headers })
      ).body;
      seen.push(...page.data.map((c: { name: string }) => c.name));
    }
    expect(seen).toEqual(["Fan 4 Jansen", "Fan 3 Jansen", "Fan 2 Jansen", "Fan 1 Jansen", "Fan 0 Jansen"]);
  });

  test("findOrCreateContactByEmail reuses the live contact and creates with contact.created; contactRefsOf", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const first = await transact(
      desk.deps.db,
      async (tx) =>
        await findOrCreateContactByEmail(tx, owner.ctx, { email: "New@Example.test", name: null }, desk.deps.ports),
    );
    const again = await transact(
      desk.deps.db,
      async (tx) =>
        await findOrCreateContactByEmail(tx, owner.ctx, { email: "new@example.test", name: "Newt" }, desk.deps.ports),
    );
    expect(again.id).toBe(first.id);
    expect(again.name).toBe("Newt");
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual(["contact.created", "contact.updated"]);
    // The event of a new contact is presented from what is known; it equals a read-back.
    const createdEvent = (await eventsSince(workspace.id, seq))[0]!.data as { contact: Record<string, unknown> };
    const countTickets = desk.deps.ports.get(contactTicketCounts);
    expect(createdEvent.contact).toEqual({ ...(await presentContact(desk.deps.db, countTickets, first)), name: "" });
    expect(
      await presentContact(desk.deps.db, countTickets, first, { ticketCount: 4, tags: [], fields: { a: 1 } }),
    ).toMatchObject({
      ticket_count: 4,
      fields: { a: 1 },
    });
    expect(await contactRefsOf(desk.deps.db, [])).toEqual(new Map());
    const refs = await contactRefsOf(desk.deps.db, [first.id, "missing"]);
    expect(refs.get(first.id)).toEqual({ id: first.id, email: "new@example.test", name: "Newt", avatar_url: null });
    expect(refs.has("missing")).toBe(false);
  });
});

describe("companies", () => {
  test("CRUD, unique domain (409), tags, fields, filters, events; deleting unlinks contacts", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/custom-fields", {
      headers: owner.headers,
      body: { entity: "company", name: "Seats", type: "number" },
    });
    const seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Globex", domain: "globex.test", tags: ["enterprise"], fields: { seats: 40 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Globex",
      domain: "globex.test",
      contact_count: 0,
      fields: { seats: 40 },
    });
    expect(created.body.tags.map((t: { name: string }) => t.name)).toEqual(["enterprise"]);
    const dup = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Other", domain: "GLOBEX.test" },
    });
    expect(dup.status).toBe(409);
    expect(
      (
        await desk.api("POST", "/v1/companies", {
          headers: owner.headers,
          body: { name: "Bad", domain: "not a domain" },
        })
      ).status,
    ).toBe(422);
    expect((await desk.api("POST", "/v1/companies", { headers: owner.headers, body: { name: "" } })).status).toBe(422);
    await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Initech", fields: { seats: 5 } },
    });
    const names = async (q: string) =>
      (await desk.api("GET", `/v1/companies?${q}`, { headers: owner.headers })).body.data.map(
        (c: { name: string }) => c.name,
      );
    expect(await names("q=glob")).toEqual(["Globex"]);
    expect(await names("tag=enterprise")).toEqual(["Globex"]);
    expect(await names("field.seats[lt]=10")).toEqual(["Initech"]);
    const contact = (
      await desk.api("POST", "/v1/contacts", {
        headers: owner.headers,
        body: { email: "w@globex.test", company_id: created.body.id },
      })
    ).body;
    expect((await desk.api("DELETE", `/v1/companies/${created.body.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/contacts/${contact.id}`, { headers: owner.headers })).body.company).toBeNull();
    const types = (await eventsSince(workspace.id, seq)).map((e) => e.type);
    expect(types).toEqual(["tag.created", "company.created", "company.created", "contact.created", "company.deleted"]);
    expect(
      (
        await desk.api("POST", "/v1/companies", {
          headers: owner.headers,
          body: { name: "Globex again", domain: "globex.test" },
        })
      ).status,
    ).toBe(201);
  });
});
