import { assertPublicUrl, UnsafeUrlError } from "../lib/ssrf";
import { abortableSleep, HttpStatusError, MAX_JSON_BYTES, readCapped, SourceHttp } from "./imports.http";
import type { HelpScoutOptionsInput } from "./imports.schemas";
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
import { cachedFields, helpScoutFieldDefs, valuesOf, type FieldCache, type FieldDefs } from "./imports.vendor-fields";

/**
 * Help Scout through its documented Mailbox API 2.0 (https://developer.helpscout.com/mailbox-api/):
 * OAuth2 client credentials (`POST /v2/oauth2/token`; the token is fetched again when it expires or
 * an answer is 401); users and customers page by page (HAL `_embedded`, `page.totalPages`);
 * conversations with their threads (`embed=threads`) in `modifiedAt` order, `modifiedSince` the
 * newest change the last run read; attachments by `…/attachments/{id}/data` (base64).
 *
 * Statuses: active → open, pending → pending, closed → solved; spam, deleted and draft
 * conversations are not imported. Help Scout has no priorities: every ticket is normal. Threads:
 * customer, reply, message, chat and phone → public messages, note and forwardparent → internal
 * notes; lineitem (the activity log) and forwardchild are not imported, nor unpublished threads.
 * Users and customers are separate id spaces: people are keyed `u{id}` and `c{id}`.
 */
export const HELPSCOUT_STATUS: Record<string, SourceTicket["status"]> = {
  active: "open",
  pending: "pending",
  closed: "solved",
  spam: null,
};
const PUBLIC_THREADS = new Set(["customer", "reply", "message", "chat", "phone", "beaconchat"]);
const NOTE_THREADS = new Set(["note", "forwardparent"]);

type HsPerson = { id: number; type?: string; first?: string | null; last?: string | null; email?: string | null };
type HsUser = {
  id: number;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  updatedAt?: string;
};
type HsCustomer = {
  id: number;
  firstName?: string | null;
  lastName?: string | null;
  createdAt?: string;
  updatedAt?: string;
  _embedded?: { emails?: Array<{ value?: string }>; phones?: Array<{ value?: string }> };
};
type HsAttachment = { id: number; filename?: string };
type HsThread = {
  id: number;
  type?: string;
  state?: string;
  body?: string | null;
  createdBy?: HsPerson | null;
  createdAt?: string;
  _embedded?: { attachments?: HsAttachment[] };
};
type HsConversation = {
  id: number;
  subject?: string | null;
  status?: string;
  state?: string;
  tags?: Array<{ tag?: string }>;
  assignee?: HsPerson | null;
  primaryCustomer?: HsPerson | null;
  createdAt?: string;
  closedAt?: string | null;
  userUpdatedAt?: string | null;
  mailboxId?: number;
  customFields?: Array<{ id: number; name?: string; value?: unknown; text?: string }>;
  _embedded?: { threads?: HsThread[] };
};
type HalPage<K extends string, T> = {
  _embedded?: Partial<Record<K, T[]>>;
  page?: { number?: number; totalPages?: number; totalElements?: number };
};

/** Help Scout's documented limit: 400 requests a minute per account. */
const DEFAULT_PER_MINUTE = 400;
const MAX_FILE_BYTES = 25 * 1024 * 1024;
const MAX_PAGES = 100_000;
const TOKEN_TRIES = 5;
/** A token is fetched again this long before Help Scout says it expires. */
const TOKEN_MARGIN_MS = 60_000;
const EPOCH = "1970-01-01T00:00:00Z";

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const later = (a: string, b: string | null | undefined) =>
  b && Date.parse(b) > Date.parse(a) ? new Date(Date.parse(b)).toISOString() : a;
const nameOf = (first: unknown, last: unknown) => [text(first), text(last)].filter(Boolean).join(" ").slice(0, 200);

type Position = { since: string; page: number; max: string; stage?: "users" | "customers" };
const positionOf = (cursor: string | null, stage?: Position["stage"]): Position => {
  if (cursor) {
    try {
      const parsed = JSON.parse(cursor) as Position;
      if (typeof parsed.since === "string" && Number.isInteger(parsed.page)) return parsed;
    } catch {
      // An unreadable cursor starts the listing over: the mappings make that a no-op.
    }
  }
  return { since: EPOCH, page: 1, max: EPOCH, stage };
};

