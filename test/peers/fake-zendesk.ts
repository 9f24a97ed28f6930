/**
 * A fake Zendesk Support API, written from Zendesk's public API reference
 * (developer.zendesk.com/api-reference): HTTP Basic `{email}/token:{api_token}`; the counts
 * (`/api/v2/{tickets,users,organizations}/count.json` → `{ count: { value, refreshed_at } }`);
 * the time-based incremental organization export (`start_time`, `end_time`, `end_of_stream`);
 * the cursor-based incremental user and ticket exports (`start_time` or `cursor`, `per_page`,
 * `after_cursor`, `end_of_stream`, records ordered by updated_at, `include=metric_sets`);
 * ticket comments with cursor pagination (`page[size]`, `page[after]`, `meta.has_more`,
 * `meta.after_cursor`), each with `public`, `html_body`, `author_id` and attachments whose
 * `content_url` redirects to the file; 429 with Retry-After when throttled.
 */

export type ZdUser = {
  id: number;
  name: string;
  email: string | null;
  role: "end-user" | "agent" | "admin";
  organization_id: number | null;
  phone: string | null;
  /** Values of the account's user fields, by field key. */
  user_fields?: Record<string, unknown>;
  /** Zendesk's user `created_at` (left out: the record has none in the export). */
  created_at?: string;
  updated_at: string;
};
export type ZdOrganization = {
  id: number;
  name: string;
  domain_names: string[];
  notes: string;
  /** Values of the account's organization fields, by field key. */
  organization_fields?: Record<string, unknown>;
  created_at?: string;
  updated_at: string;
};
export type ZdAttachment = { id: number; file_name: string; content_type: string; bytes: Uint8Array; inline: boolean };
export type ZdComment = {
  id: number;
  author_id: number;
  html_body: string;
  body: string;
  public: boolean;
  created_at: string;
  attachments: ZdAttachment[];
};
export type ZdTicket = {
  id: number;
  subject: string;
  status: string;
  priority: string | null;
  tags: string[];
  requester_id: number | null;
  assignee_id: number | null;
  created_at: string;
  updated_at: string;
  solved_at: string | null;
  comments: ZdComment[];
  /** Values of the account's ticket fields, by field id (tagger: the option's value). */
  custom_fields?: Array<{ id: number; value: unknown }>;
};

/** A ticket, user or organization field (`/api/v2/{ticket,user,organization}_fields.json`). */
export type ZdField = {
  id: number;
  key?: string;
  type: string;
  title: string;
  removable: boolean;
  active: boolean;
  custom_field_options?: Array<{ id: number; name: string; value: string }>;
};

export type FakeZendesk = {
  url: string;
  email: string;
  token: string;
  users: ZdUser[];
  organizations: ZdOrganization[];
  tickets: ZdTicket[];
  ticketFields: ZdField[];
  userFields: ZdField[];
  organizationFields: ZdField[];
  /** Requests served, by path (without the query). */
  requests: Map<string, number>;
  /** Answer the next `n` API requests with 429 and this Retry-After (seconds). */
  throttle(n: number, retryAfterSeconds: number): void;
  /** Every request waits this long before it is answered (a slow vendor, for crash tests). */
  delayMs: number;
  /** Comments are generated on demand for tickets with `commentCount` (the bench: no memory per comment). */
  generated?: { commentsPerTicket: number; tickets: number };
  stop(): void;
};

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
const seconds = (value: string) => Math.floor(Date.parse(value) / 1000);
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const decode = <T>(value: string): T => JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as T;

type Position = { t: number; id: number };
const after = (record: { updated_at: string; id: number }, position: Position) => {
  const t = seconds(record.updated_at);
  return t > position.t || (t === position.t && record.id > position.id);
};

