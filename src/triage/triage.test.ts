import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLogs } from "../audit/audit.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { triageSettingsOf } from "./triage.public";

const desk: TestDesk = await startTestDesk();

const DEFAULTS = {
  auto_triage: false,
  fields: ["priority", "severity", "labels"],
  assign_after_triage: false,
  threshold: 0.7,
  engine: { provider: "none", model: "", connected: false },
  available: false,
};

describe("GET/PATCH /v1/triage", () => {
  test("defaults; any member reads; admins write; keys need settings scopes; 401 without credential", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const agent = await addMember(desk, workspace.id, "agent");
    const admin = await addMember(desk, workspace.id, "admin");
    expect((await desk.api("GET", "/v1/triage")).status).toBe(401);
    expect((await desk.api("PATCH", "/v1/triage", { body: { auto_triage: true } })).status).toBe(401);
    const read = await desk.api("GET", "/v1/triage", { headers: viewer.headers });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(DEFAULTS);
    for (const who of [viewer, agent])
      expect(
        (await desk.api("PATCH", "/v1/triage", { headers: who.headers, body: { auto_triage: true } })).status,
      ).toBe(403);
    const reader = await createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("GET", "/v1/triage", { headers: reader.headers })).status).toBe(200);
    expect((await desk.api("PATCH", "/v1/triage", { headers: reader.headers, body: { threshold: 0.8 } })).status).toBe(
      403,
    );
    const noScope = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/triage", { headers: noScope.headers })).status).toBe(403);

    const saved = await desk.api("PATCH", "/v1/triage", {
      headers: admin.headers,
      body: { auto_triage: true, fields: ["priority", "team"], threshold: 0.85 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...DEFAULTS, auto_triage: true, fields: ["priority", "team"], threshold: 0.85 });
    // Members not sent are kept.
    const partial = await desk.api("PATCH", "/v1/triage", {
      headers: (await createKey(desk, owner, ["settings:read", "settings:write"])).headers,
      body: { assign_after_triage: true },
    });
    expect(partial.body).toMatchObject({ auto_triage: true, fields: ["priority", "team"], assign_after_triage: true });
    expect(await triageSettingsOf(desk.deps.db, workspace.id)).toEqual({
      autoTriage: true,
      fields: ["priority", "team"],
      assignAfterTriage: true,
      threshold: 0.85,
    });
    const audit = await desk.deps.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "triage.updated")));
    expect(audit.map((a) => a.data)).toEqual([
      { auto_triage: true, fields: ["priority", "team"], threshold: 0.85 },
      { assign_after_triage: true },
    ]);
    // Another workspace keeps its own (default) settings.
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/triage", { headers: other.owner.headers })).body).toEqual(DEFAULTS);
  });

  test("422 at the field for a threshold out of 0.5-0.99, unknown or repeated fields, read-only members; nothing stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    for (const [body, location] of [
      [{ threshold: 0.49 }, "body.threshold"],
      [{ threshold: 1 }, "body.threshold"],
      [{ threshold: "0.7" }, "body.threshold"],
      [{ fields: ["priority", "status"] }, "body.fields.1"],
      [{ fields: ["labels", "labels"] }, "body.fields"],
      [{ auto_triage: "yes" }, "body.auto_triage"],
      [{ available: true }, "body"],
      [{ engine: { provider: "llm" } }, "body"],
    ] as const) {
      const res = await desk.api("PATCH", "/v1/triage", { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect(await triageSettingsOf(desk.deps.db, workspace.id)).toEqual({
      autoTriage: false,
      fields: ["priority", "severity", "labels"],
      assignAfterTriage: false,
      threshold: 0.7,
    });
    // The bounds themselves are allowed, and so is an empty list (triage only suggests).
    const edge = await desk.api("PATCH", "/v1/triage", {
      headers: owner.headers,
      body: { threshold: 0.99, fields: [] },
    });
    expect(edge.body).toMatchObject({ threshold: 0.99, fields: [] });
    expect(
      (await desk.api("PATCH", "/v1/triage", { headers: owner.headers, body: { threshold: 0.5 } })).body.threshold,
    ).toBe(0.5);
  });
});

describe("the engine as configured", async () => {
  const withAi = await startTestDesk({
    config: {
      ai: {
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey: "k",
        model: "small-model",
        fastModel: "small-model",
        widgetModel: "small-model",
        embeddingModel: null,
        timeoutMs: 5_000,
        maxRetries: 0,
      },
    },
  });
  test("an AI model makes triage available (llm) unless AI is off for the workspace", async () => {
    const { owner } = await createWorkspaceWithOwner(withAi);
    const on = await withAi.api("GET", "/v1/triage", { headers: owner.headers });
    expect(on.body).toMatchObject({
      engine: { provider: "llm", model: "small-model", connected: true },
      available: true,
    });
    await withAi.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { ai: { enabled: false } } },
    });
    expect((await withAi.api("GET", "/v1/triage", { headers: owner.headers })).body.available).toBe(false);
  });
});
