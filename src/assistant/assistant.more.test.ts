import { first } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { type ChatRequest, fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { customerTicket, parseSse } from "../../test/kit/ai";
import { modules } from "../registry";
import { getTicket, listMessages } from "../tickets/tickets.public";
import { tickets } from "../tickets/tickets.table";
import { provide } from "../lib/ports";
import { withPorts } from "../../test/kit/ports";
import { HISTORY_CHARS, recentMessages } from "./assistant.run";
import type { ModelMessage } from "./assistant.table";
import { assistantTried, slaClocks } from "./assistant.public";
import { assistantActions } from "./assistant.table";
import { bounded, MAX_TOOL_OUTPUT } from "./assistant.tools";

const fake = await startFakeAi();
afterAll(() => fake.stop());
const clocks = new Map<string, { ticketId: string; nextDueAt: string | null; breached: boolean }[]>();
const desk = await startTestDesk({
  env: fakeAiEnv(fake),
  modules: withPorts(
    modules,
    provide(slaClocks, (_db, workspaceId) => clocks.get(workspaceId) ?? []),
  ),
});

type Answer = (r: ChatRequest) => ReturnType<typeof fake.answer>;
function script(...answers: Answer[]) {
  let i = 0;
  fake.answer = (request) => answers[Math.min(i++, answers.length - 1)]!(request);
}
const lastTool = (r: ChatRequest) => [...r.messages].reverse().find((m) => m.role === "tool")?.content ?? "";

async function enabled() {
  const ws = await createWorkspaceWithOwner(desk);
  await desk.api("PATCH", "/v1/ai/settings", { headers: ws.owner.headers, body: { assistant: true } });
  return ws;
}
const session = async (m: Member) =>
  (await desk.api("POST", "/v1/assistant/sessions", { headers: m.headers, body: {} })).body;
const send = (m: Member, id: string, text: string, stream = false) =>
  desk.api("POST", `/v1/assistant/sessions/${id}/messages`, {
    headers: { ...m.headers, ...(stream ? { accept: "text/event-stream" } : {}) },
    body: { text },
  });
const decide = (m: Member, approval: { action_id: string; token: string }, decision: "approve" | "deny") =>
  desk.api("POST", `/v1/assistant/actions/${approval.action_id}/decision`, {
    headers: m.headers,
    body: { decision, token: approval.token },
  });

describe("approvals", () => {
  test("the approval event carries SPEC's members; an approved reply reaches the ticket as the person's reply", async () => {
    const { workspace, owner } = await enabled();
    const t = await customerTicket(desk, owner);
    const s = await session(owner);
    expect(await assistantTried(desk.deps.db, workspace.id)).toBe(false);
    script(
      () => ({
        tools: [
          { id: "call_reply", name: "add_message", arguments: { ticket: t.id, external: true, body: "On its way!" } },
        ],
      }),
      () => ({ text: "Sent." }),
    );
    const res = await send(owner, s.id, `Reply to #${t.number} that it is on its way`, true);
    const events = parseSse(res.text);
    const approval = events.find((e) => e.event === "approval")!.data as Record<string, unknown>;
    expect(Object.keys(approval).sort()).toEqual(["action_id", "call_id", "expires_at", "preview", "token", "tool"]);
    expect(approval).toMatchObject({
      call_id: "call_reply",
      tool: "add_message",
      preview: { external: true, body: "On its way!" },
    });
    expect(events.at(-1)).toEqual({ event: "done", data: { status: "awaiting_approval" } });
    expect(await assistantTried(desk.deps.db, workspace.id)).toBe(true);
    const ok = await decide(owner, approval as { action_id: string; token: string }, "approve");
    expect(ok.status).toBe(200);
    const thread = await listMessages(desk.deps.db, owner.ctx, t.id);
    expect(thread).toHaveLength(2);
    expect(thread[1]).toMatchObject({ kind: "reply", authorUserId: owner.id });
    expect(thread[1]!.bodyText).toContain("On its way!");
  });

  test("another workspace's action is 404; a role lost before approval fails as it would for the person", async () => {
    const { workspace, owner } = await enabled();
    const agent = await addMember(desk, workspace.id, "agent");
    const t = await customerTicket(desk, owner);
    const s = await session(agent);
    script(() => ({ tool: { name: "update_ticket", arguments: { ticket: t.id, changes: { status: "solved" } } } }));
    const run = await send(agent, s.id, "Solve it");
    expect(run.body.status).toBe("awaiting_approval");
    const other = await enabled();
    const foreign = await decide(other.owner, run.body.approval, "approve");
    expect(foreign.status).toBe(404);
    const ownerTry = await decide(owner, run.body.approval, "approve");
    expect(ownerTry.status).toBe(404);
    const demoted = await desk.api("PATCH", `/v1/members/${agent.id}`, {
      headers: owner.headers,
      body: { role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    const refused = await decide(agent, run.body.approval, "approve");
    expect([refused.status, refused.body.code]).toEqual([403, "forbidden"]);
    expect((await getTicket(desk.deps.db, owner.ctx, t.id)).status).toBe("open");
    const row = first(
      await desk.deps.db
        .select()
        .from(assistantActions)
        .where(eq(assistantActions.id, run.body.approval.action_id))
        .limit(1),
    );
    expect(row?.status).toBe("failed");
    expect((await decide(agent, run.body.approval, "approve")).body.code).toBe("approval_not_pending");
  });

  test("a denied change leaves everything as it was and continues the run with the denial", async () => {
    const { owner } = await enabled();
    const t = await customerTicket(desk, owner);
    const s = await session(owner);
    script(() => ({ tool: { name: "update_ticket", arguments: { ticket: t.id, changes: { priority: "urgent" } } } }));
    const run = await send(owner, s.id, "Make it urgent");
    let told = "";
    script((r) => {
      told = lastTool(r);
      return { text: "Left as it was." };
    });
    const res = await decide(owner, run.body.approval, "deny");
    expect(res.body).toMatchObject({ status: "complete", text: "Left as it was.", approval: null });
    expect(told).toContain("denied");
    expect((await getTicket(desk.deps.db, owner.ctx, t.id)).priority).toBe("normal");
  });
});

describe("tools", () => {
  test("a long conversation is sent from its latest part, starting at a person's message", () => {
    const messages: ModelMessage[] = [];
    for (let i = 0; i < 60; i++) {
      messages.push({ role: "user", content: `question ${i} ${"q".repeat(500)}` });
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: [{ id: `c${i}`, type: "function", function: { name: "search_tickets", arguments: "{}" } }],
      });
      messages.push({ role: "tool", tool_call_id: `c${i}`, content: "r".repeat(1000) });
      messages.push({ role: "assistant", content: `answer ${i}` });
    }
    const sent = recentMessages(messages);
    expect(sent[0]!.role).toBe("user");
    expect(sent.at(-1)).toBe(messages.at(-1)!);
    expect(sent.length).toBeLessThan(messages.length);
    expect(
      sent.reduce((n, m) => n + (m.content?.length ?? 0) + JSON.stringify(m.tool_calls ?? []).length, 0),
    ).toBeLessThanOrEqual(HISTORY_CHARS);
    expect(recentMessages([{ role: "user", content: "x".repeat(HISTORY_CHARS * 2) }])).toHaveLength(1);
  });

  test("tool outputs are bounded with a note; a long customer message is cut", async () => {
    const out = bounded({ text: "x".repeat(20_000) });
    expect(out.length).toBeLessThan(MAX_TOOL_OUTPUT + 200);
    expect(out).toContain("[truncated");
    const { owner } = await enabled();
    const t = await customerTicket(desk, owner, { body: "long ".repeat(5000) });
    const s = await session(owner);
    let seen = "";
    script(
      () => ({ tool: { name: "get_ticket", arguments: { ticket: String(t.number) } } }),
      (r) => {
        seen = lastTool(r);
        return { text: "ok" };
      },
    );
    await send(owner, s.id, "Read it");
    expect(seen.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT + 200);
    expect(seen).toContain("<<<customer_data");
  });

  test("reports, companies and views answer through the user's permissions; bad arguments are an error step", async () => {
    const { owner } = await enabled();
    await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Acme Corp", domain: "acme.test" },
    });
    await customerTicket(desk, owner);
    const s = await session(owner);
    const results: string[] = [];
    script(
      () => ({
        tools: [
          { name: "ticket_report", arguments: {} },
          { name: "search_companies", arguments: { q: "Acme" } },
          { name: "list_views", arguments: {} },
          { name: "search_tickets", arguments: { status: 42 } },
        ],
      }),
      (r) => {
        results.push(...r.messages.filter((m) => m.role === "tool").map((m) => m.content ?? ""));
        return { text: "Here." };
      },
    );
    const run = await send(owner, s.id, "How are we doing this month, and who is Acme?");
    expect(run.body.steps.map((x: { tool: string; status: string }) => `${x.tool}:${x.status}`)).toEqual([
      "ticket_report:done",
      "search_companies:done",
      "list_views:done",
      "search_tickets:error",
    ]);
    expect(JSON.parse(results[0]!).created).toBe(1);
    expect(results[1]).toContain("Acme Corp");
    expect(results[3]).toContain("invalid arguments");
  });
});

