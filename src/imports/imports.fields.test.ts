import { afterAll, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { importedTickets, runImportToEnd } from "../../test/kit/imports";
import { startFakeFreshdesk, type FakeFreshdesk } from "../../test/peers/fake-freshdesk";
import { startFakeHelpScout, type FakeHelpScout } from "../../test/peers/fake-helpscout";
import { startFakeZendesk, type FakeZendesk, type ZdTicket } from "../../test/peers/fake-zendesk";

const desk: TestDesk = await startTestDesk({ config: { allowedPrivateHosts: ["127.0.0.1"] } });
const { owner } = await createWorkspaceWithOwner(desk);
const zd: FakeZendesk = startFakeZendesk();
afterAll(() => zd.stop());

const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6, 5, 4, 3, 2]);

zd.ticketFields.push(
  { id: 360001, type: "integer", title: "Order number", removable: true, active: true },
  {
    id: 360002,
    type: "tagger",
    title: "Plan",
    removable: true,
    active: true,
    custom_field_options: [
      { id: 1, name: "Gold plan", value: "plan_gold" },
      { id: 2, name: "Silver plan", value: "plan_silver" },
    ],
  },
  { id: 360003, type: "date", title: "Renewal", removable: true, active: true },
  { id: 360004, type: "partialcreditcard", title: "Card", removable: true, active: true },
);
zd.userFields.push({
  id: 41,
  key: "vip_customer",
  type: "checkbox",
  title: "VIP customer",
  removable: true,
  active: true,
});
zd.organizationFields.push({ id: 42, key: "tier", type: "text", title: "Tier", removable: true, active: true });
zd.organizations.push({
  id: 501,
  name: "Initech",
  domain_names: ["initech.test"],
  notes: "",
  organization_fields: { tier: "Enterprise" },
  updated_at: at(1),
});
zd.users.push({
  id: 10,
  name: "Peter Gibbons",
  email: "peter@initech.test",
  role: "end-user",
  organization_id: 501,
  phone: null,
  user_fields: { vip_customer: true },
  updated_at: at(2),
});
const ticket: ZdTicket = {
  id: 7,
  subject: "TPS report cover sheet",
  status: "open",
  priority: "normal",
  tags: [],
  requester_id: 10,
  assignee_id: null,
  created_at: at(100),
  updated_at: at(200),
  solved_at: null,
  custom_fields: [
    { id: 360001, value: "4711" },
    { id: 360002, value: "plan_gold" },
    { id: 360003, value: "2024-03-01" },
    { id: 360004, value: "XXXXXXXXXXXX1234" },
    { id: 1, value: "ignored: a system field" },
  ],
  comments: [
    {
      id: 8001,
      author_id: 10,
      body: "See the chart",
      html_body: [
        "<p>See the chart:</p>",
        `<img src="${zd.url}/attachments/token/6001/?name=chart.png" alt="Chart">`,
        '<img src="https://tracker.example/pixel.gif?u=1" alt="tracking pixel">',
        // The account's API on its own host is no file: never fetched on a customer's word.
        `<img src="${zd.url}/api/v2/users/count.json" alt="api">`,
        `<img src="${zd.url}/attachments/token/6999/?name=gone.png" alt="Missing diagram">`,
      ].join(""),
      public: true,
      created_at: at(100),
      attachments: [{ id: 6001, file_name: "chart.png", content_type: "image/png", bytes: png, inline: true }],
    },
  ],
};
zd.tickets.push(ticket);

const body = {
  source: "zendesk",
  options: {
    subdomain: "initech",
    email: zd.email,
    api_token: zd.token,
    base_url: zd.url,
    requests_per_minute: 10_000,
    export_requests_per_minute: 10_000,
  },
};

const fieldsOf = async () =>
  (await desk.api("GET", "/v1/custom-fields?archived=any", { headers: owner.headers })).body.data as Array<{
    id: string;
    entity: string;
    key: string;
    type: string;
    options: Array<{ id: string; label: string }>;
  }>;

