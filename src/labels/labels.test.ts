import { describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { execute } from "../db/store";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { transact } from "../db/tx";
import { applyLabelWrite, labelsOf, type LabelWrite } from "./labels.apply";
import { colorForName } from "./labels.rules";
import { recordTags } from "./labels.table";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();

const eventsSince = async (workspaceId: string, afterSeq: number) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId)).orderBy(events.seq)).filter(
    (e) => e.seq > afterSeq,
  );

async function newTag(owner: Member, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/tags", { headers: owner.headers, body });
  expect(res.status).toBe(201);
  return res.body;
}

describe("labels: access", () => {
  test("401 without credentials, 403 for agents and keys without settings:write, reads for members and read scopes", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await desk.api("GET", "/v1/tags")).status).toBe(401);
    expect((await desk.api("POST", "/v1/tags", { headers: agent.headers, body: { name: "x" } })).status).toBe(403);
    const readKey = await createKey(desk, owner, ["tickets:read", "settings:read"]);
    expect((await desk.api("POST", "/v1/tags", { headers: readKey.headers, body: { name: "x" } })).status).toBe(403);
    expect((await desk.api("GET", "/v1/tags", { headers: viewer.headers })).status).toBe(200);
    expect(
      (await desk.api("GET", "/v1/tags", { headers: (await createKey(desk, owner, ["contacts:read"])).headers }))
        .status,
    ).toBe(200);
    expect(
      (await desk.api("GET", "/v1/tags", { headers: (await createKey(desk, owner, ["kb:read"])).headers })).status,
    ).toBe(403);
    const writeKey = await createKey(desk, owner, ["settings:write"]);
    expect((await desk.api("POST", "/v1/tags", { headers: writeKey.headers, body: { name: "from key" } })).status).toBe(
      201,
    );
  });
});

