import { SourceHttp } from "./imports.http";
import { vendorImage } from "./imports.images";
import { cachedFields, valuesOf, zendeskFields, type FieldCache } from "./imports.vendor-fields";
import type { ZendeskOptionsInput } from "./imports.schemas";
import {
  MAX_MESSAGES_PER_TICKET,
  type ImportSource,
  type Phase,
  type SourceAttachment,
  type SourceMessage,
  type SourcePage,
  type SourceTicket,
} from "./imports.source";

/**
 * Zendesk Support through its documented public API (https://developer.zendesk.com/api-reference/):
 * organizations by the time-based incremental export, users and tickets by the cursor-based
 * incremental exports (`after_cursor`, `end_of_stream`; the last cursor is kept so a re-run asks
 * only for what changed), each ticket's comments with cursor pagination, attachments by their
 * `content_url`. Authentication: `{email}/token:{api_token}` as HTTP Basic.
 *
 * Statuses: new → open, open → open, pending → pending, hold → on_hold, solved → solved,
 * closed → closed, deleted → not imported. Priorities: low, normal, high, urgent as they are;
 * none → normal.
 */
export const ZENDESK_STATUS: Record<string, SourceTicket["status"]> = {
  new: "open",
  open: "open",
  pending: "pending",
  hold: "on_hold",
  solved: "solved",
  closed: "closed",
  deleted: null,
};
const PRIORITY: Record<string, SourceTicket["priority"]> = {
  low: "low",
  normal: "normal",
  high: "high",
  urgent: "urgent",
};

type ZUser = {
  id: number;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  role?: string;
  organization_id?: number | null;
  user_fields?: Record<string, unknown> | null;
  created_at?: string;
  updated_at?: string;
};
type ZOrganization = {
  id: number;
  name?: string;
  domain_names?: string[];
  notes?: string | null;
  organization_fields?: Record<string, unknown> | null;
  created_at?: string;
  updated_at?: string;
};
type ZTicket = {
  id: number;
  subject?: string | null;
  raw_subject?: string | null;
  status?: string;
  priority?: string | null;
  tags?: string[];
  requester_id?: number | null;
  assignee_id?: number | null;
  created_at?: string;
  updated_at?: string;
  metric_set?: { solved_at?: string | null } | null;
  custom_fields?: Array<{ id: number; value: unknown }>;
};
type ZComment = {
  id: number;
  author_id?: number | null;
  html_body?: string | null;
  body?: string | null;
  public?: boolean;
  created_at?: string;
  attachments?: Array<{ id: number; file_name?: string; content_url?: string; inline?: boolean }>;
};

/**
 * Incremental exports are allowed 10 requests a minute: their largest page (1000) keeps a big
 * account within it. A page is one committed step, so a crash repeats at most one page (its
 * records then found unchanged). Comments come 100 a page, their documented maximum.
 */
const EXPORT_PAGE = 1000;
const PAGE_SIZE = 100;
/** Desk's own attachment limit: a larger file would be refused when stored anyway. */
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A Zendesk account as its pages are fetched: the rate-limited client and the API's address. */
type Zendesk = { http: SourceHttp; api: (path: string) => string; fields: FieldCache };

export function zendeskSource(options: ZendeskOptionsInput, allowList: readonly string[]): ImportSource {
  const root = (options.base_url ?? `https://${options.subdomain}.zendesk.com`).replace(/\/+$/, "");
  const http = new SourceHttp({
    headers: {
      authorization: `Basic ${Buffer.from(`${options.email}/token:${options.api_token}`).toString("base64")}`,
      accept: "application/json",
    },
    allowList,
    budgets: {
      default: options.requests_per_minute ?? 200,
      export: options.export_requests_per_minute ?? 10,
      files: options.requests_per_minute ?? 200,
    },
  });
  const api = (path: string) => `${root}/api/v2${path}`;
  const zendesk: Zendesk = { http, api, fields: new Map() };

  return {
    phases: ["companies", "people", "tickets"],
    async totals(signal) {
      return {
        companies: await count(zendesk, "/organizations/count.json", signal),
        people: await count(zendesk, "/users/count.json", signal),
        tickets: await count(zendesk, "/tickets/count.json", signal),
      };
    },
    page(phase: Phase, cursor, signal) {
      if (phase === "companies") return organizations(zendesk, cursor, signal);
      if (phase === "people") return users(zendesk, cursor, signal);
      return tickets(zendesk, cursor, signal);
    },
    async messages(ticket, signal) {
      const out: SourceMessage[] = [];
      let url: string | null = api(
        `/tickets/${encodeURIComponent(ticket.sourceId)}/comments.json?page[size]=${PAGE_SIZE}`,
      );
      while (url && out.length < MAX_MESSAGES_PER_TICKET) {
        const body = (await http.json(url, signal)) as {
          comments?: ZComment[];
          meta?: { has_more?: boolean; after_cursor?: string | null };
        };
        for (const c of body.comments ?? [])
          out.push({
            sourceId: String(c.id),
            public: c.public !== false,
            authorSourceId: c.author_id ? String(c.author_id) : null,
            html: c.html_body ?? `<p>${escapeHtml(text(c.body)).replace(/\n/g, "<br>")}</p>`,
            createdAt: text(c.created_at),
            attachments: (c.attachments ?? [])
              .filter((a) => typeof a.content_url === "string")
              .map(
                (a): SourceAttachment => ({
                  sourceId: String(a.id),
                  filename: text(a.file_name) || "file",
                  url: a.content_url!,
                  inline: a.inline === true,
                }),
              ),
          });
        const after = body.meta?.has_more ? body.meta.after_cursor : null;
        url = after
          ? api(
              `/tickets/${encodeURIComponent(ticket.sourceId)}/comments.json?page[size]=${PAGE_SIZE}&page[after]=${encodeURIComponent(after)}`,
            )
          : null;
      }
      return out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },
    download(attachment, signal) {
      return http.bytes(attachment.url, MAX_FILE_BYTES, signal);
    },
    inlineImage(url) {
      // Zendesk serves a comment's inline images as `/attachments/token/…` on the account's host.
      return vendorImage(root, url, "/attachments/");
    },
  };
}