describe("imports: custom fields and inline images (Zendesk)", () => {
  test("vendor fields become Desk fields of matching types with the records' values; inline images are stored", async () => {
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body });
    expect(started.status).toBe(202);
    const done = await runImportToEnd(desk, owner, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.counts).toMatchObject({ tickets: 1, messages: 1, attachments: 1, failed: 0 });
    // The vendor's file that answered 404 is listed; the foreign tracker is never fetched nor listed.
    expect(done.errors).toHaveLength(1);
    expect(done.errors[0]).toMatchObject({ record: "ticket 7" });
    expect(done.errors[0].message).toContain("gone.png");

    const fields = await fieldsOf();
    const byKey = new Map(fields.map((f) => [`${f.entity}:${f.key}`, f]));
    expect(byKey.get("ticket:order_number")?.type).toBe("number");
    expect(byKey.get("ticket:plan")).toMatchObject({ type: "select" });
    expect(byKey.get("ticket:plan")!.options.map((o) => o.label)).toEqual(["Gold plan", "Silver plan"]);
    expect(byKey.get("ticket:renewal")?.type).toBe("date");
    expect(byKey.get("ticket:card")?.type).toBe("text");
    expect(byKey.get("contact:vip_customer")?.type).toBe("checkbox");
    expect(byKey.get("company:tier")?.type).toBe("text");
    expect(fields.some((f) => f.key === "subject")).toBe(false);

    const [imported] = await importedTickets(desk, owner);
    expect(imported!.fields).toEqual({
      order_number: 4711,
      plan: "gold_plan",
      renewal: "2024-03-01",
      card: "XXXXXXXXXXXX1234",
    });
    const contacts = (await desk.api("GET", "/v1/contacts?limit=10", { headers: owner.headers })).body.data;
    expect(contacts.find((c: { email: string }) => c.email === "peter@initech.test").fields).toEqual({
      vip_customer: true,
    });
    const companies = (await desk.api("GET", "/v1/companies?limit=10", { headers: owner.headers })).body.data;
    expect(companies.find((c: { name: string }) => c.name === "Initech").fields).toEqual({ tier: "Enterprise" });

    const [message] = (await desk.api("GET", `/v1/tickets/${imported!.id}/messages`, { headers: owner.headers })).body
      .data;
    expect(message.attachments).toHaveLength(1);
    const chart = message.attachments[0];
    expect(chart.filename).toBe("chart.png");
    const html: string = message.body_html;
    // The image shows from Desk's own stored copy, never from the vendor or a third party.
    expect(html).not.toContain(zd.url);
    expect(html).not.toContain("tracker.example");
    expect(html).not.toContain("cid:");
    const src = /<img[^>]*src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&");
    expect(src).toContain(chart.id);
    const file = await fetch(new URL(src, desk.url), { headers: owner.headers });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
    expect(html).toContain("tracking pixel");
    expect(html).toContain("Missing diagram");
    expect(zd.requests.get("/api/v2/users/count.json")).toBe(1);
  });

  test("a re-run reuses the fields (a new option is added), updates values and duplicates nothing", async () => {
    const before = await fieldsOf();
    zd.ticketFields[3]!.custom_field_options!.push({ id: 3, name: "Platinum plan", value: "plan_platinum" });
    ticket.custom_fields = [
      { id: 360001, value: "4712" },
      { id: 360002, value: "plan_platinum" },
      { id: 360003, value: null },
    ];
    ticket.updated_at = at(300);
    const started = await desk.api("POST", "/v1/imports", { headers: owner.headers, body });
    const done = await runImportToEnd(desk, owner, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.errors).toEqual([]);
    const after = await fieldsOf();
    expect(after.map((f) => f.id).sort()).toEqual(before.map((f) => f.id).sort());
    expect(after.find((f) => f.key === "plan")!.options.map((o) => o.label)).toEqual([
      "Gold plan",
      "Silver plan",
      "Platinum plan",
    ]);
    const tickets = await importedTickets(desk, owner);
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.fields).toEqual({ order_number: 4712, plan: "platinum_plan", card: "XXXXXXXXXXXX1234" });
  });
});

