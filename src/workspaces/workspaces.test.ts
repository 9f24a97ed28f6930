import { first as firstRow, rowsOf } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessions } from "../identity/identity.table";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { members } from "../members/members.table";
import { workspaces } from "./workspaces.table";
import { createWorkspace } from "./workspaces.service";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createUser, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();

const eventsAfter = async (d: TestDesk, wid: string, seq: number) =>
  await d.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, wid), gt(events.seq, seq)))
    .orderBy(asc(events.seq));
const auditOf = async (d: TestDesk, wid: string, action: string) =>
  await d.deps.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.workspaceId, wid), eq(auditLogs.action, action)));

/** A workspace whose owner signed in with two-factor just now. */
async function strongOwner() {
  const user = await createUser(desk, { mfaVerified: true });
  const workspace = await createWorkspace({ userId: user.id }, { name: `Strong ${user.id.slice(-6)}` }, desk.deps);
  const owner: Member = {
    ...user,
    role: "owner",
    workspaceId: workspace.id,
    headers: { authorization: `Bearer ${user.token}`, "desk-workspace": workspace.id },
    ctx: {
      workspaceId: workspace.id,
      actor: { type: "user", userId: user.id, sessionId: user.sessionId },
      role: "owner",
      scopes: null,
      visibleTeams: "all",
      requestId: "t",
      ip: null,
    },
  };
  return { workspace, owner };
}

