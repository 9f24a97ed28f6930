/**
 * A fake Freshdesk API v2, written from Freshdesk's public API reference
 * (developers.freshdesk.com/api): HTTP Basic with the API key as the user and "X" as the password
 * (401 `invalid_credentials` otherwise); `X-RateLimit-Total`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Used-CurrentRequest` on every answer, 429 with Retry-After when throttled; listings
 * paged by `page` and `per_page` (at most 100) with a `link: <…>; rel="next"` header while more
 * remain, and no page beyond 300 (400 `invalid_value`); tickets listed by `updated_since`,
 * `order_by=updated_at`, `order_type`, `include=requester,stats`, without spam or deleted ones;
 * a ticket's own view with its HTML `description` and attachments; its conversations (`private`,
 * `incoming`, `user_id`); agents (`/agents`, `/agents/me`, each with its `contact`), contacts
 * (`_updated_since`), companies; attachments by `attachment_url`, a signed link on another host
 * that refuses a request carrying the account's credentials.
 */

export type FdAttachment = { id: number; name: string; content_type: string; bytes: Uint8Array };
export type FdConversation = {
  id: number;
  body: string;
  private: boolean;
  incoming: boolean;
  user_id: number;
  created_at: string;
  attachments: FdAttachment[];
};
export type FdTicket = {
  id: number;
  subject: string;
  description: string;
  status: number;
  priority: number;
  tags: string[];
  requester_id: number;
  responder_id: number | null;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  spam?: boolean;
  deleted?: boolean;
  attachments: FdAttachment[];
  conversations: FdConversation[];
  /** Values of the account's ticket fields by field name (`cf_…`); a dropdown's value is the choice's text. */
  custom_fields?: Record<string, unknown>;
};
/** A ticket, contact or company field (`/api/v2/{ticket,contact,company}_fields`). */
export type FdField = {
  id: number;
  name: string;
  label: string;
  type: string;
  default: boolean;
  choices?: string[];
};
export type FdContact = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  company_id: number | null;
  updated_at: string;
  deleted?: boolean;
  custom_fields?: Record<string, unknown>;
};
export type FdAgent = { id: number; name: string; email: string; updated_at: string };
export type FdCompany = {
  id: number;
  name: string;
  domains: string[];
  description: string | null;
  updated_at: string;
  custom_fields?: Record<string, unknown>;
};

export type FakeFreshdesk = {
  url: string;
  apiKey: string;
  agents: FdAgent[];
  contacts: FdContact[];
  companies: FdCompany[];
  tickets: FdTicket[];
  ticketFields: FdField[];
  contactFields: FdField[];
  companyFields: FdField[];
  /** Files the account's HTML names inline (`/helpdesk/attachments/{id}` on the account's host). */
  inlineFiles: Map<number, Uint8Array>;
  /** Requests served, by path (without the query). */
  requests: Map<string, number>;
  /** Requests for a file that came with an authorization header (the key must never go there). */
  leakedCredentials: number;
  /** At most this many records a page, whatever per_page asks (a test reaches the page limit with few records). */
  perPageCap: number;
  /** The last page Freshdesk serves of one listing. */
  maxPage: number;
  throttle(n: number, retryAfterSeconds: number): void;
  stop(): void;
};

const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