describe("imports: custom fields and inline images (Freshdesk)", async () => {
  const { owner: fdOwner } = await createWorkspaceWithOwner(desk);
  const fd: FakeFreshdesk = startFakeFreshdesk();
  afterAll(() => fd.stop());
  fd.ticketFields.push(
    { id: 11, name: "cf_plan", label: "Plan", type: "custom_dropdown", default: false, choices: ["Gold", "Silver"] },
    { id: 12, name: "cf_seats", label: "Seats", type: "custom_number", default: false },
    { id: 13, name: "cf_onsite", label: "On site", type: "custom_checkbox", default: false },
  );
  fd.agents.push({ id: 1, name: "Admin", email: "admin@umbrella.test", updated_at: at(0) });
  fd.contactFields.push({ id: 21, name: "department", label: "Department", type: "custom_text", default: false });
  fd.companyFields.push({ id: 31, name: "renewal", label: "Renewal", type: "custom_date", default: false });
  fd.companies.push({
    id: 301,
    name: "Umbrella",
    domains: ["umbrella.test"],
    description: null,
    updated_at: at(1),
    custom_fields: { renewal: "2025-01-31" },
  });
  fd.contacts.push({
    id: 10,
    name: "Alice",
    email: "alice@umbrella.test",
    phone: null,
    company_id: 301,
    updated_at: at(2),
    custom_fields: { department: "Research" },
  });
  fd.inlineFiles.set(77, png);
  fd.tickets.push({
    id: 1,
    subject: "Lab badge",
    description: `<div>Badge photo: <img src="${fd.url}/helpdesk/attachments/77" alt="badge"></div>`,
    status: 2,
    priority: 2,
    tags: [],
    requester_id: 10,
    responder_id: null,
    created_at: at(100),
    updated_at: at(100),
    resolved_at: null,
    attachments: [],
    conversations: [],
    custom_fields: { cf_plan: "Silver", cf_seats: 12, cf_onsite: true },
  });
  const fdBody = {
    source: "freshdesk",
    options: { domain: "umbrella", api_key: fd.apiKey, base_url: fd.url, requests_per_minute: 10_000 },
  };

  test("ticket, contact and company fields are created with their types and values; the inline image is stored", async () => {
    for (let run = 0; run < 2; run++) {
      if (run === 1) fd.tickets[0]!.updated_at = at(200);
      const started = await desk.api("POST", "/v1/imports", { headers: fdOwner.headers, body: fdBody });
      const done = await runImportToEnd(desk, fdOwner, started.body.id);
      expect(done.status).toBe("succeeded");
      expect(done.errors).toEqual([]);
    }
    const fields = (await desk.api("GET", "/v1/custom-fields", { headers: fdOwner.headers })).body.data;
    expect(
      fields.map((f: { entity: string; key: string; type: string }) => `${f.entity}:${f.key}:${f.type}`).sort(),
    ).toEqual([
      "company:renewal:date",
      "contact:department:text",
      "ticket:on_site:checkbox",
      "ticket:plan:select",
      "ticket:seats:number",
    ]);
    const [ticket] = await importedTickets(desk, fdOwner);
    expect(ticket!.fields).toEqual({ plan: "silver", seats: 12, on_site: true });
    const contacts = (await desk.api("GET", "/v1/contacts?limit=10", { headers: fdOwner.headers })).body.data;
    expect(contacts[0].fields).toEqual({ department: "Research" });
    const companies = (await desk.api("GET", "/v1/companies?limit=10", { headers: fdOwner.headers })).body.data;
    expect(companies[0].fields).toEqual({ renewal: "2025-01-31" });
    const [message] = (await desk.api("GET", `/v1/tickets/${ticket!.id}/messages`, { headers: fdOwner.headers })).body
      .data;
    expect(message.attachments).toHaveLength(1);
    expect(message.body_html).not.toContain(fd.url);
    expect(message.body_html).toContain(message.attachments[0].id);
  });
});

describe("imports: custom fields (Help Scout)", async () => {
  const { owner: hsOwner } = await createWorkspaceWithOwner(desk);
  const hs: FakeHelpScout = startFakeHelpScout();
  afterAll(() => hs.stop());
  hs.mailboxFields.push(
    {
      id: 8001,
      name: "Product",
      type: "DROPDOWN",
      options: [
        { id: 11, label: "Desk Cloud", order: 1 },
        { id: 12, label: "Desk Server", order: 2 },
      ],
    },
    { id: 8002, name: "Licence count", type: "NUMBER", options: [] },
    { id: 8003, name: "Contract end", type: "DATE", options: [] },
  );
  hs.customers.push({
    id: 5,
    firstName: "Bea",
    lastName: "Ray",
    email: "bea@example.test",
    phone: null,
    updatedAt: at(1),
  });
  hs.conversations.push({
    id: 900,
    number: 1,
    subject: "Licence renewal",
    status: "active",
    tags: [],
    assigneeId: null,
    customerId: 5,
    createdAt: at(10),
    closedAt: null,
    modifiedAt: at(10),
    threads: [
      {
        id: 1,
        type: "customer",
        body: '<p>Renew please</p><img src="https://cdn.elsewhere.test/logo.png" alt="logo">',
        createdBy: { id: 5, type: "customer" },
        createdAt: at(10),
        attachments: [],
      },
    ],
    customFields: [
      { id: 8001, value: "12" },
      { id: 8002, value: "25" },
      { id: 8003, value: "2026-06-30" },
    ],
  });
  const hsBody = {
    source: "helpscout",
    options: { app_id: hs.appId, app_secret: hs.appSecret, base_url: hs.url, requests_per_minute: 10_000 },
  };

  test("mailbox fields become ticket fields with the conversation's values, once across re-runs", async () => {
    for (let run = 0; run < 2; run++) {
      if (run === 1) hs.conversations[0]!.modifiedAt = at(20);
      const started = await desk.api("POST", "/v1/imports", { headers: hsOwner.headers, body: hsBody });
      const done = await runImportToEnd(desk, hsOwner, started.body.id);
      expect(done.status).toBe("succeeded");
      expect(done.errors).toEqual([]);
    }
    const fields = (await desk.api("GET", "/v1/custom-fields", { headers: hsOwner.headers })).body.data;
    expect(fields.map((f: { key: string; type: string }) => `${f.key}:${f.type}`)).toEqual([
      "product:select",
      "licence_count:number",
      "contract_end:date",
    ]);
    const [ticket] = await importedTickets(desk, hsOwner);
    expect(ticket!.fields).toEqual({ product: "desk_server", licence_count: 25, contract_end: "2026-06-30" });
    const [message] = (await desk.api("GET", `/v1/tickets/${ticket!.id}/messages`, { headers: hsOwner.headers })).body
      .data;
    // An image on another host is never fetched by the import nor left for the agent's browser to fetch.
    expect(message.body_html).not.toContain("elsewhere.test");
    expect(message.body_html).toContain("logo");
  });
});
