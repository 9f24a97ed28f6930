import { abortableSleep, HttpStatusError, MAX_JSON_BYTES, readCapped, SourceHttp } from "./imports.http";
import { vendorImage } from "./imports.images";
import type { FreshdeskOptionsInput } from "./imports.schemas";
import {
  MAX_MESSAGES_PER_TICKET,
  SourceError,
  type ImportSource,
  type Phase,
  type SourceAttachment,
  type SourceMessage,
  type SourcePage,
  type SourcePerson,
  type SourceTicket,
} from "./imports.source";
import { cachedFields, freshdeskFieldDefs, valuesOf, type FdField, type FieldCache } from "./imports.vendor-fields";

/**
 * Freshdesk through its documented public API v2 (https://developers.freshdesk.com/api/):
 * HTTP Basic with the API key as the user and "X" as the password; companies, agents and contacts
 * (`_updated_since` on re-runs) page by page; tickets by `updated_since` in `updated_at` order
 * (`include=requester,stats`), following the `link: <…>; rel="next"` header. Freshdesk serves at
 * most 300 pages of one listing, so after the 300th page the listing starts again from the last
 * ticket's `updated_at`. Each ticket's description is its first message, then its conversations
 * (private → internal note, the rest public replies), attachments by their `attachment_url`.
 *
 * Statuses: 2 Open → open, 3 Pending → pending, 4 Resolved → solved, 5 Closed → closed, any other
 * (custom) status → on_hold; spam and deleted tickets are not imported. Priorities: 1 Low → low,
 * 2 Medium → normal, 3 High → high, 4 Urgent → urgent.
 */
export const FRESHDESK_STATUS: Record<number, SourceTicket["status"]> = {
  2: "open",
  3: "pending",
  4: "solved",
  5: "closed",
};
export const FRESHDESK_PRIORITY: Record<number, SourceTicket["priority"]> = {
  1: "low",
  2: "normal",
  3: "high",
  4: "urgent",
};

type FdContact = {
  id: number;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  company_id?: number | null;
  custom_fields?: Record<string, unknown> | null;
  created_at?: string;
  updated_at?: string;
};
type FdAgent = {
  id: number;
  updated_at?: string;
  contact?: { name?: string | null; email?: string | null; phone?: string | null };
};
type FdCompany = {
  id: number;
  name?: string;
  domains?: string[];
  description?: string | null;
  note?: string | null;
  custom_fields?: Record<string, unknown> | null;
  created_at?: string;
  updated_at?: string;
};
type FdAttachment = { id: number; name?: string; attachment_url?: string };
type FdTicket = {
  id: number;
  subject?: string | null;
  status?: number;
  priority?: number;
  tags?: string[];
  requester_id?: number | null;
  responder_id?: number | null;
  created_at?: string;
  updated_at?: string;
  spam?: boolean;
  deleted?: boolean;
  stats?: { resolved_at?: string | null; closed_at?: string | null } | null;
  requester?: FdContact | null;
  description?: string | null;
  description_text?: string | null;
  attachments?: FdAttachment[];
  custom_fields?: Record<string, unknown> | null;
};
type FdConversation = {
  id: number;
  body?: string | null;
  body_text?: string | null;
  private?: boolean;
  incoming?: boolean;
  user_id?: number | null;
  created_at?: string;
  attachments?: FdAttachment[];
};

const PER_PAGE = 100;
/** Freshdesk answers no page of a listing beyond this one. */
export const FRESHDESK_MAX_PAGE = 300;
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Freshdesk's rate window is a minute: with none of it left, the next call waits for it to pass. */
const EXHAUSTED_WAIT_MS = 60_000;
const EPOCH = "1970-01-01T00:00:00Z";

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Where a listing stands: the page within the listing that starts at `since`, and the newest `updated_at` read. */
type Position = { since: string; page: number; max: string; stage?: "agents" | "contacts" };
const positionOf = (cursor: string | null, stage?: "agents" | "contacts"): Position => {
  if (cursor) {
    try {
      const parsed = JSON.parse(cursor) as Position;
      if (typeof parsed.since === "string" && Number.isInteger(parsed.page)) return parsed;
    } catch {
      // A cursor from another version starts the listing over: the mappings make that a no-op.
    }
  }
  return { since: EPOCH, page: 1, max: EPOCH, stage };
};
const later = (a: string, b: string | undefined) => (b && Date.parse(b) > Date.parse(a) ? b : a);