async function count(zendesk: Zendesk, path: string, signal: AbortSignal): Promise<number> {
  const { http, api } = zendesk;
  const body = (await http.json(api(path), signal)) as { count?: { value?: number } | number };
  return typeof body.count === "number" ? body.count : (body.count?.value ?? 0);
}

async function organizations(zendesk: Zendesk, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { http, api } = zendesk;
  const start = cursor ?? "0";
  const body = (await http.json(
    api(`/incremental/organizations.json?start_time=${encodeURIComponent(start)}`),
    signal,
    "export",
  )) as {
    organizations?: ZOrganization[];
    end_time?: number;
    end_of_stream?: boolean;
  };
  const defs = await fieldsOf(zendesk, "organization_fields", signal);
  const companies = (body.organizations ?? []).map((o) => ({
    sourceId: String(o.id),
    updatedAt: text(o.updated_at),
    createdAt: o.created_at ?? null,
    name: text(o.name).slice(0, 200) || `Organization ${o.id}`,
    domain: o.domain_names?.[0] ?? null,
    notes: text(o.notes).slice(0, 10_000),
    fields: valuesOf(defs, o.organization_fields),
  }));
  const next = body.end_time !== undefined ? String(body.end_time) : start;
  return { companies, cursor: next, done: body.end_of_stream !== false || next === start };
}

async function users(zendesk: Zendesk, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { http, api } = zendesk;
  const url = cursor
    ? api(`/incremental/users/cursor.json?cursor=${encodeURIComponent(cursor)}`)
    : api(`/incremental/users/cursor.json?start_time=0&per_page=${EXPORT_PAGE}`);
  const body = (await http.json(url, signal, "export")) as {
    users?: ZUser[];
    after_cursor?: string | null;
    end_of_stream?: boolean;
  };
  const defs = await fieldsOf(zendesk, "user_fields", signal);
  const people = (body.users ?? []).map((u) => ({
    sourceId: String(u.id),
    updatedAt: text(u.updated_at),
    createdAt: u.created_at ?? null,
    email: u.email ? u.email.trim().toLowerCase() : null,
    name: text(u.name).slice(0, 200),
    phone: text(u.phone).slice(0, 50),
    agent: u.role === "agent" || u.role === "admin",
    companySourceId: u.organization_id ? String(u.organization_id) : null,
    fields: valuesOf(defs, u.user_fields),
  }));
  return { people, cursor: body.after_cursor ?? cursor, done: body.end_of_stream !== false };
}

async function tickets(zendesk: Zendesk, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { http, api } = zendesk;
  const url = cursor
    ? api(`/incremental/tickets/cursor.json?cursor=${encodeURIComponent(cursor)}&include=metric_sets`)
    : api(`/incremental/tickets/cursor.json?start_time=0&per_page=${EXPORT_PAGE}&include=metric_sets`);
  const body = (await http.json(url, signal, "export")) as {
    tickets?: ZTicket[];
    after_cursor?: string | null;
    end_of_stream?: boolean;
  };
  const defs = await fieldsOf(zendesk, "ticket_fields", signal);
  const list = (body.tickets ?? []).map((t) => ({
    sourceId: String(t.id),
    updatedAt: text(t.updated_at),
    subject: (text(t.subject) || text(t.raw_subject) || "(no subject)").slice(0, 500),
    status: text(t.status) in ZENDESK_STATUS ? (ZENDESK_STATUS[text(t.status)] ?? null) : "open",
    priority: PRIORITY[text(t.priority)] ?? "normal",
    tags: (t.tags ?? []).filter((tag) => typeof tag === "string" && tag.length > 0 && tag.length <= 100).slice(0, 50),
    requesterSourceId: t.requester_id ? String(t.requester_id) : null,
    assigneeSourceId: t.assignee_id ? String(t.assignee_id) : null,
    createdAt: text(t.created_at),
    solvedAt: t.metric_set?.solved_at ?? null,
    fields: valuesOf(defs, t.custom_fields),
  }));
  return { tickets: list, cursor: body.after_cursor ?? cursor, done: body.end_of_stream !== false };
}

/** The account's fields of one kind, read once per run. */
const fieldsOf = (
  zendesk: Zendesk,
  list: "ticket_fields" | "user_fields" | "organization_fields",
  signal: AbortSignal,
) => cachedFields(zendesk.fields, list, () => zendeskFields(zendesk.http, zendesk.api(`/${list}.json`), list, signal));
