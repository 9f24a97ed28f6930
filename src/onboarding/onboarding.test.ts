import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../identity/identity.table";
import { members } from "../members/members.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { provide } from "../lib/ports";
import { withPorts } from "../../test/kit/ports";
import { installWidgetProbe } from "./onboarding.public";

const desk: TestDesk = await startTestDesk();

const doneOf = async (member: Member) => {
  const res = await desk.api("GET", "/v1/onboarding", { headers: member.headers });
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.steps.map((s: { id: string; done: boolean }) => [s.id, s.done]));
};

describe("GET /v1/onboarding", () => {
  test("a fresh workspace: every step of SPEC.md, none done, not dismissed", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const res = await desk.api("GET", "/v1/onboarding", { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.steps.map((s: { id: string }) => s.id)).toEqual([
      "connect_mailbox",
      "invite_teammate",
      "upload_photo",
      "install_widget",
      "publish_article",
      "setup_triage",
      "create_label",
      "try_assistant",
    ]);
    expect(res.body).toMatchObject({ done_count: 0, total: 8, dismissed: false });
    expect(res.body.steps[0]).toEqual({
      id: "connect_mailbox",
      title: "Connect a mailbox",
      description: expect.any(String),
      done: false,
      href: "/settings/mailboxes",
      requires: "admin",
    });
  });

  test("each step follows real state; the photo step is the caller's own", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    expect(
      (
        await desk.api("POST", "/v1/mailboxes", {
          headers: owner.headers,
          body: { name: "Support", email: `support-${workspace.id}@acme.test` },
        })
      ).status,
    ).toBe(201);
    expect((await doneOf(owner)).connect_mailbox).toBe(true);
    expect((await doneOf(owner)).invite_teammate).toBe(false);
    const invited = await desk.api("POST", "/v1/invitations", {
      headers: owner.headers,
      body: { email: "new.person@example.test", role: "agent" },
    });
    expect(invited.status).toBe(201);
    expect((await doneOf(owner)).invite_teammate).toBe(true);
    expect((await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "billing" } })).status).toBe(
      201,
    );
    expect((await doneOf(owner)).create_label).toBe(true);
    expect(
      (await desk.api("PATCH", "/v1/triage", { headers: owner.headers, body: { auto_triage: true } })).status,
    ).toBe(200);
    await desk.deps.db.update(users).set({ avatarUrl: "http://localhost/v1/images/abc" }).where(eq(users.id, owner.id));
    const agent = await addMember(desk, workspace.id, "agent");
    const mine = await doneOf(owner);
    expect(mine).toMatchObject({ upload_photo: true, setup_triage: true });
    // The widget, article and assistant steps read false until those features exist.
    expect(mine).toMatchObject({ install_widget: false, publish_article: false, try_assistant: false });
    const res = await desk.api("GET", "/v1/onboarding", { headers: owner.headers });
    expect(res.body.done_count).toBe(5);
    // The agent has no photo of their own; the workspace steps are shared.
    expect(await doneOf(agent)).toMatchObject({ upload_photo: false, connect_mailbox: true, create_label: true });
    // Another workspace's state never counts.
    expect(Object.values(await doneOf(other.owner)).some(Boolean)).toBe(false);
    // A key reads with settings:read, never without.
    expect(
      (await desk.api("GET", "/v1/onboarding", { headers: (await createKey(desk, owner, ["settings:read"])).headers }))
        .status,
    ).toBe(200);
    expect(
      (await desk.api("GET", "/v1/onboarding", { headers: (await createKey(desk, owner, ["tickets:read"])).headers }))
        .status,
    ).toBe(403);
    expect((await desk.api("GET", "/v1/onboarding")).status).toBe(401);
  });

  test("steps of features built later come from the probes they provide", async () => {
    const probed = await startTestDesk({
      modules: withPorts(
        (await import("../registry")).modules,
        provide(installWidgetProbe, () => true),
      ),
    });
    const { owner } = await createWorkspaceWithOwner(probed);
    const res = await probed.api("GET", "/v1/onboarding", { headers: owner.headers });
    expect(res.body.steps.find((s: { id: string }) => s.id === "install_widget").done).toBe(true);
  });
});

describe("POST /v1/onboarding/dismiss", () => {
  test("hides the checklist for the caller only; idempotent; people only", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await desk.api("POST", "/v1/onboarding/dismiss")).status).toBe(401);
    const key = await createKey(desk, owner, ["settings:read", "settings:write"]);
    expect((await desk.api("POST", "/v1/onboarding/dismiss", { headers: key.headers })).status).toBe(403);
    for (let i = 0; i < 2; i++) {
      const res = await desk.api("POST", "/v1/onboarding/dismiss", { headers: agent.headers });
      expect(res.status).toBe(204);
    }
    expect((await desk.api("GET", "/v1/onboarding", { headers: agent.headers })).body.dismissed).toBe(true);
    expect((await desk.api("GET", "/v1/onboarding", { headers: owner.headers })).body.dismissed).toBe(false);
    expect((await desk.api("POST", "/v1/onboarding/dismiss", { headers: viewer.headers })).status).toBe(204);
    // Dismissing in one workspace leaves the person's other workspaces alone.
    const second = await createWorkspaceWithOwner(desk);
    await desk.deps.db.insert(members).values({
      workspaceId: second.workspace.id,
      userId: agent.id,
      role: "agent",
      createdAt: new Date().toISOString(),
    });
    const there = { ...agent, headers: { ...agent.headers, "desk-workspace": second.workspace.id } };
    expect((await desk.api("GET", "/v1/onboarding", { headers: there.headers })).body.dismissed).toBe(false);
  });
});