/** A Freshdesk account as its pages are fetched: the rate-limited client, the API's address, the page limit. */
type Freshdesk = {
  http: SourceHttp;
  api: (path: string) => string;
  sleep: typeof abortableSleep;
  maxPage: number;
  pacing: { exhausted: boolean };
  fields: FieldCache;
};

const person = (c: FdContact, agent: boolean): SourcePerson => ({
  sourceId: String(c.id),
  updatedAt: text(c.updated_at),
  createdAt: c.created_at ?? null,
  email: c.email ? c.email.trim().toLowerCase() : null,
  name: text(c.name).slice(0, 200),
  phone: (text(c.phone) || text(c.mobile)).slice(0, 50),
  agent,
  companySourceId: c.company_id ? String(c.company_id) : null,
});

const attachmentsOf = (list: FdAttachment[] | undefined): SourceAttachment[] =>
  (list ?? [])
    .filter((a) => typeof a.attachment_url === "string")
    .map((a) => ({
      sourceId: String(a.id),
      filename: text(a.name) || "file",
      url: a.attachment_url!,
      inline: false,
    }));

export function freshdeskSource(
  options: FreshdeskOptionsInput,
  allowList: readonly string[],
  /** Freshdesk's own page limit; a test lowers it to reach it with a small account. */
  maxPage = FRESHDESK_MAX_PAGE,
): ImportSource {
  const host = options.domain.includes(".") ? options.domain : `${options.domain}.freshdesk.com`;
  const root = (options.base_url ?? `https://${host}`).replace(/\/+$/, "");
  const sleep = abortableSleep;
  const http = new SourceHttp({
    headers: {
      authorization: `Basic ${Buffer.from(`${options.api_key}:X`).toString("base64")}`,
      accept: "application/json",
    },
    allowList,
    budgets: { default: options.requests_per_minute ?? 200, files: options.requests_per_minute ?? 200 },
  });
  const api = (path: string) => `${root}/api/v2${path}`;
  // Freshdesk said its budget is spent: the next listing waits before asking.
  const pacing = { exhausted: false };
  const freshdesk: Freshdesk = { http, api, sleep, maxPage, pacing, fields: new Map() };

  return {
    phases: ["companies", "people", "tickets"],
    async totals(signal) {
      // Freshdesk has no counting endpoint: the check is that the key opens the account.
      await list<FdAgent>(freshdesk, api("/agents/me"), signal);
      return {};
    },
    page(phase: Phase, cursor, signal) {
      if (phase === "companies") return companies(freshdesk, cursor, signal);
      if (phase === "people") return people(freshdesk, cursor, signal);
      return tickets(freshdesk, cursor, signal);
    },
    async messages(ticket, signal) {
      const id = encodeURIComponent(ticket.sourceId);
      const [full] = (await list<FdTicket>(freshdesk, api(`/tickets/${id}`), signal)).records;
      const out: SourceMessage[] = [];
      if (full)
        out.push({
          // The description is the ticket's first message; conversation ids never start with "d".
          sourceId: `d${full.id}`,
          public: true,
          authorSourceId: full.requester_id ? String(full.requester_id) : null,
          html: full.description ?? `<p>${escapeHtml(text(full.description_text)).replace(/\n/g, "<br>")}</p>`,
          createdAt: text(full.created_at),
          attachments: attachmentsOf(full.attachments),
        });
      for (let page = 1, more = true; more && page <= maxPage && out.length < MAX_MESSAGES_PER_TICKET; page++) {
        const answer = await list<FdConversation>(
          freshdesk,
          api(`/tickets/${id}/conversations?per_page=${PER_PAGE}&page=${page}`),
          signal,
        );
        more = answer.next;
        for (const c of answer.records)
          out.push({
            sourceId: String(c.id),
            public: c.private !== true,
            authorSourceId: c.user_id ? String(c.user_id) : null,
            html: c.body ?? `<p>${escapeHtml(text(c.body_text)).replace(/\n/g, "<br>")}</p>`,
            createdAt: text(c.created_at),
            attachments: attachmentsOf(c.attachments),
          });
      }
      return out.slice(0, MAX_MESSAGES_PER_TICKET).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    },
    async download(attachment, signal) {
      // attachment_url is a signed link on Freshdesk's file host: the API key must not go with it,
      // so it is fetched as a redirect hop is (without the account's headers).
      const response = await http.get(attachment.url, signal, "files", 1);
      if (!response.ok) {
        await response.body?.cancel();
        throw new HttpStatusError(response.status, `the file answered ${response.status}`);
      }
      return readCapped(response, MAX_FILE_BYTES);
    },
    inlineImage(url) {
      return vendorImage(root, url, "/helpdesk/attachments/");
    },
  };
}

