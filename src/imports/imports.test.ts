import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { seedSmallAccount, startFakeZendesk, type FakeZendesk } from "../../test/peers/fake-zendesk";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const AGENT_EMAIL = `agent-${crypto.randomUUID().slice(0, 8)}@desk.test`;
const desk: TestDesk = await startTestDesk({ config: { allowedPrivateHosts: ["127.0.0.1"] } });
const { owner } = await createWorkspaceWithOwner(desk);
const agent: Member = await addMember(desk, owner.workspaceId, "agent", { email: AGENT_EMAIL, name: "Agent Known" });
const zd: FakeZendesk = startFakeZendesk();
seedSmallAccount(zd, AGENT_EMAIL);
afterAll(() => zd.stop());

const zendeskBody = (overrides: Record<string, unknown> = {}) => ({
  source: "zendesk",
  options: {
    subdomain: "acme",
    email: zd.email,
    api_token: zd.token,
    base_url: zd.url,
    requests_per_minute: 10_000,
    export_requests_per_minute: 10_000,
    ...overrides,
  },
});

const runToEnd = (member: Member, id: string) => runImportToEnd(desk, member, id);

const ticketsOf = (member: Member) => importedTickets(desk, member);

describe("imports: Zendesk", () => {
  test("a full import brings organizations, users, tickets, comments and files, and sends nothing", async () => {
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body: zendeskBody() });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ source: "zendesk", status: "queued" });
    const done = await runToEnd(owner, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.counts).toEqual({
      tickets: 2,
      messages: 5,
      contacts: 2,
      companies: 2,
      attachments: 1,
      users: 2,
      skipped: 1,
      failed: 0,
    });
    expect(done.errors).toEqual([]);
    expect(done.finished_at).not.toBeNull();

    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(2);
    const printer = tickets.find((t) => t.subject === "Drucker druckt nicht — 打印机")!;
    expect(printer).toMatchObject({
      status: "solved",
      priority: "urgent",
      created_at: "2023-11-14T22:15:00.000Z",
      solved_at: "2023-11-14T22:19:10.000Z",
      first_responded_at: "2023-11-14T22:16:40.000Z",
      last_message_at: "2023-11-14T22:19:00.000Z",
      message_count: 4,
    });
    expect(printer.assignee?.id).toBe(agent.id);
    expect(printer.contact?.email).toBe("umit@globex.test");
    expect(printer.tags.map((t: { name: string }) => t.name).sort()).toEqual(["printer", "vip"]);
    expect(printer.sla ?? null).toBeNull();

    const billing = tickets.find((t) => t.subject === "Billing question")!;
    // hold → on_hold; its agent is no member here: unassigned.
    expect(billing).toMatchObject({ status: "on_hold", priority: "normal", assignee: null });

    const messages = (await desk.api("GET", `/v1/tickets/${printer.id}/messages`, { headers: owner.headers })).body
      .data;
    expect(messages).toHaveLength(4);
    const [first, second, third, fourth] = messages;
    expect(first).toMatchObject({ kind: "reply", direction: "inbound" });
    expect(first.body_html).toContain("broken");
    expect(first.body_html).toContain("😢");
    expect(first.body_html).not.toContain("<script");
    expect(first.body_html).not.toContain("onerror");
    expect(first.attachments).toHaveLength(1);
    expect(first.attachments[0].filename).toBe("screenshot é.png");
    expect(first.created_at).toBe("2023-11-14T22:15:00.000Z");
    expect(second).toMatchObject({ kind: "reply", direction: "outbound", delivery_status: "none" });
    expect(third).toMatchObject({ kind: "note", from_name: "Agent Gone Elsewhere" });
    expect(fourth).toMatchObject({ kind: "reply", from_name: "Deleted user" });

    // Imported history sends no mail and wakes no reaction.
    await desk.consumers.drain();
    await desk.jobs.drain();
    const jobs = (
      await rowsOf<{ kind: string }>(
        desk.deps.db,
        sql`SELECT kind FROM jobs WHERE workspace_id = ${owner.workspaceId} AND kind != 'imports.run'`,
      )
    ).map((r) => r.kind);
    expect(jobs).toEqual([]);
    const notifications = await desk.api("GET", "/v1/notifications", { headers: agent.headers });
    expect(notifications.body.data ?? []).toEqual([]);
  });

  test("a re-run fetches what changed: updates changed tickets, creates only new ones, duplicates nothing", async () => {
    const billing = zd.tickets.find((t) => t.id === 102)!;
    billing.status = "solved";
    billing.updated_at = "2023-11-15T00:00:00Z";
    billing.solved_at = "2023-11-15T00:00:00Z";
    billing.comments.push({
      id: 9102,
      author_id: 1,
      body: "Refunded",
      html_body: "<p>Refunded</p>",
      public: true,
      created_at: "2023-11-14T23:59:00Z",
      attachments: [],
    });
    zd.tickets.push({
      id: 104,
      subject: "New since the first run",
      status: "new",
      priority: "low",
      tags: ["late"],
      requester_id: 11,
      assignee_id: null,
      created_at: "2023-11-15T01:00:00Z",
      updated_at: "2023-11-15T01:00:00Z",
      solved_at: null,
      comments: [
        {
          id: 9201,
          author_id: 11,
          body: "Hi",
          html_body: "<p>Hi</p>",
          public: true,
          created_at: "2023-11-15T01:00:00Z",
          attachments: [],
        },
      ],
    });
    const commentsBefore = zd.requests.get("/api/v2/tickets/101/comments.json") ?? 0;
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body: zendeskBody() });
    const done = await runToEnd(owner, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({ tickets: 2, messages: 2, attachments: 0, failed: 0 });
    // The unchanged ticket is not even asked for its comments.
    expect(zd.requests.get("/api/v2/tickets/101/comments.json") ?? 0).toBe(commentsBefore);

    const tickets = await ticketsOf(owner);
    expect(tickets).toHaveLength(3);
    const updated = tickets.find((t) => t.subject === "Billing question")!;
    expect(updated.status).toBe("solved");
    expect(updated.message_count).toBe(2);
    const fresh = tickets.find((t) => t.subject === "New since the first run")!;
    expect(fresh).toMatchObject({ status: "open", priority: "low" });
    const printer = tickets.find((t) => t.subject.startsWith("Drucker"))!;
    expect(printer.message_count).toBe(4);

    // Nothing changed: a third run writes nothing.
    const again = await runToEnd(
      owner,
      (await desk.api("POST", "/v1/imports", { headers: owner.headers, body: zendeskBody() })).body.id,
    );
    expect(again.counts).toMatchObject({ tickets: 0, messages: 0, contacts: 0, companies: 0, failed: 0 });
    expect(await ticketsOf(owner)).toHaveLength(3);
  });

  test("429 answers are waited out for their Retry-After and the import goes on", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    zd.throttle(3, 1);
    const t0 = performance.now();
    const started = await desk.api("POST", "/v1/imports", { headers: other.headers, body: zendeskBody() });
    const done = await runToEnd(other, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.counts.tickets).toBe(3);
    expect(performance.now() - t0).toBeGreaterThan(2900);
  });

  test("wrong credentials fail the run with the reason; the credentials are dropped", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const started = await desk.api("POST", "/v1/imports", {
      headers: other.headers,
      body: zendeskBody({ api_token: "wrong" }),
    });
    const done = await runToEnd(other, started.body.id);
    expect(done.status).toBe("failed");
    expect(done.errors.at(-1).message).toContain("refused the credentials");
    const sealed = (
      await rowsOf<{ options_sealed: string | null }>(
        desk.deps.db,
        sql`SELECT options_sealed FROM imports WHERE id = ${started.body.id}`,
      )
    )[0];
    expect(sealed?.options_sealed).toBeNull();
  });

  test("check tests the connection and previews the source's totals", async () => {
    const ok = await desk.api("POST", "/v1/imports/check", { headers: owner.headers, body: zendeskBody() });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, totals: { companies: 2, people: 4, tickets: 3 }, message: null });
    const bad = await desk.api("POST", "/v1/imports/check", {
      headers: owner.headers,
      body: zendeskBody({ api_token: "x" }),
    });
    expect(bad.body.ok).toBe(false);
  });
});