describe("tips with the SLA seam", () => {
  test("sla_breached, sla_due_soon and sla_at_risk from the clocks", async () => {
    const { workspace, owner } = await enabled();
    const now = desk.deps.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const breached = await customerTicket(desk, owner);
    const soon = await customerTicket(desk, owner);
    const risky = await customerTicket(desk, owner);
    const solved = await customerTicket(desk, owner);
    await desk.api("PATCH", `/v1/tickets/${solved.id}`, { headers: owner.headers, body: { status: "solved" } });
    await desk.deps.db
      .update(tickets)
      .set({ custom: { ai_decisions: { sla_risk: { value: 0.8 } } } })
      .where(eq(tickets.id, risky.id));
    clocks.set(workspace.id, [
      { ticketId: breached.id, nextDueAt: null, breached: true },
      { ticketId: soon.id, nextDueAt: at(30 * 60_000), breached: false },
      { ticketId: risky.id, nextDueAt: at(3 * 3_600_000), breached: false },
      { ticketId: solved.id, nextDueAt: null, breached: true },
    ]);
    const res = await desk.api("GET", "/v1/assistant/tips", { headers: owner.headers });
    const byKey = Object.fromEntries(res.body.tips.map((t: { key: string; count: number }) => [t.key, t.count]));
    expect(byKey).toMatchObject({ sla_breached: 1, sla_due_soon: 1, sla_at_risk: 1 });
    for (const tip of res.body.tips) expect(tip.prompt.length).toBeGreaterThan(0);
  });
});