describe("labels: create, read, update", () => {
  test("create applies defaults, emits tag.created and is audit-logged", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const tag = await newTag(owner, { name: "  Billing  issue " });
    expect(tag).toMatchObject({
      name: "Billing issue",
      color: colorForName("billing issue"),
      description: "",
      group_id: null,
      position: 0,
      archived: false,
    });
    expect(tag.applies_to).toEqual(["tickets", "contacts", "companies"]);
    expect(tag.usage).toEqual({ tickets: 0, contacts: 0, companies: 0 });
    const second = await newTag(owner, { name: "VIP" });
    expect(second.position).toBe(1);
    const emitted = await eventsSince(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual(["tag.created", "tag.created"]);
    expect((emitted[0]!.data as { tag: { id: string } }).tag.id).toBe(tag.id);
    const audit = await desk.deps.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "tag.created")));
    expect(audit.length).toBe(2);
  });

  test("the palette colour depends only on the name, in any case", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const one = await newTag(a.owner, { name: "Refund" });
    const two = await newTag(b.owner, { name: "REFUND" });
    expect(one.color).toBe(two.color);
  });

  test("409 conflict on a duplicate name ignoring case, on create and rename", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newTag(owner, { name: "Bug" });
    const dup = await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "bUG" } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
    const other = await newTag(owner, { name: "Feature" });
    const rename = await desk.api("PATCH", `/v1/tags/${other.id}`, { headers: owner.headers, body: { name: "BUG" } });
    expect(rename.status).toBe(409);
  });

  test("422 on bad input, nothing stored", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "" }, "body.name"],
      [{ name: "a".repeat(51) }, "body.name"],
      [{ name: "<script>" }, "body.name"],
      [{ name: "semi;colon" }, "body.name"],
      [{ name: 42 }, "body.name"],
      [{ name: "ok", description: "d".repeat(301) }, "body.description"],
      [{ name: "ok", color: "black" }, "body.color"],
      [{ name: "ok", applies_to: ["tickets", "users"] }, "body.applies_to.1"],
      [{ name: "ok", unknown: 1 }, "body"],
      [{ name: "ok", group_id: "nope" }, "body.group_id"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("POST", "/v1/tags", { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(
        res.body.errors.map((e: { location: string }) => e.location).some((l: string) => l.startsWith(location)),
      ).toBe(true);
    }
    const list = await desk.api("GET", "/v1/tags", { headers: owner.headers });
    expect(list.body.data).toEqual([]);
  });

  test("names may use letters of any script, digits and - _ . / : & + #", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const tag = await newTag(owner, { name: "Ünïcödé 2/3 R&D: c++ #1 a_b.c-d" });
    expect(tag.name).toBe("Ünïcödé 2/3 R&D: c++ #1 a_b.c-d");
  });

  test("another workspace's label answers 404 and its group id 422", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const tag = await newTag(a.owner, { name: "Secret" });
    const group = (await desk.api("POST", "/v1/tag-groups", { headers: a.owner.headers, body: { name: "G" } })).body;
    for (const [method, path, body] of [
      ["GET", `/v1/tags/${tag.id}`, undefined],
      ["PATCH", `/v1/tags/${tag.id}`, { name: "Mine" }],
      ["DELETE", `/v1/tags/${tag.id}`, undefined],
      ["POST", `/v1/tags/${tag.id}/merge`, { into: tag.id }],
      ["GET", `/v1/tag-groups/${group.id}`, undefined],
      ["PATCH", `/v1/tag-groups/${group.id}`, { name: "x" }],
      ["DELETE", `/v1/tag-groups/${group.id}`, undefined],
    ] as const) {
      expect((await desk.api(method, path, { headers: b.owner.headers, body })).status).toBe(404);
    }
    const res = await desk.api("POST", "/v1/tags", {
      headers: b.owner.headers,
      body: { name: "Linked", group_id: group.id },
    });
    expect(res.status).toBe(422);
    const own = await newTag(b.owner, { name: "Own" });
    expect(
      (await desk.api("POST", `/v1/tags/${own.id}/merge`, { headers: b.owner.headers, body: { into: tag.id } })).status,
    ).toBe(422);
    expect(
      (await desk.api("POST", "/v1/tags/reorder", { headers: b.owner.headers, body: { ids: [tag.id] } })).status,
    ).toBe(422);
    expect((await desk.api("GET", `/v1/tags/${tag.id}`, { headers: a.owner.headers })).body.name).toBe("Secret");
  });

  test("list filters and order: group position, position, name", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const g2 = (await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "Second" } })).body;
    const g1 = (
      await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "First", position: 0 } })
    ).body;
    await desk.api("PATCH", `/v1/tag-groups/${g2.id}`, { headers: owner.headers, body: { position: 5 } });
    await newTag(owner, { name: "zeta", group_id: g2.id });
    await newTag(owner, { name: "beta", group_id: g1.id, position: 0 });
    await newTag(owner, { name: "alpha", group_id: g1.id, position: 0 });
    const loose = await newTag(owner, { name: "loose", applies_to: ["contacts"] });
    await desk.api("PATCH", `/v1/tags/${loose.id}`, { headers: owner.headers, body: { archived: true } });
    const names = async (query = "") =>
      (await desk.api("GET", `/v1/tags${query}`, { headers: owner.headers })).body.data.map(
        (t: { name: string }) => t.name,
      );
    expect(await names()).toEqual(["loose", "alpha", "beta", "zeta"]);
    expect(await names("?group_id=none")).toEqual(["loose"]);
    expect(await names(`?group_id=${g1.id}`)).toEqual(["alpha", "beta"]);
    expect(await names("?archived=true")).toEqual(["loose"]);
    expect(await names("?archived=false")).toEqual(["alpha", "beta", "zeta"]);
    expect(await names("?applies_to=tickets")).toEqual(["alpha", "beta", "zeta"]);
    expect(await names("?q=ET")).toEqual(["beta", "zeta"]);
    expect((await desk.api("GET", "/v1/tags?archived=maybe", { headers: owner.headers })).status).toBe(422);
  });

  test("reorder sets positions to indexes", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const a = await newTag(owner, { name: "a" });
    const b = await newTag(owner, { name: "b" });
    const c = await newTag(owner, { name: "c" });
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", "/v1/tags/reorder", {
      headers: owner.headers,
      body: { ids: [c.id, a.id, b.id] },
    });
    expect(res.status).toBe(204);
    const list = (await desk.api("GET", "/v1/tags", { headers: owner.headers })).body.data;
    expect(list.map((t: { name: string }) => t.name)).toEqual(["c", "a", "b"]);
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual([
      "tag.updated",
      "tag.updated",
      "tag.updated",
    ]);
    expect(
      (await desk.api("POST", "/v1/tags/reorder", { headers: owner.headers, body: { ids: [a.id, "missing"] } })).body
        .errors[0].location,
    ).toBe("body.ids.1");
  });
});