describe("imports: access and input", () => {
  test("an import exists only in its workspace", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const list = await desk.api("GET", "/v1/imports", { headers: owner.headers });
    const id = list.body.data[0].id;
    expect((await desk.api("GET", `/v1/imports/${id}`, { headers: other.headers })).status).toBe(404);
    expect((await desk.api("POST", `/v1/imports/${id}/cancel`, { headers: other.headers })).status).toBe(404);
    expect((await desk.api("GET", "/v1/imports", { headers: other.headers })).body.data).toEqual([]);
  });

  test("401 without a credential, 403 for an agent or a key without settings:write", async () => {
    expect((await desk.api("POST", "/v1/imports", { body: zendeskBody() })).status).toBe(401);
    expect((await desk.api("POST", "/v1/imports", { headers: agent.headers, body: zendeskBody() })).status).toBe(403);
    const key = await createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("POST", "/v1/imports", { headers: key.headers, body: zendeskBody() })).status).toBe(403);
    expect((await desk.api("GET", "/v1/imports", { headers: key.headers })).status).toBe(200);
  });

  test("bad options answer 422 with their location", async () => {
    const missing = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      body: { source: "zendesk", options: { subdomain: "bad domain!", email: "x@y.test" } },
    });
    expect(missing.status).toBe(422);
    const locations = missing.body.errors.map((e: { location: string }) => e.location).sort();
    expect(locations).toEqual(["body.options.api_token", "body.options.subdomain"]);
    const source = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      body: { source: "kayako", options: {} },
    });
    expect(source.status).toBe(422);
    expect(source.body.errors[0].location).toBe("body.source");
    const json = await desk.api("POST", "/v1/imports", {
      headers: { ...owner.headers, "content-type": "application/json" },
      raw: "{",
    });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe("malformed_json");
    const form = await desk.api("POST", "/v1/imports", {
      headers: { ...owner.headers, "content-type": "application/x-www-form-urlencoded" },
      raw: "source=zendesk",
    });
    expect(form.status).toBe(415);
  });

  test("cancel stops a queued import and drops its credentials", async () => {
    const { owner: other } = await createWorkspaceWithOwner(desk);
    const started = await desk.api("POST", "/v1/imports", { headers: other.headers, body: zendeskBody() });
    const canceled = await desk.api("POST", `/v1/imports/${started.body.id}/cancel`, { headers: other.headers });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("canceled");
    await desk.jobs.drain();
    const after = await desk.api("GET", `/v1/imports/${started.body.id}`, { headers: other.headers });
    expect(after.body).toMatchObject({ status: "canceled", counts: { tickets: 0 } });
    expect((await ticketsOf(other)).length).toBe(0);
  });
});
