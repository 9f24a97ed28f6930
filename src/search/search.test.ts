import { describe, expect, test } from "bun:test";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { processEngine } from "../config/engine";
import { newField, newTeam, newTicket } from "../../test/kit/tickets";
import { planSearch, queryTerms } from "./search.query";

const desk = await startTestDesk();
const search = async (headers: Record<string, string>, q: string) =>
  (await desk.api("GET", `/v1/search?q=${encodeURIComponent(q)}`, { headers })).body;

describe("search", () => {
  test("queries never leak FTS syntax; only a partial last word is a prefix", async () => {
    expect(queryTerms(`"foo" OR bar* NEAR(x) -y ^z`)).toEqual(["foo", "or", "bar", "near", "x", "y", "z"]);
    const db = desk.deps.db;
    expect(await planSearch(db, "***")).toBeNull();
    // The engine's match syntax: FTS5's MATCH text, PostgreSQL's tsquery (accents folded as its documents are).
    const postgres = processEngine === "postgres";
    expect((await planSearch(db, "Héllo wor"))!.expression(["subject"])).toBe(
      postgres ? "'hello':A & 'wor':*A" : '{subject} : ("héllo" "wor"*)',
    );
    expect((await planSearch(db, "to"))!.expression(["subject"])).toBe(postgres ? "'to':A" : '{subject} : ("to")');
    expect((await planSearch(db, "wor"))!.precise).toBe(false);
    expect((await planSearch(db, "hello to", 1_000))!.precise).toBe(true);
  });

  test("tickets by subject, message text and custom text; contacts by name and email; prefix; relevance", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newField(desk, owner, { name: "Order", key: "order_ref", type: "text" });
    const bySubject = await newTicket(desk, owner, {
      subject: "Kangaroo invoice missing",
      contact: { email: "wallaby@zoo.test", name: "Wanda Wallaby" },
    });
    const byMessage = await newTicket(desk, owner, {
      subject: "Question",
      body_html: "<p>the kangaroo escaped again</p>",
    });
    const byField = await newTicket(desk, owner, { subject: "Other", fields: { order_ref: "ZX-kangaroo-991" } });
    await newTicket(desk, owner, { subject: "Unrelated" });
    const res = await search(owner.headers, "kangaroo");
    expect(res.tickets.map((t: { id: string }) => t.id).sort()).toEqual(
      [bySubject.id, byMessage.id, byField.id].sort(),
    );
    expect(res.tickets[0].id).toBe(bySubject.id);
    expect(res.articles).toEqual([]);
    expect((await search(owner.headers, "kanga")).tickets).toHaveLength(3);
    expect((await search(owner.headers, "kangaroo esc")).tickets.map((t: { id: string }) => t.id)).toEqual([
      byMessage.id,
    ]);
    expect((await search(owner.headers, "wallab")).contacts.map((c: { email: string }) => c.email)).toEqual([
      "wallaby@zoo.test",
    ]);
    expect((await search(owner.headers, "zoo.test")).contacts).toHaveLength(1);
    expect((await search(owner.headers, "")).tickets).toEqual([]);
    expect((await search(owner.headers, `" OR * (`)).tickets).toEqual([]);
    // five at most
    for (let i = 0; i < 7; i++) await newTicket(desk, owner, { subject: `platypus ${i}` });
    expect((await search(owner.headers, "platypus")).tickets).toHaveLength(5);
    // updates keep the index in step
    await desk.api("PATCH", `/v1/tickets/${bySubject.id}`, {
      headers: owner.headers,
      body: { subject: "Renamed entirely" },
    });
    expect((await search(owner.headers, "renamed")).tickets.map((t: { id: string }) => t.id)).toEqual([bySubject.id]);
    await desk.api("PATCH", `/v1/tickets/${byField.id}`, {
      headers: owner.headers,
      body: { fields: { order_ref: null } },
    });
    expect((await search(owner.headers, "kangaroo")).tickets.map((t: { id: string }) => t.id)).toEqual([byMessage.id]);
  });

  test("common words take the guarded path: newest hits only, subject before custom field before message, then recency", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newField(desk, owner, { name: "Ref", key: "ref", type: "text" });
    const { searchTickets } = await import("../tickets/tickets.public");
    const inMessage = await newTicket(desk, owner, { subject: "One", body_html: "<p>common wombat words</p>" });
    const inField = await newTicket(desk, owner, { subject: "Two", fields: { ref: "wombat-7" } });
    const olderSubject = await newTicket(desk, owner, { subject: "wombat older" });
    const newerSubject = await newTicket(desk, owner, { subject: "wombat newer" });
    await newTicket(desk, owner, { subject: "nothing here" });
    const guarded = (await searchTickets(desk.deps.db, owner.ctx, "wombat", 5, 1)).map((t) => t.id);
    expect(guarded).toEqual([newerSubject.id, olderSubject.id, inField.id, inMessage.id]);
    const precise = (await searchTickets(desk.deps.db, owner.ctx, "wombat", 5)).map((t) => t.id);
    expect(precise.sort()).toEqual(guarded.sort());
  });

  test("other workspaces, deleted tickets and hidden private teams never appear; 401/403", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const outsider = await addMember(desk, workspace.id, "agent");
    await newTicket(desk, other.owner, { subject: "Narwhal secret", contact: { email: "narwhal@other.test" } });
    expect(await search(owner.headers, "narwhal")).toEqual({ tickets: [], contacts: [], articles: [] });
    const gone = await newTicket(desk, owner, { subject: "Narwhal deleted" });
    await desk.api("DELETE", `/v1/tickets/${gone.id}`, { headers: owner.headers });
    expect((await search(owner.headers, "narwhal")).tickets).toEqual([]);
    const team = await newTeam(desk, owner, { name: "Secret", private: true });
    await newTicket(desk, owner, { subject: "Narwhal private", team_id: team.id });
    expect((await search(owner.headers, "narwhal")).tickets).toHaveLength(1);
    expect((await search(outsider.headers, "narwhal")).tickets).toEqual([]);
    expect((await desk.api("GET", "/v1/tickets?q=narwhal", { headers: outsider.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", "/v1/search?q=x")).status).toBe(401);
    expect(
      (await desk.api("GET", "/v1/search?q=x", { headers: (await createKey(desk, owner, ["contacts:read"])).headers }))
        .status,
    ).toBe(403);
    const ticketsOnly = await desk.api("GET", "/v1/search?q=narwhal", {
      headers: (await createKey(desk, owner, ["tickets:read"])).headers,
    });
    expect(ticketsOnly.body.contacts).toEqual([]);
  });
});

describe("words match alike on both engines", () => {
  test("accents and case fold, punctuation splits words, the last word is a prefix", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const dessert = await newTicket(desk, owner, {
      subject: "Crème brûlée order",
      body_html: "<p>ref: ABC-123/x, see https://shop.example.test/orders?id=9</p>",
      contact: { email: "jean-luc.picard@enterprise.test", name: "Jean-Luc Picard" },
    });
    const ticketIds = async (q: string) =>
      ((await search(owner.headers, q)).tickets as { id: string }[]).map((t) => t.id);
    for (const q of ["creme", "CRÈME", "brulee", "brû", "abc 123", "shop example", "orders", "picard", "luc"])
      expect(await ticketIds(q), q).toEqual([dessert.id]);
    for (const q of ["crem brulee", "abc123", "examples"]) expect(await ticketIds(q), q).toEqual([]);
    expect(((await search(owner.headers, "enterprise")).contacts as { email: string }[]).map((c) => c.email)).toEqual([
      "jean-luc.picard@enterprise.test",
    ]);
  });
});

