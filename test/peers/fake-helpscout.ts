/**
 * A fake Help Scout Mailbox API 2.0, written from Help Scout's public reference
 * (developer.helpscout.com/mailbox-api): OAuth2 client credentials (`POST /v2/oauth2/token`,
 * form-encoded or JSON, → `{ token_type, access_token, expires_in }`, 401 `invalid_client`),
 * every other call with `Authorization: Bearer` (401 when the token is unknown or expired);
 * HAL listings (`_embedded.{users,customers,conversations,threads}`, `page: { size,
 * totalElements, totalPages, number }`); conversations by `status`, `embed=threads`,
 * `sortField=modifiedAt`, `sortOrder`, `modifiedSince`, threads newest first with their
 * `createdBy` and embedded attachments; customers by `modifiedSince`; attachment data as base64;
 * `X-RateLimit-Limit-Minute` / `X-RateLimit-Remaining-Minute`, and 429 with Retry-After when throttled.
 */

export type HsAttachment = { id: number; filename: string; mimeType: string; bytes: Uint8Array };
export type HsThread = {
  id: number;
  type: "customer" | "reply" | "note" | "message" | "lineitem" | "chat" | "phone" | "forwardparent" | "forwardchild";
  body: string;
  createdBy: { id: number; type: "user" | "customer" };
  createdAt: string;
  attachments: HsAttachment[];
};
export type HsConversation = {
  id: number;
  number: number;
  subject: string;
  status: "active" | "pending" | "closed" | "spam";
  tags: string[];
  assigneeId: number | null;
  customerId: number;
  createdAt: string;
  closedAt: string | null;
  /** When anything on it changed (Help Scout's modifiedAt, used by sortField and modifiedSince). */
  modifiedAt: string;
  threads: HsThread[];
  /** Values of the mailbox's fields by field id (a dropdown: the option's id). */
  customFields?: Array<{ id: number; value: string }>;
};
/** A mailbox custom field (`/v2/mailboxes/{id}/fields`). */
export type HsField = {
  id: number;
  name: string;
  type: "SINGLE_LINE" | "MULTI_LINE" | "DROPDOWN" | "DATE" | "NUMBER";
  options: Array<{ id: number; label: string; order: number }>;
};
export type HsUser = { id: number; firstName: string; lastName: string; email: string; updatedAt: string };
export type HsCustomer = {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  updatedAt: string;
  deleted?: boolean;
};

export type FakeHelpScout = {
  url: string;
  appId: string;
  appSecret: string;
  users: HsUser[];
  customers: HsCustomer[];
  conversations: HsConversation[];
  /** The fields of mailbox 1, the one every conversation is in. */
  mailboxFields: HsField[];
  /** Records a page (Help Scout's own size is 25 for conversations, 50 for the rest). */
  pageSize: number;
  requests: Map<string, number>;
  /** Tokens issued. */
  tokensIssued: number;
  /** Every token issued so far stops working (as when it expires early or is revoked). */
  revokeTokens(): void;
  /** Revokes every token after this many more API requests (0: never). */
  revokeAfter: number;
  throttle(n: number, retryAfterSeconds: number): void;
  stop(): void;
};

const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