/** A Help Scout account as its pages are fetched: the client, its token and the threads of the last page read. */
type HelpScout = {
  options: HelpScoutOptionsInput;
  allowList: readonly string[];
  headers: Record<string, string>;
  http: SourceHttp;
  api: (path: string) => string;
  token: { expiresAt: number };
  threadsOf: Map<string, HsThread[]>;
  /** Each mailbox's fields, read once per run. */
  fields: FieldCache;
};

const morePages = (body: HalPage<string, unknown>, at: number) => at < Math.min(body.page?.totalPages ?? 0, MAX_PAGES);

const customerOf = (p: HsPerson): SourcePerson => ({
  sourceId: `c${p.id}`,
  // Known only from a conversation: never newer than what the customers listing brings.
  updatedAt: EPOCH,
  email: p.email ? p.email.trim().toLowerCase() : null,
  name: nameOf(p.first, p.last),
  phone: "",
  agent: false,
  companySourceId: null,
});

/** The conversation's last change as its threads, close and user edits show it. */
const changedAt = (c: HsConversation) =>
  (c._embedded?.threads ?? []).reduce(
    (m, t) => later(m, t.createdAt),
    later(later(later(EPOCH, c.createdAt), c.closedAt), c.userUpdatedAt),
  );

export function helpScoutSource(options: HelpScoutOptionsInput, allowList: readonly string[]): ImportSource {
  const root = (options.base_url ?? "https://api.helpscout.net").replace(/\/+$/, "");
  // SourceHttp sends these on every API call: the token is swapped in place when it is renewed.
  const headers: Record<string, string> = { accept: "application/json" };
  const perMinute = options.requests_per_minute ?? DEFAULT_PER_MINUTE;
  const http = new SourceHttp({ headers, allowList, budgets: { default: perMinute, files: perMinute } });
  const api = (path: string) => `${root}/v2${path}`;
  // When the token runs out (a little before Help Scout says), by performance.now().
  const token = { expiresAt: 0 };
  /** The threads of the conversations of the last page read (embedded there): at most one page's worth. */
  const threadsOf = new Map<string, HsThread[]>();
  const helpScout: HelpScout = { options, allowList, headers, http, api, token, threadsOf, fields: new Map() };

  return {
    phases: ["people", "tickets"],
    async totals(signal) {
      const count = async (path: string) =>
        (await json<HalPage<string, unknown>>(helpScout, api(path), signal)).page?.totalElements ?? 0;
      return {
        people: (await count("/users")) + (await count("/customers")),
        tickets: await count("/conversations?status=all"),
      };
    },
    page(phase: Phase, cursor, signal) {
      return phase === "tickets" ? conversations(helpScout, cursor, signal) : people(helpScout, cursor, signal);
    },
    async messages(ticket, signal) {
      const out: SourceMessage[] = [];
      for (const t of await threads(helpScout, ticket.sourceId, signal)) {
        const type = text(t.type);
        if ((t.state && t.state !== "published") || !(PUBLIC_THREADS.has(type) || NOTE_THREADS.has(type))) continue;
        const by = t.createdBy;
        out.push({
          sourceId: String(t.id),
          public: PUBLIC_THREADS.has(type),
          authorSourceId: by?.id ? `${by.type === "customer" ? "c" : "u"}${by.id}` : null,
          html: text(t.body),
          createdAt: text(t.createdAt),
          attachments: (t._embedded?.attachments ?? []).map(
            (a): SourceAttachment => ({
              sourceId: String(a.id),
              filename: text(a.filename) || "file",
              url: api(`/conversations/${encodeURIComponent(ticket.sourceId)}/attachments/${a.id}/data`),
              inline: false,
            }),
          ),
        });
        if (out.length >= MAX_MESSAGES_PER_TICKET) break;
      }
      // Help Scout lists threads newest first.
      return out.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    },
    async download(attachment, signal) {
      const body = await json<{ data?: string }>(helpScout, attachment.url, signal);
      const data = text(body.data);
      // Base64 is 4 characters for 3 bytes: a longer text would decode beyond the limit.
      if (data.length > Math.ceil(MAX_FILE_BYTES / 3) * 4)
        throw new HttpStatusError(413, `larger than ${Math.round(MAX_FILE_BYTES / 1024 / 1024)} MB`);
      return new Uint8Array(Buffer.from(data, "base64"));
    },
  };
}