describe("labels on records", () => {
  async function contactWith(owner: Member, body: Record<string, unknown>) {
    const res = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: `c${Math.random()}@example.test`, ...body },
    });
    return res;
  }

  test("tags replaces, add_tags and remove_tags adjust; unknown names create labels with tag.created", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const created = await contactWith(owner, { tags: ["one", "Two"] });
    expect(created.status).toBe(201);
    expect(created.body.tags.map((t: { name: string }) => t.name)).toEqual(["one", "Two"]);
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual([
      "tag.created",
      "tag.created",
      "contact.created",
    ]);
    const id = created.body.id;
    const patched = await desk.api("PATCH", `/v1/contacts/${id}`, {
      headers: owner.headers,
      body: { add_tags: ["three", "ONE"], remove_tags: ["two", "never-existed"] },
    });
    expect(patched.body.tags.map((t: { name: string }) => t.name).sort()).toEqual(["one", "three"]);
    const replaced = await desk.api("PATCH", `/v1/contacts/${id}`, { headers: owner.headers, body: { tags: ["two"] } });
    expect(replaced.body.tags.map((t: { name: string }) => t.name)).toEqual(["Two"]);
    const usage = (await desk.api("GET", "/v1/tags?q=two", { headers: owner.headers })).body.data[0].usage;
    expect(usage).toEqual({ tickets: 0, contacts: 1, companies: 0 });
  });

  test("422 at body.tags.N for bad names; nothing changes", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const res = await contactWith(owner, { tags: ["fine", "bad<name>"] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.tags.1");
    expect((await desk.api("GET", "/v1/tags", { headers: owner.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", "/v1/contacts", { headers: owner.headers })).body.data).toEqual([]);
    const add = await contactWith(owner, { add_tags: [""] });
    expect(add.body.errors[0].location).toBe("body.add_tags.0");
  });

  test("unknown_label when label creation is restricted to admins", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const restricted = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { label_creation: "admins" } },
    });
    expect(restricted.status).toBe(200);
    const agent = await addMember(desk, workspace.id, "agent");
    await newTag(owner, { name: "existing" });
    const res = await contactWith(agent, { tags: ["existing", "brand new"] });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_label");
    expect(res.body.errors[0].location).toBe("body.tags.1");
    expect((await contactWith(agent, { tags: ["existing"] })).status).toBe(201);
    expect((await contactWith(owner, { tags: ["brand new"] })).status).toBe(201);
    const keyNoSettings = await createKey(desk, owner, ["contacts:write"]);
    expect((await contactWith(keyNoSettings as unknown as Member, { tags: ["another"] })).body.code).toBe(
      "unknown_label",
    );
    const keySettings = await createKey(desk, owner, ["contacts:write", "settings:write"]);
    expect((await contactWith(keySettings as unknown as Member, { tags: ["another"] })).status).toBe(201);
  });

  test("a label whose applies_to leaves out the record kind answers 422", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newTag(owner, { name: "tickets only", applies_to: ["tickets"] });
    const res = await contactWith(owner, { tags: ["tickets only"] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.tags.0");
  });

  test("exclusive group: the last named wins, and adding replaces the group's other label", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const group = (
      await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "Tier", exclusive: true } })
    ).body;
    for (const name of ["gold", "silver", "bronze"]) await newTag(owner, { name, group_id: group.id });
    const created = await contactWith(owner, { tags: ["gold", "other", "silver"] });
    expect(created.body.tags.map((t: { name: string }) => t.name).sort()).toEqual(["other", "silver"]);
    const added = await desk.api("PATCH", `/v1/contacts/${created.body.id}`, {
      headers: owner.headers,
      body: { add_tags: ["bronze"] },
    });
    expect(added.body.tags.map((t: { name: string }) => t.name).sort()).toEqual(["bronze", "other"]);
  });

  test("turning a group exclusive leaves existing records until their labels change", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const group = (await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "Size" } })).body;
    for (const name of ["small", "large"]) await newTag(owner, { name, group_id: group.id });
    const created = await contactWith(owner, { tags: ["small", "large"] });
    expect(created.body.tags.length).toBe(2);
    await desk.api("PATCH", `/v1/tag-groups/${group.id}`, { headers: owner.headers, body: { exclusive: true } });
    const read = await desk.api("GET", `/v1/contacts/${created.body.id}`, { headers: owner.headers });
    expect(read.body.tags.length).toBe(2);
    const changed = await desk.api("PATCH", `/v1/contacts/${created.body.id}`, {
      headers: owner.headers,
      body: { add_tags: ["small"] },
    });
    expect(changed.body.tags.map((t: { name: string }) => t.name)).toEqual(["small"]);
  });

  test("at most 50 labels per record", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const names = Array.from({ length: 51 }, (_, i) => `l${i}`);
    const res = await contactWith(owner, { tags: names });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.tags");
    expect((await contactWith(owner, { tags: names.slice(0, 50) })).status).toBe(201);
  });

  test("delete removes the label from every record; rename rewrites views", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const contact = (await contactWith(owner, { tags: ["old name", "keep"] })).body;
    const tag = (await desk.api("GET", "/v1/tags?q=old", { headers: owner.headers })).body.data[0];
    const view = (
      await desk.api("POST", "/v1/views", {
        headers: owner.headers,
        body: { name: "Old", filters: { tag: "OLD NAME" } },
      })
    ).body;
    const seq = await lastSeq(desk, workspace.id);
    const renamed = await desk.api("PATCH", `/v1/tags/${tag.id}`, {
      headers: owner.headers,
      body: { name: "New name" },
    });
    expect(renamed.status).toBe(200);
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual(["view.updated", "tag.updated"]);
    expect((await desk.api("GET", `/v1/views/${view.id}`, { headers: owner.headers })).body.filters.tag).toBe(
      "New name",
    );
    const seq2 = await lastSeq(desk, workspace.id);
    expect((await desk.api("DELETE", `/v1/tags/${tag.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await eventsSince(workspace.id, seq2)).map((e) => e.type)).toEqual(["tag.deleted"]);
    const after = await desk.api("GET", `/v1/contacts/${contact.id}`, { headers: owner.headers });
    expect(after.body.tags.map((t: { name: string }) => t.name)).toEqual(["keep"]);
    expect(await desk.deps.db.select().from(recordTags).where(eq(recordTags.tagId, tag.id))).toEqual([]);
  });

  test("merge moves records to the target, honours exclusive groups, rewrites views, deletes the source", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const group = (
      await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "Plan", exclusive: true } })
    ).body;
    const target = await newTag(owner, { name: "pro", group_id: group.id });
    await newTag(owner, { name: "free", group_id: group.id });
    const source = await newTag(owner, { name: "professional" });
    const a = (await contactWith(owner, { tags: ["professional", "free"] })).body;
    const b = (await contactWith(owner, { tags: ["professional", "pro"] })).body;
    const c = (await contactWith(owner, { tags: ["free"] })).body;
    const view = (
      await desk.api("POST", "/v1/views", {
        headers: owner.headers,
        body: { name: "Pros", filters: { tag: "professional" } },
      })
    ).body;
    expect(
      (await desk.api("POST", `/v1/tags/${source.id}/merge`, { headers: owner.headers, body: { into: source.id } }))
        .status,
    ).toBe(422);
    const seq = await lastSeq(desk, workspace.id);
    const merged = await desk.api("POST", `/v1/tags/${source.id}/merge`, {
      headers: owner.headers,
      body: { into: target.id },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(target.id);
    expect(merged.body.usage.contacts).toBe(2);
    const types = (await eventsSince(workspace.id, seq)).map((e) => e.type);
    expect(types).toEqual(["view.updated", "tag.merged"]);
    expect((await eventsSince(workspace.id, seq)).at(-1)!.data).toEqual({ tag_id: source.id, into: target.id });
    const tagsOf = async (id: string) =>
      (await desk.api("GET", `/v1/contacts/${id}`, { headers: owner.headers })).body.tags.map(
        (t: { name: string }) => t.name,
      );
    expect(await tagsOf(a.id)).toEqual(["pro"]);
    expect(await tagsOf(b.id)).toEqual(["pro"]);
    expect(await tagsOf(c.id)).toEqual(["free"]);
    expect((await desk.api("GET", `/v1/tags/${source.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", `/v1/views/${view.id}`, { headers: owner.headers })).body.filters.tag).toBe("pro");
  });
});

describe("label limits", () => {
  test("a workspace holds at most 1000 labels, by POST or by naming on a record", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    for (let i = 0; i < 999; i++)
      await execute(
        desk.deps.db,
        sql`INSERT INTO tags (id, workspace_id, name, name_key, color, description, position, archived, applies_to, created_at, updated_at) VALUES (${`seed-${workspace.id}-${i}`}, ${workspace.id}, ${`seed ${i}`}, ${`seed ${i}`}, 'gray', '', ${i}, false, '["tickets","contacts","companies"]', '', '')`,
      );
    await newTag(owner, { name: "the thousandth" });
    const over = await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "one more" } });
    expect(over.status).toBe(422);
    const viaRecord = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { tags: ["one more"] } });
    expect(viaRecord.status).toBe(422);
    expect(viaRecord.body.errors[0].location).toBe("body.tags.0");
  });
});

