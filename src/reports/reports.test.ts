import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { tickets } from "../tickets/tickets.table";
import { newTeam, newTicket } from "../../test/kit/tickets";

const desk = await startTestDesk();
const setTimes = async (id: string, values: Partial<typeof tickets.$inferInsert>) =>
  await desk.deps.db.update(tickets).set(values).where(eq(tickets.id, id));

describe("reports overview", () => {
  test("figures from SQL aggregates over [from, to)", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    await newTicket(desk, other.owner, { subject: "not ours" });
    const a = await newTicket(desk, owner, { severity: "sev1", assignee_id: agent.id });
    // An email ticket is mailed from a mailbox (the API refuses one without).
    await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { name: "Help", email: `help-${workspace.id}@acme.test` },
    });
    const b = await newTicket(desk, owner, { assignee_id: agent.id, channel: "email" });
    const c = await newTicket(desk, owner, { assignee_id: owner.id });
    const old = await newTicket(desk, owner);
    await setTimes(a.id, {
      createdAt: "2026-03-01T10:00:00.000Z",
      firstRespondedAt: "2026-03-01T10:30:00.000Z",
      solvedAt: "2026-03-01T12:00:00.000Z",
      status: "solved",
      csat: { score: 5, comment: "" },
    });
    await setTimes(b.id, {
      createdAt: "2026-03-02T10:00:00.000Z",
      firstRespondedAt: "2026-03-02T11:00:00.000Z",
      solvedAt: "2026-03-03T10:00:00.000Z",
      status: "solved",
      csat: { score: 3, comment: "meh" },
      sla: { policy_id: null, first_response_due_at: null, resolution_due_at: null, breached: true },
    });
    await setTimes(c.id, { createdAt: "2026-03-02T12:00:00.000Z", firstRespondedAt: "2026-03-02T12:10:00.000Z" });
    await setTimes(old.id, { createdAt: "2026-01-01T00:00:00.000Z" });
    const res = await desk.api("GET", "/v1/reports/overview?from=2026-03-01&to=2026-03-03", { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      from: "2026-03-01T00:00:00.000Z",
      to: "2026-03-04T00:00:00.000Z",
      created: 3,
      solved: 2,
      open_now: 2,
      first_response_p50_minutes: 30,
      resolution_p50_minutes: 120,
      csat_avg: 4,
      csat_count: 2,
      sla_breached: 1,
      by_day: [
        { date: "2026-03-01", created: 1, solved: 1 },
        { date: "2026-03-02", created: 2, solved: 0 },
        { date: "2026-03-03", created: 0, solved: 1 },
      ],
      by_channel: { email: 1, chat: 0, api: 2, portal: 0 },
      by_severity: { sev1: 1, sev2: 0, sev3: 0, sev4: 0, none: 2 },
    });
    expect(res.body.by_agent).toEqual([
      { user: expect.objectContaining({ id: agent.id }), solved: 2, first_response_p50_minutes: 30 },
      { user: expect.objectContaining({ id: owner.id }), solved: 0, first_response_p50_minutes: 10 },
    ]);
  });

  test("bad ranges 422; 401; wrong scope 403", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (const q of ["from=yesterday", "from=2026-03-05&to=2026-03-01", "from=2024-01-01&to=2026-01-01"]) {
      expect((await desk.api("GET", `/v1/reports/overview?${q}`, { headers: owner.headers })).status, q).toBe(422);
    }
    expect((await desk.api("GET", "/v1/reports/overview")).status).toBe(401);
    expect(
      (
        await desk.api("GET", "/v1/reports/overview", {
          headers: (await createKey(desk, owner, ["contacts:read"])).headers,
        })
      ).status,
    ).toBe(403);
    const empty = await desk.api("GET", "/v1/reports/overview", { headers: owner.headers });
    expect(empty.body).toMatchObject({ created: 0, first_response_p50_minutes: null, csat_avg: null, by_agent: [] });
    expect(empty.body.by_day).toHaveLength(30);
  });

  test("days are the workspace's local days, across a daylight-saving change", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    expect(
      (
        await desk.api("PATCH", "/v1/workspace", {
          headers: owner.headers,
          body: { settings: { timezone: "America/New_York" } },
        })
      ).status,
    ).toBe(200);
    const late = await newTicket(desk, owner);
    const early = await newTicket(desk, owner);
    const dstDay = await newTicket(desk, owner);
    const nextDay = await newTicket(desk, owner);
    await setTimes(late.id, { createdAt: "2026-03-02T03:00:00.000Z" }); // 22:00 on March 1 in New York
    await setTimes(early.id, { createdAt: "2026-03-02T06:00:00.000Z" }); // 01:00 on March 2
    await setTimes(dstDay.id, { createdAt: "2026-03-09T03:30:00.000Z" }); // 23:30 on March 8 (EDT since 02:00 that day)
    await setTimes(nextDay.id, { createdAt: "2026-03-09T04:30:00.000Z" }); // 00:30 on March 9
    const march = await desk.api("GET", "/v1/reports/overview?from=2026-03-01&to=2026-03-02", {
      headers: owner.headers,
    });
    expect(march.body).toMatchObject({ from: "2026-03-01T05:00:00.000Z", to: "2026-03-03T05:00:00.000Z", created: 2 });
    expect(march.body.by_day).toEqual([
      { date: "2026-03-01", created: 1, solved: 0 },
      { date: "2026-03-02", created: 1, solved: 0 },
    ]);
    // March 8 has 23 hours there: it ends at 04:00 UTC, not 05:00.
    const dst = await desk.api("GET", "/v1/reports/overview?from=2026-03-08&to=2026-03-08", { headers: owner.headers });
    expect(dst.body).toMatchObject({
      from: "2026-03-08T05:00:00.000Z",
      to: "2026-03-09T04:00:00.000Z",
      created: 1,
      by_day: [{ date: "2026-03-08", created: 1, solved: 0 }],
    });
    // By default: the last 30 local days, today included.
    const recent = await desk.api("GET", "/v1/reports/overview", { headers: owner.headers });
    const today = new Intl.DateTimeFormat("en-CA", {
      timeZone: "America/New_York",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date());
    expect(recent.body.by_day).toHaveLength(30);
    expect(recent.body.by_day.at(-1).date).toBe(today);
  });

  test("a private team's tickets count only for those who may see them", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const outsider = await addMember(desk, workspace.id, "agent");
    const insider = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Legal", private: true, member_ids: [insider.id] });
    await newTicket(desk, owner, { subject: "Everyone's" });
    await newTicket(desk, owner, { subject: "Legal's", team_id: team.id, assignee_id: insider.id });
    const figures = async (member: { headers: Record<string, string> }) =>
      (await desk.api("GET", "/v1/reports/overview", { headers: member.headers })).body;
    expect((await figures(owner)).created).toBe(2);
    expect((await figures(insider)).created).toBe(2);
    const seenByOutsider = await figures(outsider);
    expect(seenByOutsider).toMatchObject({ created: 1, open_now: 1 });
    expect(seenByOutsider.by_day.reduce((n: number, d: { created: number }) => n + d.created, 0)).toBe(1);
  });
});