async function authenticate(helpScout: HelpScout, signal: AbortSignal): Promise<void> {
  const { options, allowList, headers, api, token } = helpScout;
  const url = api("/oauth2/token");
  try {
    await assertPublicUrl(url, allowList);
  } catch (error) {
    throw new SourceError(
      `${new URL(url).host}: ${error instanceof UnsafeUrlError ? error.message : "cannot be resolved"}`,
    );
  }
  for (let tries = 1; ; tries++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: options.app_id,
          client_secret: options.app_secret,
        }),
        redirect: "manual",
        signal,
      });
    } catch (error) {
      if (signal.aborted || tries >= TOKEN_TRIES)
        throw signal.aborted ? error : new SourceError("Help Scout did not answer");
      await abortableSleep(1000 * 2 ** tries, signal);
      continue;
    }
    if ((response.status === 429 || response.status >= 500) && tries < TOKEN_TRIES) {
      await response.body?.cancel();
      const seconds = Number(response.headers.get("retry-after"));
      await abortableSleep(
        Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 120) * 1000 : 1000 * 2 ** tries,
        signal,
      );
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SourceError("Help Scout refused the credentials (check the app ID and app secret)");
    }
    const body = JSON.parse(new TextDecoder().decode(await readCapped(response, 64 * 1024))) as {
      access_token?: string;
      expires_in?: number;
    };
    if (!body.access_token) throw new SourceError("Help Scout answered no access token");
    headers.authorization = `Bearer ${body.access_token}`;
    token.expiresAt = performance.now() + Math.max(0, (body.expires_in ?? 7200) * 1000 - TOKEN_MARGIN_MS);
    return;
  }
}

async function json<T>(helpScout: HelpScout, url: string, signal: AbortSignal): Promise<T> {
  const { headers, http, token } = helpScout;
  for (let renewed = false; ; renewed = true) {
    if (!headers.authorization || performance.now() >= token.expiresAt) await authenticate(helpScout, signal);
    const response = await http.get(url, signal);
    if (response.status === 401 && !renewed) {
      // A token revoked or expired early: one fresh token, then the credentials are at fault.
      await response.body?.cancel();
      delete headers.authorization;
      continue;
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new SourceError("Help Scout refused the credentials (check the app ID and app secret)");
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new HttpStatusError(response.status, `Help Scout answered ${response.status} for ${new URL(url).pathname}`);
    }
    try {
      return JSON.parse(new TextDecoder().decode(await readCapped(response, MAX_JSON_BYTES))) as T;
    } catch (error) {
      if (error instanceof HttpStatusError) throw error;
      throw new SourceError(`Help Scout's answer for ${new URL(url).pathname} is not JSON`);
    }
  }
}

async function people(helpScout: HelpScout, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { api } = helpScout;
  const at = positionOf(cursor, "users");
  if (at.stage !== "customers") {
    const body = await json<HalPage<"users", HsUser>>(helpScout, api(`/users?page=${at.page}`), signal);
    const list = (body._embedded?.users ?? []).map(
      (u): SourcePerson => ({
        sourceId: `u${u.id}`,
        updatedAt: text(u.updatedAt),
        email: u.email ? u.email.trim().toLowerCase() : null,
        name: nameOf(u.firstName, u.lastName),
        phone: "",
        agent: true,
        companySourceId: null,
      }),
    );
    const position: Position = morePages(body, at.page)
      ? { ...at, page: at.page + 1 }
      : { since: at.since, page: 1, max: at.max, stage: "customers" };
    return { people: list, cursor: JSON.stringify(position), done: false };
  }
  const since = at.since === EPOCH ? "" : `&modifiedSince=${encodeURIComponent(at.since.replace(/\.\d{3}Z$/, "Z"))}`;
  const body = await json<HalPage<"customers", HsCustomer>>(
    helpScout,
    api(`/customers?page=${at.page}${since}`),
    signal,
  );
  const records = body._embedded?.customers ?? [];
  const max = records.reduce((m, c) => later(m, c.updatedAt), at.max);
  const list = records.map(
    (c): SourcePerson => ({
      sourceId: `c${c.id}`,
      updatedAt: text(c.updatedAt),
      createdAt: c.createdAt ?? null,
      email:
        c._embedded?.emails
          ?.find((e) => e.value)
          ?.value?.trim()
          .toLowerCase() ?? null,
      name: nameOf(c.firstName, c.lastName),
      phone: text(c._embedded?.phones?.[0]?.value).slice(0, 50),
      agent: false,
      companySourceId: null,
    }),
  );
  const more = morePages(body, at.page);
  const position: Position = more ? { ...at, page: at.page + 1, max } : { since: max, page: 1, max, stage: "users" };
  return { people: list, cursor: JSON.stringify(position), done: !more };
}