export function startFakeZendesk(
  options: { email?: string; token?: string; generated?: { tickets: number; commentsPerTicket: number } } = {},
): FakeZendesk {
  const email = options.email ?? "admin@acme.test";
  const token = options.token ?? "zd-token-123";
  let throttled = 0;
  let retryAfter = 1;
  const requests = new Map<string, number>();
  const fake: FakeZendesk = {
    url: "",
    email,
    token,
    users: [],
    organizations: [],
    tickets: [],
    ticketFields: [
      { id: 1, type: "subject", title: "Subject", removable: false, active: true },
      { id: 2, type: "status", title: "Status", removable: false, active: true },
    ],
    userFields: [],
    organizationFields: [],
    requests,
    delayMs: 0,
    generated: options.generated,
    throttle(n, retryAfterSeconds) {
      throttled = n;
      retryAfter = retryAfterSeconds;
    },
    stop: () => server.stop(true),
  };

  const ticketOf = (id: number): ZdTicket | undefined => {
    const gen = fake.generated;
    if (gen && id >= 1 && id <= gen.tickets) return generatedTicket(id, gen.commentsPerTicket);
    return fake.tickets.find((t) => t.id === id);
  };
  const allTickets = function* (): Generator<ZdTicket> {
    const gen = fake.generated;
    if (gen) for (let id = 1; id <= gen.tickets; id++) yield generatedTicket(id, gen.commentsPerTicket);
    yield* fake.tickets;
  };

  function cursorExport<T extends { id: number; updated_at: string }>(
    url: URL,
    records: () => Iterable<T>,
    key: string,
    present: (r: T, include: string) => unknown,
  ) {
    const perPage = Math.min(Number(url.searchParams.get("per_page") ?? 1000), 1000);
    const cursor = url.searchParams.get("cursor");
    const position: Position & { per?: number } = cursor
      ? decode<Position & { per?: number }>(cursor)
      : { t: Number(url.searchParams.get("start_time") ?? 0) - 1, id: Number.MAX_SAFE_INTEGER };
    const per = cursor ? (position.per ?? perPage) : perPage;
    // Sorted by (updated_at, id), as Zendesk orders an export. Generated tickets (the bench) are already
    // in that order: their page is cut from the position without building the rest.
    const gen = key === "tickets" ? fake.generated : undefined;
    const sorted = gen
      ? generatedAfter(position, per + 1, gen).map((t) => t as unknown as T)
      : [...records()]
          .filter((r) => after(r, position))
          .sort((a, b) => seconds(a.updated_at) - seconds(b.updated_at) || a.id - b.id);
    const page = sorted.slice(0, per);
    const last = page.at(-1);
    const next: Position & { per: number } = last
      ? { t: seconds(last.updated_at), id: last.id, per }
      : { ...position, per };
    const include = url.searchParams.get("include") ?? "";
    return Response.json({
      [key]: page.map((r) => present(r, include)),
      after_cursor: encode(next),
      after_url: `${fake.url}${url.pathname}?cursor=${encode(next)}`,
      before_cursor: null,
      end_of_stream: sorted.length <= per,
    });
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
      if (fake.delayMs) await Bun.sleep(fake.delayMs);
      const file = url.pathname.match(/^\/files\/(\d+)$/);
      if (file) {
        for (const ticket of allTickets())
          for (const comment of ticket.comments)
            for (const a of comment.attachments)
              if (a.id === Number(file[1]))
                return new Response(new Blob([a.bytes as Uint8Array<ArrayBuffer>]), {
                  headers: { "content-type": a.content_type },
                });
        return new Response("not found", { status: 404 });
      }
      const redirect = url.pathname.match(/^\/attachments\/token\/(\d+)\//);
      // content_url answers with a redirect to the file host, as Zendesk's does.
      if (redirect)
        return new Response(null, { status: 302, headers: { location: `${fake.url}/files/${redirect[1]}` } });
      if (request.headers.get("authorization") !== `Basic ${Buffer.from(`${email}/token:${token}`).toString("base64")}`)
        return Response.json({ error: "Couldn't authenticate you" }, { status: 401 });
      if (throttled > 0) {
        throttled--;
        return Response.json(
          { error: "APIRateLimitExceeded" },
          { status: 429, headers: { "retry-after": String(retryAfter) } },
        );
      }
      const path = url.pathname;
      const count = (value: number) => Response.json({ count: { value, refreshed_at: iso(1_700_000_000) } });
      if (path === "/api/v2/tickets/count.json")
        return count([...allTickets()].filter((t) => t.status !== "deleted").length);
      if (path === "/api/v2/users/count.json") return count(fake.users.length);
      if (path === "/api/v2/ticket_fields.json")
        return Response.json({ ticket_fields: fake.ticketFields, next_page: null, count: fake.ticketFields.length });
      if (path === "/api/v2/user_fields.json")
        return Response.json({ user_fields: fake.userFields, next_page: null, count: fake.userFields.length });
      if (path === "/api/v2/organization_fields.json")
        return Response.json({
          organization_fields: fake.organizationFields,
          next_page: null,
          count: fake.organizationFields.length,
        });
      if (path === "/api/v2/organizations/count.json") return count(fake.organizations.length);
      if (path === "/api/v2/incremental/organizations.json") {
        const start = Number(url.searchParams.get("start_time") ?? 0);
        const list = fake.organizations
          .filter((o) => seconds(o.updated_at) >= start)
          .sort((a, b) => seconds(a.updated_at) - seconds(b.updated_at));
        const page = list.slice(0, 1000);
        const end = page.length ? seconds(page.at(-1)!.updated_at) + 1 : start;
        return Response.json({
          organizations: page,
          count: page.length,
          end_time: end,
          next_page: `${fake.url}${path}?start_time=${end}`,
          end_of_stream: list.length <= 1000,
        });
      }
      if (path === "/api/v2/incremental/users/cursor.json")
        return cursorExport(
          url,
          () => fake.users,
          "users",
          (u) => ({ ...u, active: true, url: `${fake.url}/api/v2/users/${u.id}.json` }),
        );
      if (path === "/api/v2/incremental/tickets/cursor.json")
        return cursorExport(url, allTickets, "tickets", (t, include) => {
          const { comments: _comments, solved_at, ...rest } = t;
          return {
            ...rest,
            raw_subject: t.subject,
            description: t.comments[0]?.body ?? "",
            via: { channel: "email" },
            ...(include.includes("metric_sets") ? { metric_set: { solved_at } } : {}),
          };
        });
      const comments = path.match(/^\/api\/v2\/tickets\/(\d+)\/comments\.json$/);
      if (comments) {
        const ticket = ticketOf(Number(comments[1]));
        if (!ticket) return Response.json({ error: "RecordNotFound" }, { status: 404 });
        const size = Math.min(Number(url.searchParams.get("page[size]") ?? 100), 100);
        const from = Number(url.searchParams.get("page[after]") ?? 0);
        const page = ticket.comments.slice(from, from + size);
        const more = from + size < ticket.comments.length;
        return Response.json({
          comments: page.map((c) => ({
            id: c.id,
            type: "Comment",
            author_id: c.author_id,
            body: c.body,
            html_body: c.html_body,
            plain_body: c.body,
            public: c.public,
            created_at: c.created_at,
            attachments: c.attachments.map((a) => ({
              id: a.id,
              file_name: a.file_name,
              content_type: a.content_type,
              size: a.bytes.byteLength,
              inline: a.inline,
              content_url: `${fake.url}/attachments/token/${a.id}/?name=${encodeURIComponent(a.file_name)}`,
            })),
          })),
          meta: { has_more: more, after_cursor: more ? String(from + size) : null, before_cursor: null },
          links: { next: more ? `${fake.url}${path}?page[size]=${size}&page[after]=${from + size}` : null, prev: null },
        });
      }
      return Response.json({ error: "InvalidEndpoint" }, { status: 404 });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

const GENERATED_BASE = 1_600_000_000;

/** Up to `n` generated tickets after `position` (their updated_at grows with their id). */
function generatedAfter(
  position: Position,
  n: number,
  gen: { tickets: number; commentsPerTicket: number },
): ZdTicket[] {
  let id = Math.max(1, Math.floor((position.t - GENERATED_BASE - 3600) / 60) - 1);
  const out: ZdTicket[] = [];
  for (; id <= gen.tickets && out.length < n; id++) {
    const ticket = generatedTicket(id, gen.commentsPerTicket);
    if (after(ticket, position)) out.push(ticket);
  }
  return out;
}

/** A bench ticket, built from its id alone: requester and agents among the first users. */
function generatedTicket(id: number, commentsPerTicket: number): ZdTicket {
  const created = GENERATED_BASE + id * 60;
  return {
    id,
    subject: `Generated ticket ${id}`,
    status: id % 5 === 0 ? "solved" : "open",
    priority: id % 3 === 0 ? "high" : null,
    tags: id % 2 ? ["bench"] : [],
    requester_id: 1000 + (id % 50),
    assignee_id: 1,
    created_at: iso(created),
    updated_at: iso(created + 3600),
    solved_at: id % 5 === 0 ? iso(created + 3600) : null,
    comments: Array.from({ length: commentsPerTicket }, (_, i) => ({
      id: id * 100 + i,
      author_id: i % 2 ? 1 : 1000 + (id % 50),
      html_body: `<p>Message ${i} of ticket ${id}: the printer on floor ${i} is out of toner again.</p>`,
      body: `Message ${i} of ticket ${id}`,
      public: i !== 3,
      created_at: iso(created + i * 60),
      attachments: [],
    })),
  };
}

/** A small account with everything the importer must handle, for the tests. */
export function seedSmallAccount(fake: FakeZendesk, agentEmail: string): void {
  const at = (s: number) => iso(1_700_000_000 + s);
  fake.organizations.push(
    { id: 501, name: "Globex Corporation", domain_names: ["globex.test"], notes: "Key account", updated_at: at(1) },
    { id: 502, name: "Société Générale de Café", domain_names: [], notes: "", updated_at: at(2) },
  );
  fake.users.push(
    {
      id: 1,
      name: "Agent Known",
      email: agentEmail,
      role: "agent",
      organization_id: null,
      phone: null,
      updated_at: at(3),
    },
    {
      id: 2,
      name: "Agent Gone Elsewhere",
      email: "former@vendor.test",
      role: "admin",
      organization_id: null,
      phone: null,
      updated_at: at(4),
    },
    {
      id: 10,
      name: "Ümit Çelik",
      email: "umit@globex.test",
      role: "end-user",
      organization_id: 501,
      phone: "+90 555",
      updated_at: at(5),
    },
    {
      id: 11,
      name: "Zoë O'Brien",
      email: "zoe@example.test",
      role: "end-user",
      organization_id: 502,
      phone: null,
      updated_at: at(6),
    },
  );
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
  fake.tickets.push(
    {
      id: 101,
      subject: "Drucker druckt nicht — 打印机",
      status: "solved",
      priority: "urgent",
      tags: ["printer", "vip"],
      requester_id: 10,
      assignee_id: 1,
      created_at: at(100),
      updated_at: at(400),
      solved_at: at(350),
      comments: [
        {
          id: 9001,
          author_id: 10,
          body: "My printer is broken",
          html_body: '<p>My printer is <b>broken</b> 😢<script>alert(1)</script><img src="x" onerror="alert(2)"></p>',
          public: true,
          created_at: at(100),
          attachments: [
            { id: 7001, file_name: "screenshot é.png", content_type: "image/png", bytes: png, inline: false },
          ],
        },
        {
          id: 9002,
          author_id: 1,
          body: "Checking",
          html_body: "<p>Have you tried turning it off?</p>",
          public: true,
          created_at: at(200),
          attachments: [],
        },
        {
          id: 9003,
          author_id: 2,
          body: "internal",
          html_body: "<p>Internal: known firmware bug</p>",
          public: false,
          created_at: at(300),
          attachments: [],
        },
        // Written by a user Zendesk has since deleted: not in the users export.
        {
          id: 9004,
          author_id: 99,
          body: "thanks",
          html_body: "<p>Thanks, it works</p>",
          public: true,
          created_at: at(340),
          attachments: [],
        },
      ],
    },
    {
      id: 102,
      subject: "Billing question",
      status: "hold",
      priority: null,
      tags: [],
      requester_id: 11,
      assignee_id: 2,
      created_at: at(500),
      updated_at: at(600),
      solved_at: null,
      comments: [
        {
          id: 9101,
          author_id: 11,
          body: "Why was I charged twice?",
          html_body: "<p>Why was I charged twice?</p>",
          public: true,
          created_at: at(500),
          attachments: [],
        },
      ],
    },
    {
      id: 103,
      subject: "Deleted spam",
      status: "deleted",
      priority: null,
      tags: [],
      requester_id: 11,
      assignee_id: null,
      created_at: at(700),
      updated_at: at(700),
      solved_at: null,
      comments: [],
    },
  );
}