/** The account's fields of one kind, read once per run. */
const fieldsOf = (
  freshdesk: Freshdesk,
  kind: "ticket_fields" | "contact_fields" | "company_fields",
  signal: AbortSignal,
) =>
  cachedFields(freshdesk.fields, kind, async () =>
    freshdeskFieldDefs((await list<FdField>(freshdesk, freshdesk.api(`/${kind}`), signal)).records),
  );

/** One listing page: its records and whether Freshdesk links a next one. */
async function list<T>(
  freshdesk: Freshdesk,
  url: string,
  signal: AbortSignal,
): Promise<{ records: T[]; next: boolean }> {
  const { http, sleep, pacing } = freshdesk;
  if (pacing.exhausted) {
    await sleep(EXHAUSTED_WAIT_MS, signal);
    pacing.exhausted = false;
  }
  const response = await http.get(url, signal);
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    throw new SourceError("Freshdesk refused the credentials (check the domain and API key)");
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new HttpStatusError(response.status, `Freshdesk answered ${response.status} for ${new URL(url).pathname}`);
  }
  pacing.exhausted = response.headers.get("x-ratelimit-remaining") === "0";
  const raw = new TextDecoder().decode(await readCapped(response, MAX_JSON_BYTES));
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new SourceError(`Freshdesk's answer for ${new URL(url).pathname} is not JSON`);
  }
  const next = /rel="?next"?/.test(response.headers.get("link") ?? "");
  return { records: Array.isArray(body) ? (body as T[]) : [body as T], next };
}

async function companies(freshdesk: Freshdesk, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { api, maxPage } = freshdesk;
  // Companies have no "updated since" filter: every run lists them, the mappings skip the unchanged.
  const at = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 1;
  const { records, next } = await list<FdCompany>(freshdesk, api(`/companies?per_page=${PER_PAGE}&page=${at}`), signal);
  const defs = await fieldsOf(freshdesk, "company_fields", signal);
  const page = records.map((c) => ({
    sourceId: String(c.id),
    updatedAt: text(c.updated_at),
    createdAt: c.created_at ?? null,
    name: text(c.name).slice(0, 200) || `Company ${c.id}`,
    domain: c.domains?.[0] ?? null,
    notes: [text(c.description), text(c.note)].filter(Boolean).join("\n\n").slice(0, 10_000),
    fields: valuesOf(defs, c.custom_fields),
  }));
  const more = next && at < maxPage;
  return { companies: page, cursor: more ? String(at + 1) : null, done: !more };
}

