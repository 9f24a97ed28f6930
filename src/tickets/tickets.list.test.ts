import { describe, expect, test } from "bun:test";
import { addMember, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { newField, newTeam, newTicket } from "../../test/kit/tickets";

const desk = await startTestDesk();
type Listed = { data: Array<{ id: string; subject: string }>; next_cursor: string | null };

async function listAll(headers: Record<string, string>, query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await desk.api("GET", `/v1/tickets?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, {
      headers,
    });
    expect(res.status, res.text).toBe(200);
    const page = res.body as Listed;
    seen.push(...page.data.map((t) => t.subject));
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

describe("ticket list", () => {
  test("every filter, alone and combined", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Ops" });
    await newField(desk, owner, { name: "Seats", key: "seats", type: "number" });
    const mailbox = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { name: "Support", email: "support@acme.test", inbound_kind: "forwarding", outbound_kind: "system" },
    });
    const a = await newTicket(desk, owner, {
      subject: "alpha refund",
      priority: "high",
      severity: "sev1",
      assignee_id: owner.id,
      tags: ["billing"],
      fields: { seats: 10 },
      contact: { email: "a@x.test" },
    });
    const b = await newTicket(desk, owner, {
      subject: "beta crash",
      priority: "low",
      assignee_id: agent.id,
      team_id: team.id,
      fields: { seats: 3 },
      status: "pending",
    });
    const c = await newTicket(desk, owner, {
      subject: "gamma invoice",
      priority: "high",
      channel: "email",
      ...(mailbox.status === 201 ? { mailbox_id: mailbox.body.id } : {}),
    });
    const subjects = async (query: string) =>
      ((await desk.api("GET", `/v1/tickets?${query}`, { headers: owner.headers })).body as Listed).data
        .map((t) => t.subject)
        .sort();
    expect(await subjects("")).toEqual(["alpha refund", "beta crash", "gamma invoice"]);
    expect(await subjects("status=open")).toEqual(["alpha refund", "gamma invoice"]);
    expect(await subjects("status=open,pending&priority=high")).toEqual(["alpha refund", "gamma invoice"]);
    expect(await subjects("severity=sev1")).toEqual(["alpha refund"]);
    expect(await subjects("severity=none")).toEqual(["beta crash", "gamma invoice"]);
    expect(await subjects("severity=sev1,none&priority=low")).toEqual(["beta crash"]);
    expect(await subjects("assignee=me")).toEqual(["alpha refund"]);
    expect(await subjects("assignee=none")).toEqual(["gamma invoice"]);
    expect(await subjects(`assignee=${agent.id}`)).toEqual(["beta crash"]);
    expect(await subjects(`team_id=${team.id}`)).toEqual(["beta crash"]);
    expect(await subjects(`contact_id=${(a.contact as { id: string }).id}`)).toEqual(["alpha refund"]);
    expect(await subjects("tag=billing")).toEqual(["alpha refund"]);
    expect(await subjects("channel=email")).toEqual(["gamma invoice"]);
    if (mailbox.status === 201) expect(await subjects(`mailbox_id=${mailbox.body.id}`)).toEqual(["gamma invoice"]);
    expect(await subjects("field.seats[gt]=5")).toEqual(["alpha refund"]);
    expect(await subjects("field.seats[lt]=5&status=pending")).toEqual(["beta crash"]);
    expect(await subjects("q=refund")).toEqual(["alpha refund"]);
    expect(await subjects("q=inv")).toEqual(["gamma invoice"]);
    expect(await subjects("q=crash&priority=high")).toEqual([]);
    expect(await subjects("spam=false&priority=high&status=open&assignee=none")).toEqual(["gamma invoice"]);
    const { createView } = await import("../views/views.service");
    const view = await createView(
      owner.ctx,
      { name: "High", shared: true, filters: { priority: ["high"] } },
      desk.deps,
    );
    expect(await subjects(`view_id=${view.id}`)).toEqual(["alpha refund", "gamma invoice"]);
    expect(await subjects(`view_id=${view.id}&severity=none`)).toEqual(["gamma invoice"]);
    const contactTickets = await desk.api("GET", `/v1/contacts/${(a.contact as { id: string }).id}/tickets`, {
      headers: owner.headers,
    });
    expect(contactTickets.body.data.map((t: { id: string }) => t.id)).toEqual([a.id]);
    void b;
    void c;
  });

  test("bad filters answer 422", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    for (const query of [
      "status=done",
      "priority=x",
      "severity=sev9",
      "channel=fax",
      "sort=color",
      "order=up",
      "limit=0",
      "limit=101",
      "cursor=garbage",
      "spam=maybe",
      "field.nope=1",
      "field.Bad!=1",
    ]) {
      const res = await desk.api("GET", `/v1/tickets?${query}`, { headers: owner.headers });
      expect(res.status, query).toBe(422);
      expect(res.body.code).toBe("validation_failed");
    }
    const { createView } = await import("../views/views.service");
    const theirView = await createView(other.owner.ctx, { name: "Theirs", shared: true, filters: {} }, desk.deps);
    expect((await desk.api("GET", `/v1/tickets?view_id=${theirView.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", `/v1/contacts/${owner.id}/tickets`, { headers: owner.headers })).status).toBe(404);
  });

  test("sorts: priority, severity (sev1 first, none last), created_at, due, field, order", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newField(desk, owner, { name: "Rank", key: "rank", type: "number" });
    await newTicket(desk, owner, { subject: "low", priority: "low", severity: "sev4", fields: { rank: 2 } });
    await newTicket(desk, owner, { subject: "urgent", priority: "urgent", fields: { rank: 1 } });
    await newTicket(desk, owner, { subject: "normal", priority: "normal", severity: "sev1" });
    const order = async (query: string) =>
      ((await desk.api("GET", `/v1/tickets?${query}`, { headers: owner.headers })).body as Listed).data.map(
        (t) => t.subject,
      );
    expect(await order("sort=priority")).toEqual(["urgent", "normal", "low"]);
    expect(await order("sort=priority&order=asc")).toEqual(["low", "normal", "urgent"]);
    expect(await order("sort=severity")).toEqual(["normal", "low", "urgent"]);
    expect(await order("sort=created_at")).toEqual(["normal", "urgent", "low"]);
    expect(await order("sort=created_at&order=asc")).toEqual(["low", "urgent", "normal"]);
    expect(await order("sort=field.rank")).toEqual(["normal", "urgent", "low"]);
    expect(await order("sort=field.rank&order=desc")).toEqual(["low", "urgent", "normal"]);
    expect(await order("sort=due")).toHaveLength(3);
    // paging through a field sort with nulls neither skips nor repeats
    expect(await listAll(owner.headers, "sort=field.rank", 1)).toEqual(["normal", "urgent", "low"]);
    expect(await listAll(owner.headers, "sort=field.rank&order=desc", 1)).toEqual(["low", "urgent", "normal"]);
  });

  test("keyset pages never skip or repeat while tickets change underneath", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created: Array<{ id: string }> = [];
    for (let i = 0; i < 12; i++)
      created.push(
        await newTicket(desk, owner, { subject: `t${String(i).padStart(2, "0")}`, priority: i % 2 ? "high" : "low" }),
      );
    for (const [sort, limit] of [
      ["last_message_at", 5],
      ["created_at", 4],
      ["priority", 5],
      ["severity", 3],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let round = 0;
      do {
        const res = await desk.api(
          "GET",
          `/v1/tickets?sort=${sort}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
          { headers: owner.headers },
        );
        const page = res.body as Listed;
        seen.push(...page.data.map((t) => t.id));
        cursor = page.next_cursor;
        // Change tickets between pages: one already seen gets a reply (moves to the top), one not yet seen changes status.
        const seenOne = created.find((t) => seen.includes(t.id))!;
        await desk.api("POST", `/v1/tickets/${seenOne.id}/messages`, {
          headers: owner.headers,
          body: { kind: "reply", body_html: `bump ${round++}` },
        });
        const unseen = created.find((t) => !seen.includes(t.id));
        if (unseen)
          await desk.api("PATCH", `/v1/tickets/${unseen.id}`, { headers: owner.headers, body: { status: "pending" } });
      } while (cursor);
      expect(new Set(seen).size, sort).toBe(seen.length);
      expect(seen.sort(), sort).toEqual(created.map((t) => t.id).sort());
    }
    const page = await desk.api("GET", "/v1/tickets?limit=2", { headers: owner.headers });
    expect(
      (await desk.api("GET", `/v1/tickets?sort=priority&cursor=${page.body.next_cursor}`, { headers: owner.headers }))
        .status,
    ).toBe(422);
  });
});