describe("label groups", () => {
  test("CRUD with tag_count; deleting keeps labels ungrouped; events for each change", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("POST", "/v1/tag-groups", {
      headers: owner.headers,
      body: { name: "Area", color: "blue", exclusive: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Area", color: "blue", exclusive: true, position: 0, tag_count: 0 });
    const tag = await newTag(owner, { name: "web", group_id: created.body.id });
    expect(
      (await desk.api("GET", `/v1/tag-groups/${created.body.id}`, { headers: owner.headers })).body.tag_count,
    ).toBe(1);
    const patched = await desk.api("PATCH", `/v1/tag-groups/${created.body.id}`, {
      headers: owner.headers,
      body: { name: "Areas", exclusive: false },
    });
    expect(patched.body).toMatchObject({ name: "Areas", exclusive: false, tag_count: 1 });
    expect((await desk.api("DELETE", `/v1/tag-groups/${created.body.id}`, { headers: owner.headers })).status).toBe(
      204,
    );
    expect((await desk.api("GET", `/v1/tags/${tag.id}`, { headers: owner.headers })).body.group_id).toBeNull();
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual([
      "tag_group.created",
      "tag.created",
      "tag_group.updated",
      "tag.updated",
      "tag_group.deleted",
    ]);
  });

  test("422 on bad names and colours; at most 50 groups; reorder", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (const body of [
      { name: "" },
      { name: "x".repeat(51) },
      { name: "ok", color: "black" },
      { name: "ok", extra: true },
      {},
    ]) {
      expect((await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body })).status).toBe(422);
    }
    const ids: string[] = [];
    for (let i = 0; i < 50; i++)
      ids.push((await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: `g${i}` } })).body.id);
    const over = await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "one too many" } });
    expect(over.status).toBe(422);
    expect(
      (await desk.api("POST", "/v1/tag-groups/reorder", { headers: owner.headers, body: { ids: [...ids].reverse() } }))
        .status,
    ).toBe(204);
    const list = (await desk.api("GET", "/v1/tag-groups", { headers: owner.headers })).body.data;
    expect(list[0].name).toBe("g49");
  });
});