async function people(freshdesk: Freshdesk, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { api, maxPage } = freshdesk;
  const at = positionOf(cursor, "agents");
  if (at.stage !== "contacts") {
    const { records, next } = await list<FdAgent>(
      freshdesk,
      api(`/agents?per_page=${PER_PAGE}&page=${at.page}`),
      signal,
    );
    const page = records.map((a) => person({ id: a.id, updated_at: a.updated_at, ...a.contact }, true));
    const more = next && at.page < maxPage;
    const position: Position = more
      ? { ...at, page: at.page + 1 }
      : { since: at.since, page: 1, max: at.max, stage: "contacts" };
    return { people: page, cursor: JSON.stringify(position), done: false };
  }
  const since = at.since === EPOCH ? "" : `&_updated_since=${encodeURIComponent(at.since)}`;
  const { records, next } = await list<FdContact>(
    freshdesk,
    api(`/contacts?per_page=${PER_PAGE}&page=${at.page}${since}`),
    signal,
  );
  const max = records.reduce((m, c) => later(m, c.updated_at), at.max);
  const more = next && at.page < maxPage;
  // Agents are listed whole on every run; contacts from the newest change the last run read.
  const position: Position = more ? { ...at, page: at.page + 1, max } : { since: max, page: 1, max, stage: "agents" };
  const defs = await fieldsOf(freshdesk, "contact_fields", signal);
  const contacts = records.map((c) => ({ ...person(c, false), fields: valuesOf(defs, c.custom_fields) }));
  return { people: contacts, cursor: JSON.stringify(position), done: !more };
}

async function tickets(freshdesk: Freshdesk, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { api, maxPage } = freshdesk;
  const at = positionOf(cursor);
  const { records, next } = await list<FdTicket>(
    freshdesk,
    api(
      `/tickets?updated_since=${encodeURIComponent(at.since)}&order_by=updated_at&order_type=asc&per_page=${PER_PAGE}&page=${at.page}&include=requester,stats`,
    ),
    signal,
  );
  const max = records.reduce((m, t) => later(m, t.updated_at), at.max);
  const defs = await fieldsOf(freshdesk, "ticket_fields", signal);
  const page = records.map(
    (t): SourceTicket => ({
      sourceId: String(t.id),
      updatedAt: text(t.updated_at),
      subject: (text(t.subject) || "(no subject)").slice(0, 500),
      status: t.spam || t.deleted ? null : (FRESHDESK_STATUS[t.status ?? 2] ?? "on_hold"),
      priority: FRESHDESK_PRIORITY[t.priority ?? 1] ?? "normal",
      tags: (t.tags ?? []).filter((tag) => typeof tag === "string" && tag.length > 0 && tag.length <= 100).slice(0, 50),
      requesterSourceId: t.requester_id ? String(t.requester_id) : null,
      assigneeSourceId: t.responder_id ? String(t.responder_id) : null,
      createdAt: text(t.created_at),
      solvedAt: t.stats?.resolved_at ?? t.stats?.closed_at ?? null,
      fields: valuesOf(defs, t.custom_fields),
    }),
  );
  // A requester the contacts listing no longer shows (deleted since) still gets a contact from the embed.
  const requesters = records
    .filter((t) => t.requester && t.requester_id === t.requester.id)
    // Never newer than what the contacts listing brings: a known contact is left as that listing made it.
    .map((t) => person({ ...t.requester!, updated_at: EPOCH }, false));
  let position: Position;
  let done = false;
  if (at.page >= maxPage && records.length > 0) {
    // Page 300 is the last Freshdesk serves (it may not even link a next one): the listing starts
    // again from the newest change read; the records of that very time come again, skipped as unchanged.
    if (max === at.since)
      throw new SourceError(
        `more than ${maxPage * PER_PAGE} tickets changed at ${max}: Freshdesk cannot list them all`,
      );
    position = { since: max, page: 1, max };
  } else if (next) position = { ...at, page: at.page + 1, max };
  else {
    position = { since: max, page: 1, max };
    done = true;
  }
  return { people: requesters, tickets: page, cursor: JSON.stringify(position), done };
}
