import { describe, expect, test } from "bun:test";
import { systemContext } from "../auth/context";
import { addMessage } from "./tickets.public";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { newTeam, newTicket } from "../../test/kit/tickets";

const desk = await startTestDesk();

const later = () => new Date(Date.now() + 3_600_000).toISOString();
const counts = async (member: Member) =>
  (await desk.api("GET", "/v1/tickets/counts", { headers: member.headers })).body as Record<string, number>;
const ids = async (member: Member, query: string) => {
  const res = await desk.api("GET", `/v1/tickets?${query}`, { headers: member.headers });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Array<{ id: string }>).map((t) => t.id).sort();
};
const snooze = (member: Member, id: string, until: string | null, extra: Record<string, unknown> = {}) =>
  desk.api("PATCH", `/v1/tickets/${id}`, { headers: member.headers, body: { snoozed_until: until, ...extra } });

describe("snoozed tickets leave the working folders until they wake", () => {
  test("counts and list filters: a snoozed ticket is only in the Snoozed folder", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const unassigned = await newTicket(desk, owner);
    const mine = await newTicket(desk, owner, { assignee_id: owner.id });
    const pending = await newTicket(desk, owner, { status: "pending" });
    const awake = await newTicket(desk, owner);
    expect(await counts(owner)).toMatchObject({ unassigned: 3, mine: 1, open: 3, pending: 1, snoozed: 0 });

    for (const t of [unassigned, mine, pending]) expect((await snooze(owner, t.id, later())).status).toBe(200);
    expect(await counts(owner)).toMatchObject({
      unassigned: 1,
      mine: 0,
      open: 1,
      pending: 0,
      on_hold: 0,
      solved: 0,
      snoozed: 3,
      spam: 0,
    });
    // The folders' lists agree with their counts.
    expect(await ids(owner, "assignee=none&status=open,pending,on_hold&snoozed=false")).toEqual([awake.id]);
    expect(await ids(owner, "assignee=me&status=open,pending,on_hold&snoozed=false")).toEqual([]);
    expect(await ids(owner, "snoozed=true")).toEqual([unassigned.id, mine.id, pending.id].sort());
    // Without the filter nothing changes for API clients: every ticket is listed.
    expect(await ids(owner, "")).toEqual([unassigned.id, mine.id, pending.id, awake.id].sort());
    const listed = (await desk.api("GET", "/v1/tickets?snoozed=true", { headers: owner.headers })).body.data as Array<{
      snoozed_until: string | null;
    }>;
    expect(listed.every((t) => t.snoozed_until !== null)).toBe(true);

    // Clearing the snooze brings it back at once.
    await snooze(owner, mine.id, null);
    expect(await counts(owner)).toMatchObject({ mine: 1, open: 2, snoozed: 2 });
    expect(await ids(owner, "assignee=me&snoozed=false")).toEqual([mine.id]);

    const bad = await desk.api("GET", "/v1/tickets?snoozed=maybe", { headers: owner.headers });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("query.snoozed");
  });

  test("waking: the due job, a customer reply, and solving end the snooze; counts follow", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const byJob = await newTicket(desk, owner, { status: "pending" });
    const byReply = await newTicket(desk, owner);
    const bySolve = await newTicket(desk, owner);
    for (const t of [byJob, byReply, bySolve]) await snooze(owner, t.id, later());
    expect(await counts(owner)).toMatchObject({ open: 0, pending: 0, snoozed: 3 });

    await snooze(owner, byJob.id, new Date(Date.now() - 1000).toISOString());
    await desk.jobs.drain();
    expect(await counts(owner)).toMatchObject({ open: 1, pending: 0, snoozed: 2 });

    await addMessage(
      systemContext(workspace.id),
      byReply.id,
      { kind: "reply", body_html: "any news?", direction: "inbound", author: { type: "system" } },
      desk.deps,
    );
    const replied = await desk.api("GET", `/v1/tickets/${byReply.id}`, { headers: owner.headers });
    expect(replied.body).toMatchObject({ status: "open", snoozed_until: null });
    // An agent's note does not wake a ticket.
    await snooze(owner, byReply.id, later());
    await desk.api("POST", `/v1/tickets/${byReply.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: "waiting on them" },
    });
    expect(
      (await desk.api("GET", `/v1/tickets/${byReply.id}`, { headers: owner.headers })).body.snoozed_until,
    ).not.toBeNull();

    const solved = await desk.api("PATCH", `/v1/tickets/${bySolve.id}`, {
      headers: owner.headers,
      body: { status: "solved" },
    });
    expect(solved.body).toMatchObject({ status: "solved", snoozed_until: null });
    expect(await counts(owner)).toMatchObject({ open: 1, solved: 1, snoozed: 1 });
  });

  test("private teams: the Snoozed count and list leave out tickets the caller may not see", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "VIP", private: true });
    const hidden = await newTicket(desk, owner, { team_id: team.id });
    const shown = await newTicket(desk, owner);
    await snooze(owner, hidden.id, later());
    await snooze(owner, shown.id, later());
    expect((await counts(owner)).snoozed).toBe(2);
    expect((await counts(outsider)).snoozed).toBe(1);
    expect(await ids(outsider, "snoozed=true")).toEqual([shown.id]);
    const other = await createWorkspaceWithOwner(desk);
    expect((await counts(other.owner)).snoozed).toBe(0);
    expect(await ids(other.owner, "snoozed=true")).toEqual([]);
  });
});
