import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { seedHelpScoutAccount, startFakeHelpScout, type FakeHelpScout } from "../../test/peers/fake-helpscout";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const AGENT_EMAIL = `agent-${crypto.randomUUID().slice(0, 8)}@desk.test`;
const desk: TestDesk = await startTestDesk({ config: { allowedPrivateHosts: ["127.0.0.1"] } });
const { owner } = await createWorkspaceWithOwner(desk);
const agent: Member = await addMember(desk, owner.workspaceId, "agent", { email: AGENT_EMAIL, name: "Agent Known" });
const hs: FakeHelpScout = startFakeHelpScout();
seedHelpScoutAccount(hs, AGENT_EMAIL);
// Two a page: every listing takes more than one.
hs.pageSize = 2;
afterAll(() => hs.stop());

const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const body = (overrides: Record<string, unknown> = {}) => ({
  source: "helpscout",
  options: { app_id: hs.appId, app_secret: hs.appSecret, base_url: hs.url, requests_per_minute: 10_000, ...overrides },
});

const runToEnd = (member: Member, id: string) => runImportToEnd(desk, member, id);

const ticketsOf = (member: Member) => importedTickets(desk, member);

describe("imports: Help Scout", () => {
  test("a full import brings users, customers, conversations, threads and files, and sends nothing", async () => {
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() });
    expect(started.status).toBe(202);
    const done = await runToEnd(owner, started.body.id);
    expect(done.errors).toEqual([]);
    expect(done.status).toBe("succeeded");
    // Customers 10 and 11 come again with their conversations (skipped), the spam conversation is skipped.
    expect(done.counts).toEqual({
      tickets: 3,
      messages: 6,
      contacts: 3,
      companies: 0,
      attachments: 1,
      users: 2,
      skipped: 3,
      failed: 0,
    });

    const tickets = await ticketsOf(owner);
    expect(tickets.map((t) => t.subject).sort()).toEqual([
      "Billing question",
      "Drucker druckt nicht — 打印机",
      "From a deleted customer",
    ]);
    const printer = tickets.find((t) => t.subject.startsWith("Drucker"))!;
    expect(printer).toMatchObject({
      status: "solved",
      priority: "normal",
      created_at: "2023-11-14T22:15:00.000Z",
      solved_at: "2023-11-14T22:19:10.000Z",
      message_count: 4,
    });
    expect(printer.assignee?.id).toBe(agent.id);
    expect(printer.contact?.email).toBe("umit@globex.test");
    expect(printer.tags.map((t: { name: string }) => t.name).sort()).toEqual(["printer", "vip"]);
    expect(tickets.find((t) => t.subject === "Billing question")).toMatchObject({ status: "pending", assignee: null });
    const gone = tickets.find((t) => t.subject === "From a deleted customer")!;
    expect(gone).toMatchObject({ status: "open" });
    expect(gone.contact?.email).toBe("gone@example.test");

    const messages = (await desk.api("GET", `/v1/tickets/${printer.id}/messages`, { headers: owner.headers })).body
      .data;
    expect(messages).toHaveLength(4);
    const [first, second, third, fourth] = messages;
    expect(first).toMatchObject({ kind: "reply", direction: "inbound", created_at: "2023-11-14T22:15:00.000Z" });
    expect(first.body_html).toContain("😢");
    expect(first.body_html).not.toContain("<script");
    expect(first.body_html).not.toContain("onerror");
    expect(first.attachments.map((a: { filename: string }) => a.filename)).toEqual(["screenshot é.png"]);
    expect(second).toMatchObject({ kind: "reply", direction: "outbound", delivery_status: "none" });
    expect(third).toMatchObject({ kind: "note", from_name: "Agent Elsewhere" });
    expect(fourth).toMatchObject({ kind: "reply", from_name: "Deleted user" });

    await desk.consumers.drain();
    await desk.jobs.drain();
    const jobs = (
      await rowsOf<{ kind: string }>(
        desk.deps.db,
        sql`SELECT kind FROM jobs WHERE workspace_id = ${owner.workspaceId} AND kind != 'imports.run'`,
      )
    ).map((r) => r.kind);
    expect(jobs).toEqual([]);
    expect((await desk.api("GET", "/v1/notifications", { headers: agent.headers })).body.data ?? []).toEqual([]);
  });

  test("a re-run asks for what changed since: updates changed conversations, creates only new ones, duplicates nothing", async () => {
    const billing = hs.conversations.find((c) => c.id === 2002)!;
    billing.status = "closed";
    billing.closedAt = at(1000);
    billing.modifiedAt = at(1000);
    billing.threads.push({
      id: 9102,
      type: "reply",
      body: "<p>Refunded</p>",
      createdBy: { id: 1, type: "user" },
      createdAt: at(990),
      attachments: [],
    });
    hs.conversations.push({
      id: 2005,
      number: 5,
      subject: "New since the first run",
      status: "active",
      tags: ["late"],
      assigneeId: 1,
      customerId: 11,
      createdAt: at(1100),
      closedAt: null,
      modifiedAt: at(1100),
      threads: [
        {
          id: 9401,
          type: "customer",
          body: "<p>Hi</p>",
          createdBy: { id: 11, type: "customer" },
          createdAt: at(1100),
          attachments: [],
        },
      ],
    });
    const done = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() })).body.id,
    );
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({ tickets: 2, messages: 2, attachments: 0, contacts: 0, failed: 0 });
    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(4);
    expect(tickets.find((t) => t.subject === "Billing question")).toMatchObject({ status: "solved", message_count: 2 });
    expect(tickets.find((t) => t.subject === "New since the first run")).toMatchObject({ status: "open" });

    const again = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() })).body.id,
    );
    expect(again.counts).toMatchObject({ tickets: 0, messages: 0, contacts: 0, failed: 0 });
    expect(await ticketsOf(owner)).toHaveLength(4);
  });

  test("a token that stops working is fetched again once, and the import goes on", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const issued = hs.tokensIssued;
    hs.revokeAfter = 4;
    const done = await runToEnd(
      other,
      (await desk.api("POST", "/v1/imports", { headers: other.headers, body: body() })).body.id,
    );
    expect(done.status).toBe("succeeded");
    expect(done.counts.tickets).toBe(4);
    expect(hs.tokensIssued - issued).toBeGreaterThanOrEqual(2);
  });

  test("429 answers are waited out for their Retry-After and the import goes on", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    hs.throttle(3, 1);
    const t0 = performance.now();
    const done = await runToEnd(
      other,
      (await desk.api("POST", "/v1/imports", { headers: other.headers, body: body() })).body.id,
    );
    expect(done.status).toBe("succeeded");
    expect(done.counts.tickets).toBe(4);
    expect(performance.now() - t0).toBeGreaterThan(2900);
  });

  test("wrong credentials fail the run with the reason; check previews the totals", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const done = await runToEnd(
      other,
      (await desk.api("POST", "/v1/imports", { headers: other.headers, body: body({ app_secret: "wrong" }) })).body.id,
    );
    expect(done.status).toBe("failed");
    expect(done.errors.at(-1).message).toContain("refused the credentials");
    const ok = await desk.api("POST", "/v1/imports/check", { headers: owner.headers, body: body() });
    expect(ok.body).toEqual({ ok: true, totals: { people: 4, tickets: 5 }, message: null });
    const bad = await desk.api("POST", "/v1/imports/check", {
      headers: owner.headers,
      body: body({ app_secret: "x" }),
    });
    expect(bad.body.ok).toBe(false);
  });

  test("an import and its tickets exist only in their workspace; bad options answer 422 with their location", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const id = (await desk.api("GET", "/v1/imports", { headers: owner.headers })).body.data[0].id;
    expect((await desk.api("GET", `/v1/imports/${id}`, { headers: other.headers })).status).toBe(404);
    const ticket = (await ticketsOf(owner))[0]!;
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: other.headers })).status).toBe(404);
    const bad = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      body: { source: "helpscout", options: { app_id: "" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { location: string }) => e.location).sort()).toEqual([
      "body.options.app_id",
      "body.options.app_secret",
    ]);
  });
});
