import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { transact } from "../db/tx";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { lastSeq } from "../../test/kit/events";
import { setContactLocaleIfUnset } from "./contacts.locale";

const desk: TestDesk = await startTestDesk();
const updatesSince = async (workspaceId: string, seq: number) =>
  (
    await desk.deps.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "contact.updated")))
  ).filter((e) => e.seq > seq);

describe("Contact.locale", () => {
  test("set, stored canonical, changed and cleared through the API, in the events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "lena@example.test", locale: "de-at" },
    });
    expect(created.status).toBe(201);
    expect(created.body.locale).toBe("de-AT");
    const id = created.body.id;
    expect((await desk.api("GET", `/v1/contacts/${id}`, { headers: owner.headers })).body.locale).toBe("de-AT");
    const seq = await lastSeq(desk, workspace.id);
    const changed = await desk.api("PATCH", `/v1/contacts/${id}`, {
      headers: owner.headers,
      body: { locale: "PT-br" },
    });
    expect(changed.body.locale).toBe("pt-BR");
    const [event] = await updatesSince(workspace.id, seq);
    expect((event!.data as { contact: { locale: string } }).contact.locale).toBe("pt-BR");
    const cleared = await desk.api("PATCH", `/v1/contacts/${id}`, { headers: owner.headers, body: { locale: null } });
    expect(cleared.body.locale).toBeNull();
    const plain = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "No language" } });
    expect(plain.body.locale).toBeNull();
  });

  test("422 at body.locale for a malformed or over-long tag; nothing changes", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const id = (await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { locale: "fr" } })).body.id;
    for (const locale of ["de_DE", "x", "", "<script>", "en-".repeat(12), 42]) {
      for (const [method, path] of [
        ["POST", "/v1/contacts"],
        ["PATCH", `/v1/contacts/${id}`],
      ] as const) {
        const res = await desk.api(method, path, { headers: owner.headers, body: { locale } });
        expect(res.status).toBe(422);
        expect(res.body.errors[0].location).toBe("body.locale");
      }
    }
    expect((await desk.api("GET", `/v1/contacts/${id}`, { headers: owner.headers })).body.locale).toBe("fr");
  });

  test("another workspace's contact answers 404 to a locale change", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const id = (await desk.api("POST", "/v1/contacts", { headers: a.owner.headers, body: { locale: "nl" } })).body.id;
    const res = await desk.api("PATCH", `/v1/contacts/${id}`, { headers: b.owner.headers, body: { locale: "de" } });
    expect(res.status).toBe(404);
    expect((await desk.api("GET", `/v1/contacts/${id}`, { headers: a.owner.headers })).body.locale).toBe("nl");
  });

  test("a language learnt along the way is set once and never over an agent's choice", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const unset = (await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "U" } })).body.id;
    const chosen = (await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { locale: "es" } })).body.id;
    const now = desk.deps.clock.now().toISOString();
    const learn = async (id: string, tag: string | null, workspaceId = workspace.id) =>
      await transact(
        desk.deps.db,
        async (tx) => await setContactLocaleIfUnset(tx, workspaceId, id, tag, now, desk.deps.ports),
      );
    const seq = await lastSeq(desk, workspace.id);
    expect(await learn(unset, "not a tag")).toBe(false);
    expect(await learn(unset, null)).toBe(false);
    expect(await learn(unset, "fr-fr")).toBe(true);
    expect(await learn(unset, "de")).toBe(false);
    expect(await learn(chosen, "de")).toBe(false);
    const other = await createWorkspaceWithOwner(desk);
    const foreign = (await desk.api("POST", "/v1/contacts", { headers: other.owner.headers, body: {} })).body.id;
    expect(await learn(foreign, "de")).toBe(false);
    expect((await desk.api("GET", `/v1/contacts/${unset}`, { headers: owner.headers })).body.locale).toBe("fr-FR");
    expect((await desk.api("GET", `/v1/contacts/${chosen}`, { headers: owner.headers })).body.locale).toBe("es");
    expect(await updatesSince(workspace.id, seq)).toHaveLength(1);
  });
});