describe("POST /v1/workspaces", () => {
  test("creates a workspace owned by the caller, with a workspace.updated event", async () => {
    const user = await createUser(desk);
    expect((await desk.api("POST", "/v1/workspaces", { body: { name: "X" } })).status).toBe(401);
    const bad = await desk.api("POST", "/v1/workspaces", {
      headers: { authorization: `Bearer ${user.token}` },
      body: { name: "", slug: "Bad Slug" },
    });
    expect(bad.status).toBe(422);
    const res = await desk.api("POST", "/v1/workspaces", {
      headers: { authorization: `Bearer ${user.token}` },
      body: { name: "Globex Support" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Globex Support",
      slug: expect.stringMatching(/^globex-support/),
      settings: {},
      avatar_url: null,
    });
    const member = await desk.deps.db.select().from(members).where(eq(members.workspaceId, res.body.id));
    expect(member).toEqual([expect.objectContaining({ userId: user.id, role: "owner" })]);
    expect((await eventsAfter(desk, res.body.id, 0)).map((e) => e.type)).toEqual(["workspace.updated"]);
    const key = await createKey(desk, (await createWorkspaceWithOwner(desk)).owner, ["settings:write"]);
    expect((await desk.api("POST", "/v1/workspaces", { headers: key.headers, body: { name: "Nope" } })).status).toBe(
      403,
    );
  });
});

describe("PATCH /v1/workspace", () => {
  test("access: none 401, agent 403, key without settings:write 403, other workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("PATCH", "/v1/workspace", { body: { name: "x" } })).status).toBe(401);
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("PATCH", "/v1/workspace", { headers: agent.headers, body: { name: "x" } })).status).toBe(
      403,
    );
    const reader = await createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("PATCH", "/v1/workspace", { headers: reader.headers, body: { name: "x" } })).status).toBe(
      403,
    );
    const foreign = await desk.api("PATCH", "/v1/workspace", {
      headers: { ...owner.headers, "desk-workspace": other.workspace.id },
      body: { name: "x" },
    });
    expect(foreign.status).toBe(404);
    expect(
      firstRow(await desk.deps.db.select().from(workspaces).where(eq(workspaces.id, other.workspace.id)).limit(1))!
        .name,
    ).toBe(other.workspace.name);
  });

  test("bad settings answer 422 with locations and change nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const before = await lastSeq(desk, workspace.id);
    const cases: Array<[unknown, string]> = [
      [{ settings: { timezone: "Mars/Olympus" } }, "body.settings.timezone"],
      [{ settings: { timezone: "../../etc/passwd" } }, "body.settings.timezone"],
      [{ settings: { brand_color: "red; drop table" } }, "body.settings.brand_color"],
      [{ settings: { auto_assign: "random" } }, "body.settings.auto_assign"],
      [{ settings: { gravatar: "yes" } }, "body.settings.gravatar"],
      [{ settings: { label_creation: "anyone" } }, "body.settings.label_creation"],
      [{ settings: { surprise: true } }, "body.settings"],
      [{ settings: { ai: { assistant: "on" } } }, "body.settings.ai.assistant"],
      [{ settings: { ai: { instructions: "x".repeat(2001) } } }, "body.settings.ai.instructions"],
      [{ settings: { ai: { unknown_thing: true } } }, "body.settings.ai"],
      [{ settings: { help_center_title: "<script>alert(1)</script>" } }, "body.settings.help_center_title"],
      [{ name: "" }, "body.name"],
      [{ name: 42 }, "body.name"],
      [{ owner_id: "x" }, "body"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(
        res.body.errors.map((e: { location: string }) => e.location),
        JSON.stringify(body),
      ).toContain(location);
    }
    expect(await lastSeq(desk, workspace.id)).toBe(before);
    expect(
      firstRow(await desk.deps.db.select().from(workspaces).where(eq(workspaces.id, workspace.id)).limit(1))!.settings,
    ).toEqual({});
  });

  test("merges settings, null removes, audit-logged, emits exactly one workspace.updated", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const first = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: {
        name: "Renamed",
        settings: {
          timezone: "Europe/Berlin",
          brand_color: "#1f6feb",
          csat_enabled: true,
          ai: { assistant: true, tone: "friendly" },
        },
      },
    });
    expect(first.status).toBe(200);
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: {
        settings: {
          brand_color: null,
          label_creation: "admins",
          auto_assign: "round_robin",
          ai: { tone: null, reply_language: "de" },
        },
      },
    });
    expect(res.status).toBe(200);
    const expected = {
      timezone: "Europe/Berlin",
      csat_enabled: true,
      label_creation: "admins",
      auto_assign: "round_robin",
      ai: { assistant: true, reply_language: "de" },
    };
    expect(res.body.name).toBe("Renamed");
    expect(res.body.settings).toEqual(expected);
    expect(
      firstRow(await desk.deps.db.select().from(workspaces).where(eq(workspaces.id, workspace.id)).limit(1))!.settings,
    ).toEqual(expected);
    const emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => e.type)).toEqual(["workspace.updated"]);
    expect((emitted[0]!.data as { workspace: { settings: unknown } }).workspace.settings).toEqual(expected);
    expect(await auditOf(desk, workspace.id, "workspace.updated")).toHaveLength(2);
    // a key with settings:write may change settings too; a no-op changes nothing and emits nothing
    const key = await createKey(desk, owner, ["settings:write"]);
    const seq = await lastSeq(desk, workspace.id);
    expect(
      (
        await desk.api("PATCH", "/v1/workspace", {
          headers: key.headers,
          body: { settings: { timezone: "Europe/Berlin" } },
        })
      ).status,
    ).toBe(200);
    expect(await lastSeq(desk, workspace.id)).toBe(seq);
  });
});