export function startFakeHelpScout(options: { appId?: string; appSecret?: string } = {}): FakeHelpScout {
  const appId = options.appId ?? "hs-app-id";
  const appSecret = options.appSecret ?? "hs-app-secret";
  const tokens = new Set<string>();
  let throttled = 0;
  let retryAfter = 1;
  const requests = new Map<string, number>();
  const fake: FakeHelpScout = {
    url: "",
    appId,
    appSecret,
    users: [],
    customers: [],
    conversations: [],
    mailboxFields: [],
    pageSize: 25,
    requests,
    tokensIssued: 0,
    revokeTokens: () => tokens.clear(),
    revokeAfter: 0,
    throttle(n, seconds) {
      throttled = n;
      retryAfter = seconds;
    },
    stop: () => server.stop(true),
  };
  const limits = { "x-ratelimit-limit-minute": "400", "x-ratelimit-remaining-minute": "399" };
  const person = (id: number, type: "user" | "customer") => {
    if (type === "user") {
      const u = fake.users.find((x) => x.id === id);
      return { id, type, first: u?.firstName ?? "", last: u?.lastName ?? "", email: u?.email ?? "" };
    }
    const c = fake.customers.find((x) => x.id === id);
    return { id, type, first: c?.firstName ?? "", last: c?.lastName ?? "", email: c?.email ?? "" };
  };

  function hal<T>(url: URL, key: string, records: T[], present: (r: T) => unknown): Response {
    const size = fake.pageSize;
    const number = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
    const totalPages = Math.ceil(records.length / size);
    return Response.json(
      {
        _embedded: { [key]: records.slice((number - 1) * size, number * size).map(present) },
        page: { size, totalElements: records.length, totalPages, number },
        _links: { self: { href: url.toString() } },
      },
      { headers: limits },
    );
  }

  const threadJson = (conversationId: number) => (t: HsThread) => ({
    id: t.id,
    type: t.type,
    status: "nochange",
    state: "published",
    body: t.body,
    createdBy: person(t.createdBy.id, t.createdBy.type),
    createdAt: t.createdAt,
    ...(t.type === "lineitem" ? { action: { type: "changed-ticket-status", text: "marked as Closed" } } : {}),
    _embedded: {
      attachments: t.attachments.map((a) => ({
        id: a.id,
        filename: a.filename,
        mimeType: a.mimeType,
        size: a.bytes.byteLength,
        _links: {
          data: { href: `${fake.url}/v2/conversations/${conversationId}/attachments/${a.id}/data` },
        },
      })),
    },
  });
  const newestFirst = (threads: HsThread[]) =>
    [...threads].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      if (path === "/v2/oauth2/token" && request.method === "POST") {
        const type = request.headers.get("content-type") ?? "";
        const form: Record<string, string> = type.includes("json")
          ? ((await request.json()) as Record<string, string>)
          : Object.fromEntries(new URLSearchParams(await request.text()));
        if (form.grant_type !== "client_credentials" || form.client_id !== appId || form.client_secret !== appSecret)
          return Response.json(
            { error: "invalid_client", error_description: "Bad client credentials" },
            { status: 401 },
          );
        const token = crypto.randomUUID();
        tokens.add(token);
        fake.tokensIssued++;
        return Response.json({ token_type: "bearer", access_token: token, expires_in: 172800 });
      }
      const auth = request.headers.get("authorization") ?? "";
      if (!auth.startsWith("Bearer ") || !tokens.has(auth.slice(7)))
        return Response.json(
          { error: "Unauthorized", message: "The access token is invalid or has expired" },
          { status: 401 },
        );
      if (fake.revokeAfter > 0 && --fake.revokeAfter === 0) tokens.clear();
      if (throttled > 0) {
        throttled--;
        return Response.json(
          { message: "Rate limit exceeded" },
          {
            status: 429,
            headers: { ...limits, "x-ratelimit-remaining-minute": "0", "retry-after": String(retryAfter) },
          },
        );
      }
      if (path === "/v2/mailboxes/1/fields")
        return hal(url, "fields", fake.mailboxFields, (f) => ({ ...f, required: false, order: f.id }));
      if (path === "/v2/users")
        return hal(url, "users", fake.users, (u) => ({ ...u, role: "user", type: "user", createdAt: at(0) }));
      if (path === "/v2/customers") {
        const since = url.searchParams.get("modifiedSince");
        const list = fake.customers.filter(
          (c) => !c.deleted && (!since || Date.parse(c.updatedAt) >= Date.parse(since)),
        );
        return hal(url, "customers", list, (c) => ({
          id: c.id,
          firstName: c.firstName,
          lastName: c.lastName,
          createdAt: at(0),
          updatedAt: c.updatedAt,
          _embedded: {
            emails: c.email ? [{ id: c.id * 10, value: c.email, type: "work" }] : [],
            phones: c.phone ? [{ id: c.id * 10, value: c.phone, type: "work" }] : [],
          },
        }));
      }
      if (path === "/v2/conversations") {
        const status = url.searchParams.get("status") ?? "active";
        const since = url.searchParams.get("modifiedSince");
        const embed = url.searchParams.get("embed") === "threads";
        const asc = url.searchParams.get("sortOrder") === "asc";
        const list = fake.conversations
          .filter(
            (c) =>
              (status === "all" ? true : c.status === status) &&
              (!since || Date.parse(c.modifiedAt) >= Date.parse(since)),
          )
          .sort((a, b) => (Date.parse(a.modifiedAt) - Date.parse(b.modifiedAt) || a.id - b.id) * (asc ? 1 : -1));
        return hal(url, "conversations", list, (c) => ({
          id: c.id,
          number: c.number,
          type: "email",
          status: c.status,
          state: "published",
          subject: c.subject,
          mailboxId: 1,
          assignee: c.assigneeId ? person(c.assigneeId, "user") : undefined,
          primaryCustomer: person(c.customerId, "customer"),
          createdAt: c.createdAt,
          closedAt: c.closedAt,
          userUpdatedAt: c.modifiedAt,
          tags: c.tags.map((tag, i) => ({ id: i + 1, color: "#929499", tag })),
          customFields: (c.customFields ?? []).map((v) => {
            const field = fake.mailboxFields.find((f) => f.id === v.id);
            const option = field?.options.find((o) => String(o.id) === v.value);
            return { id: v.id, name: field?.name ?? "", value: v.value, text: option?.label ?? v.value };
          }),
          ...(embed ? { _embedded: { threads: newestFirst(c.threads).map(threadJson(c.id)) } } : {}),
        }));
      }
      const threads = path.match(/^\/v2\/conversations\/(\d+)\/threads$/);
      if (threads) {
        const c = fake.conversations.find((x) => x.id === Number(threads[1]));
        if (!c) return new Response(null, { status: 404 });
        return hal(url, "threads", newestFirst(c.threads), threadJson(c.id));
      }
      const data = path.match(/^\/v2\/conversations\/(\d+)\/attachments\/(\d+)\/data$/);
      if (data) {
        const c = fake.conversations.find((x) => x.id === Number(data[1]));
        const a = c?.threads.flatMap((t) => t.attachments).find((x) => x.id === Number(data[2]));
        if (!a) return new Response(null, { status: 404 });
        return Response.json({ data: Buffer.from(a.bytes).toString("base64") }, { headers: limits });
      }
      return new Response(null, { status: 404 });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

/** A small account with everything the importer must handle. */
export function seedHelpScoutAccount(fake: FakeHelpScout, agentEmail: string): void {
  fake.users.push(
    { id: 1, firstName: "Agent", lastName: "Known", email: agentEmail, updatedAt: at(3) },
    { id: 2, firstName: "Agent", lastName: "Elsewhere", email: "former@vendor.test", updatedAt: at(4) },
  );
  fake.customers.push(
    { id: 10, firstName: "Ümit", lastName: "Çelik", email: "Umit@Globex.test", phone: "+90 555", updatedAt: at(5) },
    { id: 11, firstName: "Zoë", lastName: "O'Brien", email: "zoe@example.test", phone: null, updatedAt: at(6) },
    // Deleted since: no longer listed, their conversation still names them.
    {
      id: 12,
      firstName: "Gone",
      lastName: "Customer",
      email: "gone@example.test",
      phone: null,
      updatedAt: at(7),
      deleted: true,
    },
    {
      id: 13,
      firstName: "Spam",
      lastName: "Bot",
      email: "bot@spam.test",
      phone: null,
      updatedAt: at(8),
      deleted: true,
    },
  );
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
  fake.conversations.push(
    {
      id: 2001,
      number: 1,
      subject: "Drucker druckt nicht — 打印机",
      status: "closed",
      tags: ["printer", "vip"],
      assigneeId: 1,
      customerId: 10,
      createdAt: at(100),
      closedAt: at(350),
      modifiedAt: at(400),
      threads: [
        {
          id: 9001,
          type: "customer",
          body: '<div>My printer is <b>broken</b> 😢<script>alert(1)</script><img src="x" onerror="alert(2)"></div>',
          createdBy: { id: 10, type: "customer" },
          createdAt: at(100),
          attachments: [{ id: 7001, filename: "screenshot é.png", mimeType: "image/png", bytes: png }],
        },
        {
          id: 9002,
          type: "reply",
          body: "<p>Have you tried turning it off?</p>",
          createdBy: { id: 1, type: "user" },
          createdAt: at(200),
          attachments: [],
        },
        {
          id: 9003,
          type: "note",
          body: "<p>Internal: known firmware bug</p>",
          createdBy: { id: 2, type: "user" },
          createdAt: at(300),
          attachments: [],
        },
        {
          id: 9004,
          type: "lineitem",
          body: "",
          createdBy: { id: 1, type: "user" },
          createdAt: at(310),
          attachments: [],
        },
        // Written by a customer Help Scout has since deleted entirely.
        {
          id: 9005,
          type: "customer",
          body: "<p>Thanks, it works</p>",
          createdBy: { id: 99, type: "customer" },
          createdAt: at(340),
          attachments: [],
        },
      ],
    },
    {
      id: 2002,
      number: 2,
      subject: "Billing question",
      status: "pending",
      tags: [],
      assigneeId: 2,
      customerId: 11,
      createdAt: at(500),
      closedAt: null,
      modifiedAt: at(600),
      threads: [
        {
          id: 9101,
          type: "customer",
          body: "<p>Why was I charged twice?</p>",
          createdBy: { id: 11, type: "customer" },
          createdAt: at(500),
          attachments: [],
        },
      ],
    },
    {
      id: 2003,
      number: 3,
      subject: "Buy cheap watches",
      status: "spam",
      tags: [],
      assigneeId: null,
      customerId: 13,
      createdAt: at(700),
      closedAt: null,
      modifiedAt: at(700),
      threads: [
        {
          id: 9201,
          type: "customer",
          body: "<p>spam</p>",
          createdBy: { id: 13, type: "customer" },
          createdAt: at(700),
          attachments: [],
        },
      ],
    },
    {
      id: 2004,
      number: 4,
      subject: "From a deleted customer",
      status: "active",
      tags: ["légacy"],
      assigneeId: null,
      customerId: 12,
      createdAt: at(800),
      closedAt: null,
      modifiedAt: at(900),
      threads: [
        {
          id: 9301,
          type: "customer",
          body: "<p>Hello?</p>",
          createdBy: { id: 12, type: "customer" },
          createdAt: at(800),
          attachments: [],
        },
      ],
    },
  );
}
