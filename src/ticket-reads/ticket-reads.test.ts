import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { manualClock } from "../lib/clock";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { READS_PER_MEMBER } from "./ticket-reads.service";
import { ticketReads } from "./ticket-reads.table";

const clock = manualClock(new Date("2026-11-28T10:00:00Z"));
const desk = await startTestDesk({ clock });

async function ticketOf(owner: Member, subject = "Help") {
  const res = await desk.api("POST", "/v1/tickets", {
    headers: owner.headers,
    body: { subject, contact: { email: "reader@customer.test" }, body_html: "<p>Hi</p>" },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe("ticket read marks", () => {
  test("a person marks a ticket seen and reads their own marks back; another member's are their own", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const [a, b] = [await ticketOf(owner, "A"), await ticketOf(owner, "B")];
    const seen = await desk.api("PUT", `/v1/ticket-reads/${a.id}`, { headers: owner.headers });
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({ ticket_id: a.id, seen_at: clock.now().toISOString() });
    const mine = await desk.api("GET", `/v1/ticket-reads?ticket_ids=${a.id},${b.id}`, { headers: owner.headers });
    expect(mine.body).toEqual({ data: [{ ticket_id: a.id, seen_at: clock.now().toISOString() }] });
    const theirs = await desk.api("GET", `/v1/ticket-reads?ticket_ids=${a.id},${b.id}`, { headers: agent.headers });
    expect(theirs.body).toEqual({ data: [] });
    // Seeing it again moves the mark.
    clock.advance(60_000);
    await desk.api("PUT", `/v1/ticket-reads/${a.id}`, { headers: owner.headers });
    const moved = await desk.api("GET", `/v1/ticket-reads?ticket_ids=${a.id}`, { headers: owner.headers });
    expect(moved.body.data[0].seen_at).toBe(clock.now().toISOString());
  });

  test("401 without a credential, 403 for API keys, 404 for another workspace's ticket, 422 for too many ids", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const ticket = await ticketOf(owner);
    const theirs = await ticketOf(other.owner);
    expect((await desk.api("PUT", `/v1/ticket-reads/${ticket.id}`)).status).toBe(401);
    const key = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("PUT", `/v1/ticket-reads/${ticket.id}`, { headers: key.headers })).status).toBe(403);
    expect((await desk.api("PUT", `/v1/ticket-reads/${theirs.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("PUT", "/v1/ticket-reads/nope", { headers: owner.headers })).status).toBe(404);
    // Another workspace's ticket id is simply not among one's own.
    await desk.api("PUT", `/v1/ticket-reads/${theirs.id}`, { headers: other.owner.headers });
    const asked = await desk.api("GET", `/v1/ticket-reads?ticket_ids=${theirs.id}`, { headers: owner.headers });
    expect(asked.body).toEqual({ data: [] });
    const many = Array.from({ length: 101 }, (_, i) => `t${i}`).join(",");
    const refused = await desk.api("GET", `/v1/ticket-reads?ticket_ids=${many}`, { headers: owner.headers });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].location).toBe("query.ticket_ids");
  });

  test(`at most ${READS_PER_MEMBER} marks per person: the oldest go`, async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const old = new Date(clock.now().getTime() - 86_400_000);
    const rows = Array.from({ length: READS_PER_MEMBER }, (_, i) => ({
      workspaceId: workspace.id,
      userId: owner.id,
      ticketId: `old-${i}`,
      seenAt: new Date(old.getTime() + i * 1000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500) await desk.deps.db.insert(ticketReads).values(rows.slice(i, i + 500));
    const ticket = await ticketOf(owner);
    expect((await desk.api("PUT", `/v1/ticket-reads/${ticket.id}`, { headers: owner.headers })).status).toBe(200);
    const kept = await desk.deps.db
      .select()
      .from(ticketReads)
      .where(and(eq(ticketReads.workspaceId, workspace.id), eq(ticketReads.userId, owner.id)));
    expect(kept.length).toBe(READS_PER_MEMBER);
    expect(kept.some((r) => r.ticketId === "old-0")).toBe(false);
    expect(kept.some((r) => r.ticketId === ticket.id)).toBe(true);
  });
});
