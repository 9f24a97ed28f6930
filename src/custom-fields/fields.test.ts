import { describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { execute } from "../db/store";
import { auditLogs } from "../audit/audit.table";
import { contacts } from "../contacts/contacts.table";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { transact } from "../db/tx";
import {
  applyFieldWriteWithValues,
  fieldFilterSql,
  fieldSortOrderSql,
  fieldSortSql,
  fieldValuesOf,
  missingRequiredOnSolve,
  parseFieldFilters,
} from "./fields.apply";
import { SELECTIVE_VALUES } from "./fields.filter";
import { fieldValues } from "./fields.table";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();
const eventsSince = async (workspaceId: string, seq: number) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).filter((e) => e.seq > seq);

async function newField(owner: Member, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/custom-fields", { headers: owner.headers, body });
  expect(res.status).toBe(201);
  return res.body;
}
async function newContact(owner: Member, body: Record<string, unknown> = {}) {
  return desk.api("POST", "/v1/contacts", {
    headers: owner.headers,
    body: { email: `c${Math.random()}@example.test`, ...body },
  });
}

describe("custom field definitions", () => {
  test("access: admins and settings:write keys change, members and read keys read", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const body = { entity: "ticket", name: "Order", type: "text" };
    expect((await desk.api("POST", "/v1/custom-fields", { body })).status).toBe(401);
    expect((await desk.api("POST", "/v1/custom-fields", { headers: agent.headers, body })).status).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/custom-fields", {
          headers: (await createKey(desk, owner, ["settings:read"])).headers,
          body,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/custom-fields", {
          headers: (await createKey(desk, owner, ["settings:write"])).headers,
          body,
        })
      ).status,
    ).toBe(201);
    expect((await desk.api("GET", "/v1/custom-fields", { headers: agent.headers })).body.data.length).toBe(1);
    expect(
      (
        await desk.api("GET", "/v1/custom-fields", {
          headers: (await createKey(desk, owner, ["tickets:read"])).headers,
        })
      ).status,
    ).toBe(200);
    expect(
      (await desk.api("GET", "/v1/custom-fields", { headers: (await createKey(desk, owner, ["realtime"])).headers }))
        .status,
    ).toBe(403);
  });

  test("create: key from the name, option ids and colours, event and audit", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const field = await newField(owner, {
      entity: "ticket",
      name: "Plan Tier!",
      type: "select",
      options: [{ label: "Gold Plus" }, { label: "Free", id: "free", color: "green" }],
      required_on_solve: true,
    });
    expect(field).toMatchObject({
      key: "plan_tier",
      entity: "ticket",
      type: "select",
      required_on_solve: true,
      archived: false,
      position: 0,
      description: "",
    });
    expect(field.options).toEqual([
      { id: "gold_plus", label: "Gold Plus", color: "gray" },
      { id: "free", label: "Free", color: "green" },
    ]);
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual(["custom_field.created"]);
    expect(
      (
        await desk.deps.db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "custom_field.created")))
      ).length,
    ).toBe(1);
    const second = await newField(owner, { entity: "ticket", name: "Second", type: "number" });
    expect(second.position).toBe(1);
    const list = (await desk.api("GET", "/v1/custom-fields?entity=ticket", { headers: owner.headers })).body.data;
    expect(list.map((f: { key: string }) => f.key)).toEqual(["plan_tier", "second"]);
  });

  test("409 conflict when a passed key is taken in the entity; the same key on another entity is fine", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newField(owner, { entity: "contact", name: "Region", type: "text", key: "region" });
    const dup = await desk.api("POST", "/v1/custom-fields", {
      headers: owner.headers,
      body: { entity: "contact", name: "Other", type: "text", key: "region" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
    await newField(owner, { entity: "company", name: "Region", type: "text", key: "region" });
  });

  test("422 on bad definitions; key, entity and type are immutable", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ entity: "ticket", name: "<b>", type: "text" }, "body.name"],
      [{ entity: "ticket", name: "", type: "text" }, "body.name"],
      [{ entity: "ticket", name: "x".repeat(61), type: "text" }, "body.name"],
      [{ entity: "user", name: "x", type: "text" }, "body.entity"],
      [{ entity: "ticket", name: "x", type: "json" }, "body.type"],
      [{ entity: "ticket", name: "x", type: "text", key: "9bad" }, "body.key"],
      [{ entity: "ticket", name: "x", type: "text", key: "a".repeat(41) }, "body.key"],
      [{ entity: "contact", name: "x", type: "text", required_on_solve: true }, "body.required_on_solve"],
      [{ entity: "ticket", name: "x", type: "text", options: [{ label: "a" }] }, "body.options"],
      [{ entity: "ticket", name: "x", type: "select", options: [{ label: "a" }, { label: "A" }] }, "body.options.1.id"],
      [{ entity: "ticket", name: "x", type: "text", description: "d".repeat(301) }, "body.description"],
      [{ entity: "ticket", name: "###", type: "text" }, "body.name"],
    ];
    for (const [body, location] of bad) {
      const res = await desk.api("POST", "/v1/custom-fields", { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location.startsWith(location)).toBe(true);
    }
    const tooMany = await desk.api("POST", "/v1/custom-fields", {
      headers: owner.headers,
      body: {
        entity: "ticket",
        name: "x",
        type: "select",
        options: Array.from({ length: 201 }, (_, i) => ({ label: `o${i}` })),
      },
    });
    expect(tooMany.status).toBe(422);
    const field = await newField(owner, { entity: "ticket", name: "Fixed", type: "text" });
    for (const body of [{ key: "other" }, { type: "number" }, { entity: "contact" }]) {
      expect((await desk.api("PATCH", `/v1/custom-fields/${field.id}`, { headers: owner.headers, body })).status).toBe(
        422,
      );
    }
    expect((await desk.api("GET", "/v1/custom-fields", { headers: owner.headers })).body.data.length).toBe(1);
  });

  test("another workspace's field answers 404 and its key is unknown to record writes", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const field = await newField(a.owner, { entity: "contact", name: "Secret", type: "text" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      expect((await desk.api(method, `/v1/custom-fields/${field.id}`, { headers: b.owner.headers, body })).status).toBe(
        404,
      );
    }
    const res = await newContact(b.owner, { fields: { secret: "x" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.fields.secret");
    expect(
      (
        await desk.api("POST", "/v1/custom-fields/reorder", {
          headers: b.owner.headers,
          body: { entity: "contact", ids: [field.id] },
        })
      ).status,
    ).toBe(422);
    expect((await desk.api("GET", "/v1/contacts?field.secret=x", { headers: b.owner.headers })).status).toBe(422);
  });

  test("reorder per entity", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const a = await newField(owner, { entity: "company", name: "A", type: "text" });
    const b = await newField(owner, { entity: "company", name: "B", type: "text" });
    expect(
      (
        await desk.api("POST", "/v1/custom-fields/reorder", {
          headers: owner.headers,
          body: { entity: "company", ids: [b.id, a.id] },
        })
      ).status,
    ).toBe(204);
    const list = (await desk.api("GET", "/v1/custom-fields?entity=company", { headers: owner.headers })).body.data;
    expect(list.map((f: { key: string }) => f.key)).toEqual(["b", "a"]);
    expect(
      (
        await desk.api("POST", "/v1/custom-fields/reorder", {
          headers: owner.headers,
          body: { entity: "ticket", ids: [a.id] },
        })
      ).status,
    ).toBe(422);
  });
});