describe("search by contact, ticket number and company words", () => {
  const ids = (list: { id: string }[]) => list.map((t) => t.id).sort();

  test("tickets by their contact's email, first or last name, in /v1/search and the list's q; a rename is found at once", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const mine = await newTicket(desk, owner, {
      subject: "Printer jam",
      contact: { email: "carol.quimby@customer.test", name: "Carol Quimby" },
    });
    const second = await newTicket(desk, owner, { subject: "Toner", contact: { email: "carol.quimby@customer.test" } });
    await newTicket(desk, owner, {
      subject: "Something else",
      contact: { email: "dave@elsewhere.test", name: "Dave Other" },
    });
    await newTicket(desk, other.owner, {
      subject: "Not yours",
      contact: { email: "carol.quimby@customer.test", name: "Carol Quimby" },
    });
    for (const q of ["carol.quimby@customer.test", "Quimby", "carol quim", "customer.test"]) {
      expect(ids((await search(owner.headers, q)).tickets)).toEqual(ids([mine, second]));
      const listed = await desk.api("GET", `/v1/tickets?q=${encodeURIComponent(q)}`, { headers: owner.headers });
      expect(ids(listed.body.data)).toEqual(ids([mine, second]));
    }
    // Renaming the contact re-indexes it: the old name no longer finds the tickets, the new one does.
    const contactId = (await desk.api("GET", `/v1/tickets/${mine.id}`, { headers: owner.headers })).body.contact.id;
    const patched = await desk.api("PATCH", `/v1/contacts/${contactId}`, {
      headers: owner.headers,
      body: { name: "Carol Zebedee", email: "cz@newmail.test" },
    });
    expect(patched.status).toBe(200);
    expect((await search(owner.headers, "quimby")).tickets).toEqual([]);
    expect(ids((await search(owner.headers, "zebedee")).tickets)).toEqual(ids([mine, second]));
    expect(ids((await search(owner.headers, "cz@newmail.test")).tickets)).toEqual(ids([mine, second]));
    expect(ids((await desk.api("GET", "/v1/tickets?q=zebedee", { headers: owner.headers })).body.data)).toEqual(
      ids([mine, second]),
    );
  });

  test("a ticket number, `4` or `#4`, finds that ticket first, in this workspace only", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await newTicket(desk, owner, { subject: `Ticket ${"abcde"[i]}` }));
    const mentions = await newTicket(desk, owner, { subject: "Order", body_html: "<p>I ordered 4 chairs</p>" });
    for (let i = 0; i < 5; i++) await newTicket(desk, other.owner, { subject: "Elsewhere" });
    const four = made.find((t) => t.number === 4)!;
    const plain = (await search(owner.headers, "4")).tickets;
    expect(plain[0].id).toBe(four.id);
    expect(ids(plain)).toEqual(ids([four, mentions]));
    expect((await search(owner.headers, "#4")).tickets.map((t: { id: string }) => t.id)).toEqual([four.id]);
    expect((await search(owner.headers, " # 4 ")).tickets.map((t: { id: string }) => t.id)).toEqual([four.id]);
    expect((await search(owner.headers, "#999")).tickets).toEqual([]);
    expect(
      (await desk.api("GET", "/v1/tickets?q=%234", { headers: owner.headers })).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual([four.id]);
    expect(ids((await desk.api("GET", "/v1/tickets?q=4", { headers: owner.headers })).body.data)).toEqual(
      ids([four, mentions]),
    );
  });

  test("companies by any word of their name or domain, not only a prefix of the whole name", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const create = async (headers: Record<string, string>, name: string, domain?: string) => {
      const res = await desk.api("POST", "/v1/companies", { headers, body: { name, ...(domain ? { domain } : {}) } });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    };
    const acme = await create(owner.headers, "Acme Rocket Works Ltd", "acme-rockets.test");
    const globex = await create(owner.headers, "Globex Corporation");
    await create(other.owner.headers, "Rocket Elsewhere");
    const list = async (q: string) =>
      ids((await desk.api("GET", `/v1/companies?q=${encodeURIComponent(q)}`, { headers: owner.headers })).body.data);
    expect(await list("rocket")).toEqual([acme.id]);
    expect(await list("works ltd")).toEqual([acme.id]);
    expect(await list("corp")).toEqual([globex.id]);
    expect(await list("Acm")).toEqual([acme.id]);
    expect(await list("acme-rockets.test")).toEqual([acme.id]);
    expect(await list("rockets")).toEqual([acme.id]);
    await desk.api("PATCH", `/v1/companies/${globex.id}`, {
      headers: owner.headers,
      body: { name: "Initech Rocketry" },
    });
    expect(await list("rocketry")).toEqual([globex.id]);
    expect(await list("corporation")).toEqual([]);
  });
});