export function startFakeFreshdesk(options: { apiKey?: string } = {}): FakeFreshdesk {
  const apiKey = options.apiKey ?? "fd-key-123";
  let throttled = 0;
  let retryAfter = 1;
  const requests = new Map<string, number>();
  const fake: FakeFreshdesk = {
    url: "",
    apiKey,
    agents: [],
    contacts: [],
    companies: [],
    tickets: [],
    ticketFields: [
      { id: 1, name: "subject", label: "Subject", type: "default_subject", default: true },
      { id: 2, name: "priority", label: "Priority", type: "default_priority", default: true },
    ],
    contactFields: [],
    companyFields: [],
    inlineFiles: new Map(),
    requests,
    leakedCredentials: 0,
    perPageCap: 100,
    maxPage: 300,
    throttle(n, seconds) {
      throttled = n;
      retryAfter = seconds;
    },
    stop: () => server.stop(true),
  };
  const limits = { "x-ratelimit-total": "200", "x-ratelimit-remaining": "199", "x-ratelimit-used-currentrequest": "1" };

  const attachmentJson = (a: FdAttachment) => ({
    id: a.id,
    name: a.name,
    content_type: a.content_type,
    size: a.bytes.byteLength,
    attachment_url: `${fake.url}/s3/attachments/${a.id}/${encodeURIComponent(a.name)}?X-Amz-Signature=abc`,
    created_at: at(0),
    updated_at: at(0),
  });

  /** One page of a listing, with Freshdesk's next link and page limit. */
  function paged<T>(url: URL, records: T[], present: (r: T) => unknown): Response {
    const page = Number(url.searchParams.get("page") ?? 1);
    if (!Number.isInteger(page) || page < 1 || page > fake.maxPage)
      return Response.json(
        {
          description: "Validation failed",
          errors: [{ field: "page", message: `It should be between 1 and ${fake.maxPage}`, code: "invalid_value" }],
        },
        { status: 400, headers: limits },
      );
    const per = Math.min(Number(url.searchParams.get("per_page") ?? 30), 100, fake.perPageCap);
    const slice = records.slice((page - 1) * per, page * per);
    const headers: Record<string, string> = { ...limits };
    if (page * per < records.length && page < fake.maxPage) {
      const next = new URL(url);
      next.searchParams.set("page", String(page + 1));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    return Response.json(slice.map(present), { headers });
  }

  const contactJson = (c: FdContact) => ({
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    mobile: null,
    company_id: c.company_id,
    active: true,
    created_at: at(0),
    updated_at: c.updated_at,
    custom_fields: c.custom_fields ?? {},
  });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const file = path.match(/^\/s3\/attachments\/(\d+)\//);
      if (file) {
        if (request.headers.get("authorization")) {
          fake.leakedCredentials++;
          return new Response(
            "<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message></Error>",
            { status: 400 },
          );
        }
        for (const t of fake.tickets)
          for (const a of [...t.attachments, ...t.conversations.flatMap((c) => c.attachments)])
            if (a.id === Number(file[1]))
              return new Response(new Uint8Array(a.bytes), { headers: { "content-type": a.content_type } });
        return new Response("NoSuchKey", { status: 404 });
      }
      const inline = path.match(/^\/helpdesk\/attachments\/(\d+)$/);
      if (inline) {
        const bytes = fake.inlineFiles.get(Number(inline[1]));
        return bytes
          ? new Response(new Uint8Array(bytes), { headers: { "content-type": "image/png" } })
          : new Response("not found", { status: 404 });
      }
      if (request.headers.get("authorization") !== `Basic ${Buffer.from(`${apiKey}:X`).toString("base64")}`)
        return Response.json(
          { code: "invalid_credentials", message: "You have to be logged in to perform this action." },
          { status: 401, headers: limits },
        );
      if (throttled > 0) {
        throttled--;
        return Response.json(
          { message: "You have exceeded the limit of requests per minute" },
          { status: 429, headers: { ...limits, "x-ratelimit-remaining": "0", "retry-after": String(retryAfter) } },
        );
      }
      if (path === "/api/v2/ticket_fields") return Response.json(fake.ticketFields, { headers: limits });
      if (path === "/api/v2/contact_fields") return Response.json(fake.contactFields, { headers: limits });
      if (path === "/api/v2/company_fields") return Response.json(fake.companyFields, { headers: limits });
      if (path === "/api/v2/agents/me") {
        const a = fake.agents[0];
        return a
          ? Response.json({ id: a.id, contact: { name: a.name, email: a.email } }, { headers: limits })
          : new Response(null, { status: 404 });
      }
      if (path === "/api/v2/agents")
        return paged(url, fake.agents, (a) => ({
          id: a.id,
          available: true,
          occasional: false,
          created_at: at(0),
          updated_at: a.updated_at,
          contact: { active: true, email: a.email, name: a.name, phone: null, mobile: null },
        }));
      if (path === "/api/v2/companies")
        return paged(url, fake.companies, (c) => ({ custom_fields: {}, ...c, note: null, created_at: at(0) }));
      if (path === "/api/v2/contacts") {
        const since = url.searchParams.get("_updated_since");
        const list = fake.contacts.filter(
          (c) => !c.deleted && (!since || Date.parse(c.updated_at) >= Date.parse(since)),
        );
        return paged(url, list, contactJson);
      }
      if (path === "/api/v2/tickets") {
        const since = url.searchParams.get("updated_since");
        const include = (url.searchParams.get("include") ?? "").split(",");
        const desc = url.searchParams.get("order_type") !== "asc";
        const list = fake.tickets
          // Without updated_since Freshdesk lists only the last 30 days: a full import must pass it.
          .filter((t) => !t.spam && !t.deleted && since !== null && Date.parse(t.updated_at) >= Date.parse(since))
          .sort((a, b) => (Date.parse(a.updated_at) - Date.parse(b.updated_at) || a.id - b.id) * (desc ? -1 : 1));
        return paged(url, list, (t) => {
          const requester = fake.contacts.find((c) => c.id === t.requester_id);
          return {
            id: t.id,
            subject: t.subject,
            status: t.status,
            priority: t.priority,
            source: 1,
            tags: t.tags,
            requester_id: t.requester_id,
            responder_id: t.responder_id,
            company_id: requester?.company_id ?? null,
            created_at: t.created_at,
            updated_at: t.updated_at,
            custom_fields: t.custom_fields ?? {},
            spam: false,
            ...(include.includes("requester") && requester
              ? {
                  requester: {
                    id: requester.id,
                    name: requester.name,
                    email: requester.email,
                    mobile: null,
                    phone: requester.phone,
                  },
                }
              : {}),
            ...(include.includes("stats")
              ? { stats: { resolved_at: t.resolved_at, closed_at: null, first_responded_at: null } }
              : {}),
          };
        });
      }
      const one = path.match(/^\/api\/v2\/tickets\/(\d+)$/);
      const conversations = path.match(/^\/api\/v2\/tickets\/(\d+)\/conversations$/);
      const ticket = fake.tickets.find((t) => t.id === Number((one ?? conversations)?.[1]));
      if ((one || conversations) && (!ticket || ticket.deleted))
        return Response.json({ code: "access_denied" }, { status: 404, headers: limits });
      if (one && ticket)
        return Response.json(
          {
            id: ticket.id,
            subject: ticket.subject,
            description: ticket.description,
            description_text: ticket.description.replace(/<[^>]*>/g, ""),
            requester_id: ticket.requester_id,
            created_at: ticket.created_at,
            updated_at: ticket.updated_at,
            attachments: ticket.attachments.map(attachmentJson),
          },
          { headers: limits },
        );
      if (conversations && ticket)
        return paged(url, ticket.conversations, (c) => ({
          id: c.id,
          body: c.body,
          body_text: c.body.replace(/<[^>]*>/g, ""),
          incoming: c.incoming,
          private: c.private,
          user_id: c.user_id,
          source: c.private ? 2 : 0,
          ticket_id: ticket.id,
          created_at: c.created_at,
          updated_at: c.created_at,
          attachments: c.attachments.map(attachmentJson),
        }));
      return Response.json({ code: "not_found" }, { status: 404 });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

/** A small account with everything the importer must handle. */
export function seedFreshdeskAccount(fake: FakeFreshdesk, agentEmail: string): void {
  fake.companies.push(
    { id: 301, name: "Globex Corporation", domains: ["globex.test"], description: "Key account", updated_at: at(1) },
    { id: 302, name: "Société Générale de Café", domains: [], description: null, updated_at: at(2) },
  );
  fake.agents.push(
    { id: 1, name: "Agent Known", email: agentEmail, updated_at: at(3) },
    { id: 2, name: "Agent Elsewhere", email: "former@vendor.test", updated_at: at(4) },
  );
  fake.contacts.push(
    { id: 10, name: "Ümit Çelik", email: "Umit@Globex.test", phone: "+90 555", company_id: 301, updated_at: at(5) },
    { id: 11, name: "Zoë O'Brien", email: "zoe@example.test", phone: null, company_id: 302, updated_at: at(6) },
    // Deleted since: the contacts listing no longer shows them, their ticket still names them.
    {
      id: 12,
      name: "Gone Customer",
      email: "gone@example.test",
      phone: null,
      company_id: null,
      updated_at: at(7),
      deleted: true,
    },
  );
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
  fake.tickets.push(
    {
      id: 1001,
      subject: "Drucker druckt nicht — 打印机",
      description: '<div>My printer is <b>broken</b> 😢<script>alert(1)</script><img src="x" onerror="alert(2)"></div>',
      status: 4,
      priority: 4,
      tags: ["printer", "vip"],
      requester_id: 10,
      responder_id: 1,
      created_at: at(100),
      updated_at: at(400),
      resolved_at: at(350),
      attachments: [{ id: 7001, name: "screenshot é.png", content_type: "image/png", bytes: png }],
      conversations: [
        {
          id: 5001,
          body: "<p>Have you tried turning it off?</p>",
          private: false,
          incoming: false,
          user_id: 1,
          created_at: at(200),
          attachments: [],
        },
        {
          id: 5002,
          body: "<p>Internal: known firmware bug</p>",
          private: true,
          incoming: false,
          user_id: 2,
          created_at: at(300),
          attachments: [],
        },
        // Written by a user Freshdesk has since deleted entirely.
        {
          id: 5003,
          body: "<p>Thanks, it works</p>",
          private: false,
          incoming: true,
          user_id: 99,
          created_at: at(340),
          attachments: [],
        },
      ],
    },
    {
      id: 1002,
      subject: "Billing question",
      description: "<p>Why was I charged twice?</p>",
      status: 6,
      priority: 2,
      tags: [],
      requester_id: 11,
      responder_id: 2,
      created_at: at(500),
      updated_at: at(600),
      resolved_at: null,
      attachments: [],
      conversations: [],
    },
    {
      id: 1003,
      subject: "Buy cheap watches",
      description: "<p>spam</p>",
      status: 2,
      priority: 1,
      tags: [],
      requester_id: 11,
      responder_id: null,
      created_at: at(700),
      updated_at: at(700),
      resolved_at: null,
      spam: true,
      attachments: [],
      conversations: [],
    },
    {
      id: 1004,
      subject: "From a deleted contact",
      description: "<p>Hello?</p>",
      status: 5,
      priority: 1,
      tags: [],
      requester_id: 12,
      responder_id: null,
      created_at: at(800),
      updated_at: at(900),
      resolved_at: at(850),
      attachments: [],
      conversations: [],
    },
  );
}