describe("custom field values", () => {
  async function workspaceWithAllTypes() {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const member = await addMember(desk, workspace.id, "agent");
    const defs = [
      { name: "Text", type: "text" },
      { name: "Long", type: "long_text" },
      { name: "Num", type: "number" },
      { name: "Sel", type: "select", options: [{ label: "Red" }, { label: "Blue" }] },
      { name: "Multi", type: "multi_select", options: [{ label: "A" }, { label: "B" }, { label: "C" }] },
      { name: "Day", type: "date" },
      { name: "Flag", type: "checkbox" },
      { name: "Site", type: "url" },
      { name: "Mail", type: "email" },
      { name: "Owner", type: "user" },
    ];
    const fields: Record<string, { id: string }> = {};
    for (const d of defs) fields[d.name.toLowerCase()] = await newField(owner, { entity: "contact", ...d });
    return { workspace, owner, member, fields };
  }

  test("each type accepts its value form and rejects others at body.fields.<key>", async () => {
    const { owner, member } = await workspaceWithAllTypes();
    const good = {
      text: "hello",
      long: "line1\nline2",
      num: 4.5,
      sel: "red",
      multi: ["a", "c", "a"],
      day: "2024-02-29",
      flag: false,
      site: "https://example.test/x",
      mail: "Ann@Example.TEST",
      owner: member.id,
    };
    const created = await newContact(owner, { fields: good });
    expect(created.status).toBe(201);
    expect(created.body.fields).toEqual({ ...good, multi: ["a", "c"], mail: "ann@example.test" });
    const bad: Array<[string, unknown]> = [
      ["text", "two\nlines"],
      ["text", "x".repeat(1001)],
      ["text", 5],
      ["long", "x".repeat(10001)],
      ["num", "5"],
      ["sel", "green"],
      ["multi", ["a", "z"]],
      ["multi", "a"],
      ["day", "2023-02-29"],
      ["day", "2024-1-1"],
      ["flag", "true"],
      ["site", "javascript:alert(1)"],
      ["site", "ftp://example.test"],
      ["site", `https://e.test/${"x".repeat(2000)}`],
      ["mail", "not-an-email"],
      ["owner", `${owner.id}x`],
      ["nope", "x"],
    ];
    for (const [key, value] of bad) {
      const res = await desk.api("PATCH", `/v1/contacts/${created.body.id}`, {
        headers: owner.headers,
        body: { fields: { [key]: value } },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe(`body.fields.${key}`);
    }
    const unchanged = await desk.api("GET", `/v1/contacts/${created.body.id}`, { headers: owner.headers });
    expect(unchanged.body.fields).toEqual(created.body.fields);
  });

  test("merge semantics: null, empty string and empty list clear; other keys stay", async () => {
    const { owner } = await workspaceWithAllTypes();
    const created = (await newContact(owner, { fields: { text: "a", num: 1, multi: ["b"] } })).body;
    const res = await desk.api("PATCH", `/v1/contacts/${created.id}`, {
      headers: owner.headers,
      body: { fields: { text: "", multi: [], sel: "blue" } },
    });
    expect(res.body.fields).toEqual({ num: 1, sel: "blue" });
    const cleared = await desk.api("PATCH", `/v1/contacts/${created.id}`, {
      headers: owner.headers,
      body: { fields: { num: null } },
    });
    expect(cleared.body.fields).toEqual({ sel: "blue" });
  });

  test("removing an option clears stored values; archived fields keep values but refuse changes; deleting a field deletes values", async () => {
    const { workspace, owner, fields } = await workspaceWithAllTypes();
    const one = (await newContact(owner, { fields: { sel: "red", multi: ["a", "b"] } })).body;
    const two = (await newContact(owner, { fields: { sel: "blue", multi: ["a"] } })).body;
    await desk.api("PATCH", `/v1/custom-fields/${fields.sel!.id}`, {
      headers: owner.headers,
      body: { options: [{ label: "Blue" }] },
    });
    await desk.api("PATCH", `/v1/custom-fields/${fields.multi!.id}`, {
      headers: owner.headers,
      body: { options: [{ label: "B" }, { label: "C" }] },
    });
    const read = async (id: string) =>
      (await desk.api("GET", `/v1/contacts/${id}`, { headers: owner.headers })).body.fields;
    expect(await read(one.id)).toEqual({ multi: ["b"] });
    expect(await read(two.id)).toEqual({ sel: "blue" });
    await desk.api("PATCH", `/v1/custom-fields/${fields.sel!.id}`, {
      headers: owner.headers,
      body: { archived: true },
    });
    expect(await read(two.id)).toEqual({ sel: "blue" });
    const refused = await desk.api("PATCH", `/v1/contacts/${two.id}`, {
      headers: owner.headers,
      body: { fields: { sel: null } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].location).toBe("body.fields.sel");
    const seq = await lastSeq(desk, workspace.id);
    expect((await desk.api("DELETE", `/v1/custom-fields/${fields.multi!.id}`, { headers: owner.headers })).status).toBe(
      204,
    );
    expect((await eventsSince(workspace.id, seq)).map((e) => [e.type, e.data])).toEqual([
      ["custom_field.deleted", { custom_field_id: fields.multi!.id, entity: "contact", key: "multi" }],
    ]);
    expect(await desk.deps.db.select().from(fieldValues).where(eq(fieldValues.fieldId, fields.multi!.id))).toEqual([]);
  });

  test("filters: every operator family, me for user fields, set and not_set", async () => {
    const { owner, member } = await workspaceWithAllTypes();
    const a = (
      await newContact(owner, {
        name: "a",
        fields: {
          text: "Alpha Beta",
          num: 10,
          sel: "red",
          multi: ["a", "b"],
          day: "2024-01-10",
          flag: true,
          owner: owner.id,
        },
      })
    ).body;
    const b = (
      await newContact(owner, {
        name: "b",
        fields: { text: "gamma", num: 20, sel: "blue", multi: ["b"], day: "2024-03-01", flag: false, owner: member.id },
      })
    ).body;
    const c = (await newContact(owner, { name: "c" })).body;
    const names = async (query: string) => {
      const res = await desk.api("GET", `/v1/contacts?${query}`, { headers: owner.headers });
      expect(res.status).toBe(200);
      return res.body.data
        .map((r: { name: string }) => r.name)
        .sort()
        .join("");
    };
    expect(await names("field.text=alpha%20beta")).toBe("a");
    expect(await names("field.text[contains]=ALP")).toBe("a");
    expect(await names("field.text[not_contains]=alp")).toBe("bc");
    expect(await names("field.text[ne]=gamma")).toBe("ac");
    expect(await names("field.num[gt]=10")).toBe("b");
    expect(await names("field.num[gte]=10")).toBe("ab");
    expect(await names("field.num[lt]=20")).toBe("a");
    expect(await names("field.num=20")).toBe("b");
    expect(await names("field.num[set]=")).toBe("ab");
    expect(await names("field.num[not_set]=")).toBe("c");
    expect(await names("field.day[lte]=2024-02-01")).toBe("a");
    expect(await names("field.flag=true")).toBe("a");
    expect(await names("field.flag=false")).toBe("bc");
    expect(await names("field.sel=red,blue")).toBe("ab");
    expect(await names("field.sel[none]=red")).toBe("bc");
    expect(await names("field.sel[eq]=blue")).toBe("b");
    expect(await names("field.multi[any]=a")).toBe("a");
    expect(await names("field.multi[all]=a,b")).toBe("a");
    expect(await names("field.multi[eq]=b")).toBe("b");
    expect(await names("field.multi[ne]=b")).toBe("ac");
    expect(await names("field.multi[none]=a")).toBe("bc");
    expect(await names("field.owner=me")).toBe("a");
    expect(await names(`field.owner[ne]=${owner.id}`)).toBe("bc");
    expect(await names("field.num[gt]=5&field.sel=blue")).toBe("b");
    void [a, b, c];
    const invalid: Array<[string, string]> = [
      ["field.num[contains]=1", "query.field.num"],
      ["field.num[gt]=abc", "query.field.num"],
      ["field.day=2024-13-01", "query.field.day"],
      ["field.flag=yes", "query.field.flag"],
      ["field.sel=green", "query.field.sel"],
      ["field.multi[gt]=a", "query.field.multi"],
      ["field.missing=x", "query.field.missing"],
      ["field.text=", "query.field.text"],
      ["field.BAD=x", "query.field.BAD"],
    ];
    for (const [query, location] of invalid) {
      const res = await desk.api("GET", `/v1/contacts?${query}`, { headers: owner.headers });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe(location);
    }
  });

  test("filters answer alike from the value index (few matches) and probing each record (many matches)", async () => {
    const { workspace, owner, fields } = await workspaceWithAllTypes();
    await newContact(owner, { name: "x1", fields: { text: "oslo", num: 499, sel: "blue", day: "2024-05-05" } });
    await newContact(owner, { name: "x2", fields: { text: "OSLO", num: 7, sel: "red" } });
    await newContact(owner, { name: "x3", fields: { text: "Bergen", num: 7, sel: "red" } });
    // SELECTIVE_VALUES filler contacts share text "Oslo", num 7, sel red: those values are now common.
    const now = new Date().toISOString();
    await transact(desk.deps.db, async (tx) => {
      for (let i = 0; i < SELECTIVE_VALUES; i++) {
        const id = `filler-${workspace.id}-${i}`;
        await execute(
          tx,
          sql`INSERT INTO contacts (id, workspace_id, name, created_at, updated_at) VALUES (${id}, ${workspace.id}, ${`filler ${i}`}, ${now}, ${now})`,
        );
        const value = async (fieldId: string, text: string | null, num: number | null) =>
          await execute(
            tx,
            sql`INSERT INTO field_values (workspace_id, entity, record_id, field_id, value_text, value_num) VALUES (${workspace.id}, 'contact', ${id}, ${fieldId}, ${text}, ${num})`,
          );
        await value(fields.text!.id, "Oslo", null);
        await value(fields.num!.id, null, 7);
        await value(fields.sel!.id, "red", null);
      }
    });
    const form = async (query: string) => {
      const [filter] = parseFieldFilters(Object.fromEntries(new URLSearchParams(query)));
      const built = desk.deps.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(await fieldFilterSql(owner.ctx, "contact", filter!, contacts.id, desk.deps.db))
        .toSQL();
      return built.sql.includes("EXISTS") ? "probe" : "index";
    };
    expect(await form("field.text=oslo")).toBe("probe");
    expect(await form("field.num=499")).toBe("index");
    expect(await form("field.sel=blue")).toBe("index");
    expect(await form("field.sel=red")).toBe("probe");
    expect(await form("field.day=2024-05-05")).toBe("index");
    const names = async (query: string) => {
      const res = await desk.api("GET", `/v1/contacts?limit=100&${query}`, { headers: owner.headers });
      expect(res.status).toBe(200);
      return res.body.data
        .map((r: { name: string }) => r.name)
        .sort()
        .join(",");
    };
    expect(await names("field.text=OSLO&field.num=499")).toBe("x1"); // probe (any case) + index
    expect(await names("field.num=499")).toBe("x1");
    expect(await names("field.sel=blue&field.text=Oslo")).toBe("x1");
    expect(await names("field.sel=red&field.text=bergen")).toBe("x3"); // index on text, probe on select
    expect(await names("field.sel=red,blue&field.num[gt]=100")).toBe("x1");
    expect(await names("field.day=2024-05-05")).toBe("x1");
    expect(await names("field.day[gte]=2024-01-01")).toBe("x1");
    expect(await names("field.text=oslo&field.num=7&field.sel=red&field.day[set]=")).toBe("");
  });

  test("applyFieldWriteWithValues gives the values fieldValuesOf reads after the write", async () => {
    const { owner } = await workspaceWithAllTypes();
    const contact = (await newContact(owner, { name: "v", fields: { sel: "red", text: "keep" } })).body;
    const write = async (fields: Record<string, unknown>) =>
      await transact(
        desk.deps.db,
        async (tx) => await applyFieldWriteWithValues(tx, owner.ctx, "contact", contact.id, fields),
      );
    const stored = async () => (await fieldValuesOf(desk.deps.db, "contact", [contact.id])).get(contact.id)!;
    const result = await write({ num: 3, sel: null, multi: ["b"], day: "2024-01-01" });
    expect(result.changes.map((c) => c.key).sort()).toEqual(["day", "multi", "num", "sel"]);
    expect(result.values).toEqual(await stored());
    expect(Object.keys(result.values!)).toEqual(Object.keys(await stored())); // field order too
    expect(Object.keys(result.values!)).toEqual(["text", "num", "multi", "day"]);
    expect(await write({ num: 3 })).toEqual({ changes: [], values: await stored() });
    expect(await write({})).toEqual({ changes: [], values: null });
    expect(await fieldValuesOf(desk.deps.db, "contact", [])).toEqual(new Map());
  });

  test("fieldSortSql sorts by value with missing values lowest; unsortable types answer 422", async () => {
    const { owner } = await workspaceWithAllTypes();
    for (const [name, num] of [
      ["x", 3],
      ["y", null],
      ["z", 1],
    ] as const)
      await newContact(owner, { name, fields: num === null ? {} : { num } });
    const order = (
      await desk.deps.db
        .select({ name: contacts.name })
        .from(contacts)
        .where(eq(contacts.workspaceId, owner.workspaceId))
        .orderBy(
          fieldSortOrderSql(
            desk.deps.db,
            await fieldSortSql(owner.ctx, "contact", "num", contacts.id, desk.deps.db),
            "asc",
          ),
        )
    ).map((r) => r.name);
    expect(order).toEqual(["y", "z", "x"]);
    await expect(fieldSortSql(owner.ctx, "contact", "multi", contacts.id, desk.deps.db)).rejects.toThrow();
    await expect(fieldSortSql(owner.ctx, "contact", "missing", contacts.id, desk.deps.db)).rejects.toThrow();
  });

  test("parseFieldFilters reads field.<key> and field.<key>[op]", () => {
    expect(parseFieldFilters({ "field.a": "1", "field.b[gt]": "2", q: "x", "field.c": ["x", "y"] })).toEqual([
      { key: "a", op: null, value: "1" },
      { key: "b", op: "gt", value: "2" },
      { key: "c", op: null, value: "x,y" },
    ]);
  });

  test("missingRequiredOnSolve lists required ticket fields still empty", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await newField(owner, { entity: "ticket", name: "Cause", type: "text", required_on_solve: true });
    await newField(owner, {
      entity: "ticket",
      name: "Area",
      type: "select",
      options: [{ label: "Web" }],
      required_on_solve: true,
    });
    await newField(owner, { entity: "ticket", name: "Free", type: "text" });
    expect(await missingRequiredOnSolve(desk.deps.db, workspace.id, null)).toEqual(["cause", "area"]);
    expect(await missingRequiredOnSolve(desk.deps.db, workspace.id, null, { cause: "x", area: "" })).toEqual(["area"]);
    await desk.deps.db.insert(fieldValues).values({
      workspaceId: workspace.id,
      entity: "ticket",
      recordId: "t1",
      fieldId: (await desk.api("GET", "/v1/custom-fields?entity=ticket", { headers: owner.headers })).body.data[1].id,
      valueText: "web",
      valueNum: null,
      valueJson: null,
    });
    expect(await missingRequiredOnSolve(desk.deps.db, workspace.id, "t1")).toEqual(["cause"]);
    expect(await missingRequiredOnSolve(desk.deps.db, workspace.id, "t1", { area: null })).toEqual(["cause", "area"]);
  });
});