async function conversations(helpScout: HelpScout, cursor: string | null, signal: AbortSignal): Promise<SourcePage> {
  const { api, threadsOf } = helpScout;
  const at = positionOf(cursor);
  const since = at.since === EPOCH ? "" : `&modifiedSince=${encodeURIComponent(at.since.replace(/\.\d{3}Z$/, "Z"))}`;
  const body = await json<HalPage<"conversations", HsConversation>>(
    helpScout,
    api(`/conversations?status=all&embed=threads&page=${at.page}&sortField=modifiedAt&sortOrder=asc${since}`),
    signal,
  );
  const records = body._embedded?.conversations ?? [];
  const defs = new Map<number, FieldDefs>();
  for (const mailbox of new Set(records.flatMap((c) => (c.mailboxId && c.customFields?.length ? [c.mailboxId] : []))))
    defs.set(
      mailbox,
      await cachedFields(helpScout.fields, String(mailbox), () =>
        helpScoutFieldDefs(
          (url) => json(helpScout, url, signal),
          (page) => api(`/mailboxes/${mailbox}/fields?page=${page}`),
        ),
      ),
    );
  threadsOf.clear();
  let max = at.max;
  const tickets = records.map((c): SourceTicket => {
    const updatedAt = changedAt(c);
    max = later(max, updatedAt);
    threadsOf.set(String(c.id), c._embedded?.threads ?? []);
    const known = Object.hasOwn(HELPSCOUT_STATUS, text(c.status));
    const status = c.state && c.state !== "published" ? null : known ? HELPSCOUT_STATUS[text(c.status)]! : "open";
    return {
      sourceId: String(c.id),
      updatedAt,
      subject: (text(c.subject) || "(no subject)").slice(0, 500),
      status,
      priority: "normal",
      tags: (c.tags ?? [])
        .map((t) => text(t.tag))
        .filter((tag) => tag.length > 0 && tag.length <= 100)
        .slice(0, 50),
      requesterSourceId: c.primaryCustomer?.id ? `c${c.primaryCustomer.id}` : null,
      assigneeSourceId: c.assignee?.id ? `u${c.assignee.id}` : null,
      createdAt: text(c.createdAt),
      solvedAt: status === "solved" ? (c.closedAt ?? null) : null,
      fields: valuesOf(defs.get(c.mailboxId ?? 0) ?? new Map(), c.customFields),
    };
  });
  // The customer of a skipped conversation (spam) does not become a contact.
  const requesters = records
    .filter((c, i) => c.primaryCustomer?.id && tickets[i]!.status !== null)
    .map((c) => customerOf(c.primaryCustomer!));
  const more = morePages(body, at.page);
  const position: Position = more ? { ...at, page: at.page + 1, max } : { since: max, page: 1, max };
  return { people: requesters, tickets, cursor: JSON.stringify(position), done: !more };
}

async function threads(helpScout: HelpScout, conversationId: string, signal: AbortSignal): Promise<HsThread[]> {
  const { api, threadsOf } = helpScout;
  const embedded = threadsOf.get(conversationId);
  if (embedded) return embedded;
  const out: HsThread[] = [];
  for (let page = 1; page <= MAX_PAGES && out.length < MAX_MESSAGES_PER_TICKET; page++) {
    const body = await json<HalPage<"threads", HsThread>>(
      helpScout,
      api(`/conversations/${encodeURIComponent(conversationId)}/threads?page=${page}`),
      signal,
    );
    out.push(...(body._embedded?.threads ?? []));
    if (!morePages(body, page)) break;
  }
  return out;
}