describe("labels: the write result", () => {
  test("applyLabelWrite's tags list equals labelsOf after the write (group position, position, name)", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const later = (
      await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "Later", position: 5 } })
    ).body;
    const first = (
      await desk.api("POST", "/v1/tag-groups", { headers: owner.headers, body: { name: "First", position: 1 } })
    ).body;
    await newTag(owner, { name: "zeta", group_id: first.id, position: 0 });
    await newTag(owner, { name: "Alpha", group_id: later.id, position: 2 });
    await newTag(owner, { name: "beta", group_id: later.id, position: 2 });
    await newTag(owner, { name: "plain", position: 9 });
    const contact = (await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "Ann" } })).body;
    const write = async (w: LabelWrite) =>
      await transact(
        desk.deps.db,
        async (tx) => await applyLabelWrite(tx, owner.ctx, "contacts", contact.id, w, desk.deps.ports),
      );
    const stored = async () => (await labelsOf(desk.deps.db, "contacts", [contact.id])).get(contact.id);
    const result = await write({ tags: ["beta", "new one", "zeta", "Alpha", "plain"] });
    expect(result.tags!.map((t) => t.name)).toEqual(["plain", "new one", "zeta", "Alpha", "beta"]);
    expect(result.tags).toEqual((await stored())!);
    const next = await write({ add_tags: ["another"], remove_tags: ["zeta"] });
    expect(next.tags).toEqual((await stored())!);
    expect(next.removed.map((t) => t.name)).toEqual(["zeta"]);
    expect((await write({})).tags).toBeNull();
    expect(await labelsOf(desk.deps.db, "contacts", [])).toEqual(new Map());
    void workspace;
  });
});
