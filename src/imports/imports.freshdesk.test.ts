import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { seedFreshdeskAccount, startFakeFreshdesk, type FakeFreshdesk } from "../../test/peers/fake-freshdesk";
import { freshdeskSource } from "./imports.freshdesk";
import type { SourceTicket } from "./imports.source";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const AGENT_EMAIL = `agent-${crypto.randomUUID().slice(0, 8)}@desk.test`;
const desk: TestDesk = await startTestDesk({ config: { allowedPrivateHosts: ["127.0.0.1"] } });
const { owner } = await createWorkspaceWithOwner(desk);
const agent: Member = await addMember(desk, owner.workspaceId, "agent", { email: AGENT_EMAIL, name: "Agent Known" });
const fd: FakeFreshdesk = startFakeFreshdesk();
seedFreshdeskAccount(fd, AGENT_EMAIL);
afterAll(() => fd.stop());

const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const body = (overrides: Record<string, unknown> = {}) => ({
  source: "freshdesk",
  options: { domain: "acme", api_key: fd.apiKey, base_url: fd.url, requests_per_minute: 10_000, ...overrides },
});

const runToEnd = (member: Member, id: string) => runImportToEnd(desk, member, id);

const ticketsOf = (member: Member) => importedTickets(desk, member);

describe("imports: Freshdesk", () => {
  test("a full import brings companies, agents, contacts, tickets, conversations and files, and sends nothing", async () => {
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ source: "freshdesk", status: "queued" });
    const done = await runToEnd(owner, started.body.id);
    expect(done.errors).toEqual([]);
    expect(done.status).toBe("succeeded");
    // Contacts 10 and 11 come again as ticket requesters (skipped); 12, deleted since, only that way.
    expect(done.counts).toEqual({
      tickets: 3,
      messages: 6,
      contacts: 3,
      companies: 2,
      attachments: 1,
      users: 2,
      skipped: 2,
      failed: 0,
    });
    expect(fd.leakedCredentials).toBe(0);

    const tickets = await ticketsOf(owner);
    expect(tickets.map((t) => t.subject).sort()).toEqual([
      "Billing question",
      "Drucker druckt nicht — 打印机",
      "From a deleted contact",
    ]);
    const printer = tickets.find((t) => t.subject.startsWith("Drucker"))!;
    expect(printer).toMatchObject({
      status: "solved",
      priority: "urgent",
      created_at: "2023-11-14T22:15:00.000Z",
      solved_at: "2023-11-14T22:19:10.000Z",
      message_count: 4,
    });
    expect(printer.assignee?.id).toBe(agent.id);
    expect(printer.contact?.email).toBe("umit@globex.test");
    expect(printer.tags.map((t: { name: string }) => t.name).sort()).toEqual(["printer", "vip"]);
    // A custom status (6) → on_hold; priority 2 (Medium) → normal; its agent is no member: unassigned.
    expect(tickets.find((t) => t.subject === "Billing question")).toMatchObject({
      status: "on_hold",
      priority: "normal",
      assignee: null,
    });
    const gone = tickets.find((t) => t.subject === "From a deleted contact")!;
    expect(gone).toMatchObject({ status: "closed", priority: "low" });
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

  test("a re-run asks for what changed since: updates changed tickets, creates only new ones, duplicates nothing", async () => {
    const billing = fd.tickets.find((t) => t.id === 1002)!;
    billing.status = 4;
    billing.resolved_at = at(1000);
    billing.updated_at = at(1000);
    billing.conversations.push({
      id: 5101,
      body: "<p>Refunded</p>",
      private: false,
      incoming: false,
      user_id: 1,
      created_at: at(990),
      attachments: [],
    });
    fd.tickets.push({
      id: 1005,
      subject: "New since the first run",
      description: "<p>Hi</p>",
      status: 3,
      priority: 3,
      tags: ["late"],
      requester_id: 11,
      responder_id: null,
      created_at: at(1100),
      updated_at: at(1100),
      resolved_at: null,
      attachments: [],
      conversations: [],
    });
    const before = fd.requests.get("/api/v2/tickets/1001/conversations") ?? 0;
    const done = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() })).body.id,
    );
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({ tickets: 2, messages: 2, attachments: 0, contacts: 0, failed: 0 });
    expect(fd.requests.get("/api/v2/tickets/1001/conversations") ?? 0).toBe(before);

    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(4);
    expect(tickets.find((t) => t.subject === "Billing question")).toMatchObject({ status: "solved", message_count: 2 });
    expect(tickets.find((t) => t.subject === "New since the first run")).toMatchObject({
      status: "pending",
      priority: "high",
    });

    const again = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: body() })).body.id,
    );
    expect(again.counts).toMatchObject({ tickets: 0, messages: 0, contacts: 0, companies: 0, failed: 0 });
    expect(await ticketsOf(owner)).toHaveLength(4);
  });

  test("past Freshdesk's last page the listing goes on from the newest updated_at read", async () => {
    fd.perPageCap = 1;
    fd.maxPage = 2;
    try {
      const source = freshdeskSource({ domain: "acme", api_key: fd.apiKey, base_url: fd.url }, ["127.0.0.1"], 2);
      const seen = new Set<string>();
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) {
        const page = await source.page("tickets", cursor, AbortSignal.timeout(10_000));
        for (const t of page.tickets ?? ([] as SourceTicket[])) seen.add(t.sourceId);
        cursor = page.cursor;
        if (page.done) break;
      }
      expect([...seen].sort()).toEqual(["1001", "1002", "1004", "1005"]);
    } finally {
      fd.perPageCap = 100;
      fd.maxPage = 300;
    }
  });

  test("429 answers are waited out for their Retry-After and the import goes on", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    fd.throttle(3, 1);
    const t0 = performance.now();
    const done = await runToEnd(
      other,
      (await desk.api("POST", "/v1/imports", { headers: other.headers, body: body() })).body.id,
    );
    expect(done.status).toBe("succeeded");
    expect(done.counts.tickets).toBe(4);
    expect(performance.now() - t0).toBeGreaterThan(2900);
  });

  test("a wrong key fails the run with the reason; check says so too", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const done = await runToEnd(
      other,
      (await desk.api("POST", "/v1/imports", { headers: other.headers, body: body({ api_key: "wrong" }) })).body.id,
    );
    expect(done.status).toBe("failed");
    expect(done.errors.at(-1).message).toContain("refused the credentials");
    const ok = await desk.api("POST", "/v1/imports/check", { headers: owner.headers, body: body() });
    expect(ok.body).toMatchObject({ ok: true, message: null });
    const bad = await desk.api("POST", "/v1/imports/check", { headers: owner.headers, body: body({ api_key: "x" }) });
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
      body: { source: "freshdesk", options: { domain: "bad domain!", base_url: "ftp://x" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { location: string }) => e.location).sort()).toEqual([
      "body.options.api_key",
      "body.options.base_url",
      "body.options.domain",
    ]);
  });
});