describe("DELETE /v1/workspace", () => {
  test("owner only, two-factor and recent sign-in required, confirm_name must match", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    expect((await desk.api("DELETE", "/v1/workspace", { body: { confirm_name: workspace.name } })).status).toBe(401);
    const admin = await addMember(desk, workspace.id, "admin");
    expect(
      (await desk.api("DELETE", "/v1/workspace", { headers: admin.headers, body: { confirm_name: workspace.name } }))
        .status,
    ).toBe(403);
    const key = await createKey(desk, owner, ["settings:read", "settings:write"]);
    expect(
      (await desk.api("DELETE", "/v1/workspace", { headers: key.headers, body: { confirm_name: workspace.name } }))
        .status,
    ).toBe(403);
    const noMfa = await desk.api("DELETE", "/v1/workspace", {
      headers: owner.headers,
      body: { confirm_name: workspace.name },
    });
    expect(noMfa.status).toBe(403);
    expect(noMfa.body.code).toBe("two_factor_required");

    const strong = await strongOwner();
    await desk.deps.db
      .update(sessions)
      .set({ authenticatedAt: new Date(Date.now() - 20 * 60_000).toISOString() })
      .where(eq(sessions.id, strong.owner.sessionId));
    const stale = await desk.api("DELETE", "/v1/workspace", {
      headers: strong.owner.headers,
      body: { confirm_name: strong.workspace.name },
    });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("recent_sign_in_required");
    await desk.deps.db
      .update(sessions)
      .set({ authenticatedAt: new Date().toISOString() })
      .where(eq(sessions.id, strong.owner.sessionId));
    const wrong = await desk.api("DELETE", "/v1/workspace", {
      headers: strong.owner.headers,
      body: { confirm_name: "something else" },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].location).toBe("body.confirm_name");
    expect(
      firstRow(await desk.deps.db.select().from(workspaces).where(eq(workspaces.id, strong.workspace.id)).limit(1))!
        .deletedAt,
    ).toBeNull();
  });

  test("soft-deletes, ends access at once, and the purge job removes its rows", async () => {
    const { workspace, owner } = await strongOwner();
    const agent = await addMember(desk, workspace.id, "agent");
    const key = await createKey(desk, owner, ["settings:read"]);
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Ops", member_ids: [agent.id] },
    });
    expect(team.status).toBe(201);
    const form = new FormData();
    form.append("file", new File(["quarterly numbers"], "report.txt", { type: "text/plain" }));
    const upload = await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: form });
    expect(upload.status).toBe(201);
    const attachmentFile = join(
      desk.dataDir,
      "attachments",
      (
        await rowsOf<{ storage_key: string }>(
          desk.deps.db,
          sql`SELECT storage_key FROM attachments WHERE id = ${upload.body.id}`,
        )
      )[0]!.storage_key,
    );
    const mailFolder = join(desk.dataDir, "mail", workspace.id, "2026-01");
    mkdirSync(mailFolder, { recursive: true });
    writeFileSync(join(mailFolder, "original.eml"), "Subject: kept until the purge\r\n\r\nbody");
    const otherWorkspace = await createWorkspaceWithOwner(desk);
    const otherForm = new FormData();
    otherForm.append("file", new File(["not theirs"], "other.txt", { type: "text/plain" }));
    const otherUpload = await desk.api("POST", "/v1/attachments", {
      headers: otherWorkspace.owner.headers,
      raw: otherForm,
    });
    const otherFile = join(
      desk.dataDir,
      "attachments",
      (
        await rowsOf<{ storage_key: string }>(
          desk.deps.db,
          sql`SELECT storage_key FROM attachments WHERE id = ${otherUpload.body.id}`,
        )
      )[0]!.storage_key,
    );
    expect(existsSync(attachmentFile) && existsSync(otherFile)).toBe(true);
    const signals: AccessEnded[] = [];
    const off = onAccessEnded(desk.deps.db, (s) => signals.push(s));
    const res = await desk.api("DELETE", "/v1/workspace", {
      headers: owner.headers,
      body: { confirm_name: workspace.name },
    });
    off();
    expect(res.status).toBe(204);
    expect(
      firstRow(await desk.deps.db.select().from(workspaces).where(eq(workspaces.id, workspace.id)).limit(1))!.deletedAt,
    ).not.toBeNull();
    expect((await desk.api("GET", "/v1/workspace", { headers: agent.headers })).status).toBe(404);
    expect((await desk.api("GET", "/v1/workspace", { headers: key.headers })).status).toBe(401);
    expect(signals).toEqual(
      expect.arrayContaining([
        { kind: "membership", userId: agent.id, workspaceId: workspace.id },
        { kind: "membership", userId: owner.id, workspaceId: workspace.id },
      ]),
    );
    await desk.jobs.drain();
    for (const table of ["members", "teams", "api_keys", "events", "audit_logs"]) {
      expect(
        (
          await rowsOf<{ n: number }>(
            desk.deps.db,
            sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE workspace_id = ${workspace.id}`,
          )
        )[0],
        table,
      ).toEqual({ n: 0 });
    }
    expect(
      (
        await rowsOf<Record<string, unknown>>(
          desk.deps.db,
          sql`SELECT count(*) AS n FROM team_members WHERE team_id = ${team.body.id}`,
        )
      )[0],
    ).toEqual({
      n: 0,
    });
    expect(
      (
        await rowsOf<Record<string, unknown>>(
          desk.deps.db,
          sql`SELECT count(*) AS n FROM ticket_counts WHERE workspace_id = ${workspace.id}`,
        )
      )[0],
    ).toEqual({
      n: 0,
    });
    // Its event counter stays, like its row: were it restored, seqs would not start again at 1.
    expect(
      (
        await rowsOf<Record<string, unknown>>(
          desk.deps.db,
          sql`SELECT CASE WHEN last_seq > 0 THEN 1 ELSE 0 END AS kept FROM event_seqs WHERE workspace_id = ${workspace.id}`,
        )
      )[0],
    ).toEqual({
      kept: 1,
    });
    expect(
      (
        await rowsOf<Record<string, unknown>>(
          desk.deps.db,
          sql`SELECT state, last_error FROM jobs WHERE kind = 'workspaces.purge' AND CAST(payload AS text) LIKE ${`%${workspace.id}%`}`,
        )
      )[0],
    ).toEqual({ state: "done", last_error: null });
    // Its files go too (attachments, original mail); another workspace's stay.
    expect(existsSync(attachmentFile)).toBe(false);
    expect(existsSync(join(desk.dataDir, "mail", workspace.id))).toBe(false);
    expect(existsSync(otherFile)).toBe(true);
  });
});

describe("POST /v1/workspace/transfer", () => {
  test("needs an owner with two-factor; target becomes owner, caller admin", async () => {
    const { workspace, owner } = await strongOwner();
    const admin = await addMember(desk, workspace.id, "admin");
    const weak = await createWorkspaceWithOwner(desk);
    const weakTarget = await addMember(desk, weak.workspace.id, "agent");
    const refused = await desk.api("POST", "/v1/workspace/transfer", {
      headers: weak.owner.headers,
      body: { user_id: weakTarget.id },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("two_factor_required");
    expect(
      (await desk.api("POST", "/v1/workspace/transfer", { headers: admin.headers, body: { user_id: admin.id } }))
        .status,
    ).toBe(403);
    expect(
      (await desk.api("POST", "/v1/workspace/transfer", { headers: owner.headers, body: { user_id: weakTarget.id } }))
        .status,
    ).toBe(422);
    expect(
      (await desk.api("POST", "/v1/workspace/transfer", { headers: owner.headers, body: { user_id: 5 } })).status,
    ).toBe(422);
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", "/v1/workspace/transfer", {
      headers: owner.headers,
      body: { user_id: admin.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.owner.user.id).toBe(admin.id);
    expect(res.body.owner.role).toBe("owner");
    expect(res.body.previous_owner.role).toBe("admin");
    const roles = Object.fromEntries(
      (await desk.deps.db.select().from(members).where(eq(members.workspaceId, workspace.id))).map((m) => [
        m.userId,
        m.role,
      ]),
    );
    expect(roles).toEqual({ [admin.id]: "owner", [owner.id]: "admin" });
    const emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => [e.type, e.topics[1]])).toEqual([
      ["member.updated", `user:${admin.id}`],
      ["member.updated", `user:${owner.id}`],
    ]);
    expect(await auditOf(desk, workspace.id, "workspace.ownership_transferred")).toHaveLength(1);
  });
});

describe("POST /v1/workspace/widget-secret/rotate", () => {
  test("admin gets a new secret once; it is stored sealed", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("POST", "/v1/workspace/widget-secret/rotate")).status).toBe(401);
    expect((await desk.api("POST", "/v1/workspace/widget-secret/rotate", { headers: agent.headers })).status).toBe(403);
    const res = await desk.api("POST", "/v1/workspace/widget-secret/rotate", { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whs_/);
    const sealed = firstRow(
      await desk.deps.db.select().from(workspaces).where(eq(workspaces.id, workspace.id)).limit(1),
    )!.widgetSecretSealed!;
    expect(sealed).not.toContain(res.body.secret);
    expect(desk.deps.secrets.open(sealed)).toBe(res.body.secret);
    expect((await desk.api("GET", "/v1/workspace", { headers: owner.headers })).text).not.toContain(res.body.secret);
    expect(await auditOf(desk, workspace.id, "workspace.widget_secret_rotated")).toHaveLength(1);
    expect(existsSync(desk.dataDir)).toBe(true);
  });
});
