import type { ImapFlow } from "imapflow";
import type { Config } from "../config/config";
import { assertPublicHost, parseIp, UnsafeUrlError } from "../lib/ssrf";
import { connectImap } from "../mail/mail.imap";
import { normalizeMessageId, parseEmail, type ParsedEmail } from "../mail/mail.parse";
import { trimQuoted } from "../mail/mail.quote";
import { stripSubjectPrefixes } from "../mail/mail.subject";
import type { ImapImportOptionsInput } from "./imports.schemas";
import {
  SourceError,
  type ImportSource,
  type SourceAttachment,
  type SourceMessage,
  type SourcePage,
  type SourcePerson,
  type SourceTicket,
} from "./imports.source";

/**
 * A mailbox's history over IMAP: each chosen folder (default INBOX and the folder flagged \Sent)
 * read by UID, a page of messages at a time, parsed as live mail is (the same parser, quoted
 * history trimmed the same way) and threaded by their References / In-Reply-To into one ticket
 * per conversation. Mail the account sent (the \Sent folder, or from the account's own address)
 * becomes agent replies, by the member with that address when there is one; the rest comes from
 * contacts. The cursor is each folder's UIDVALIDITY and last UID: a re-run reads only newer mail,
 * and a folder rebuilt (UIDVALIDITY changed) is read again, its messages known by Message-ID.
 *
 * A conversation whose newest message came in is open, one answered last is solved.
 */

export type ImapSourceConfig = Pick<Config, "allowedPrivateHosts" | "mailCa">;

/** Messages a page: each is held in memory (with its files) until the page is written. */
const PAGE_MESSAGES = 50;
/** A larger message is left out (Desk's attachment limit would refuse its files anyway). */
const MAX_MESSAGE_BYTES = 30 * 1024 * 1024;
/** Conversations remembered for the replies that name only their parent (the run's own messages). */
const MAX_KNOWN_THREADS = 100_000;
const EPOCH = "1970-01-01T00:00:00.000Z";

type FolderPosition = { uidValidity: string; lastUid: number };
type Cursor = { folder: number; seq: number; positions: Record<string, FolderPosition> };

type Held = {
  key: string;
  thread: string;
  email: ParsedEmail;
  sent: boolean;
  date: string;
  attachments: SourceAttachment[];
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function cursorOf(raw: string | null): Cursor {
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Cursor;
      if (Number.isInteger(parsed.folder) && Number.isInteger(parsed.seq) && parsed.positions) return parsed;
    } catch {
      // An unreadable cursor reads the folders again: Message-IDs keep that from duplicating.
    }
  }
  return { folder: 0, seq: 0, positions: {} };
}

/** An IMAP account as it is read: the options, what this page holds and the conversations met so far. */
type Imap = {
  options: ImapImportOptionsInput;
  config: ImapSourceConfig;
  own: string;
  held: Map<string, Held[]>;
  files: Map<string, Uint8Array>;
  threads: Map<string, string>;
  newest: Map<string, { date: string; sent: boolean }>;
};

const person = (
  sourceId: string,
  address: { email: string; name: string },
  agent: boolean,
  createdAt: string,
): SourcePerson => ({
  sourceId,
  // Mail carries no record time: a person once imported is not rewritten by every message.
  updatedAt: EPOCH,
  // Mail has no contact record either: a contact dates from the first message naming it.
  createdAt,
  email: address.email.toLowerCase(),
  name: address.name.slice(0, 200),
  phone: "",
  agent,
  companySourceId: null,
});

export function imapSource(options: ImapImportOptionsInput, config: ImapSourceConfig): ImportSource {
  const own = options.username.trim().toLowerCase();
  /** This page's messages by conversation, and their files: cleared at each page. */
  const held = new Map<string, Held[]>();
  const files = new Map<string, Uint8Array>();
  /** Message key → conversation, for replies whose References lack the conversation's first message. */
  const threads = new Map<string, string>();
  /** Conversation → its newest message read in this run: a folder read later may hold an older one. */
  const newest = new Map<string, { date: string; sent: boolean }>();
  const imap: Imap = { options, config, own, held, files, threads, newest };

  return {
    phases: ["tickets"],
    async totals() {
      // Messages are no tickets until threaded: the check is that the account logs in.
      await withClient(imap, async (client) => void (await foldersOf(imap, client)));
      return {};
    },
    page: (_phase, cursor) => page(imap, cursor),
    async messages(ticket) {
      return (held.get(ticket.sourceId) ?? []).map((m): SourceMessage => {
        const body = trimQuoted(m.email.html, m.email.text);
        return {
          sourceId: m.key,
          public: true,
          authorSourceId: `${m.sent ? "a" : "c"}:${m.email.from!.email.toLowerCase()}`,
          html: body.html ?? `<p>${escapeHtml(body.text.trim()).replace(/\n/g, "<br>")}</p>`,
          createdAt: m.date,
          attachments: m.attachments,
          messageId: m.email.messageId ? normalizeMessageId(m.email.messageId) : null,
        };
      });
    },
    async download(attachment) {
      const bytes = files.get(attachment.sourceId);
      if (!bytes) throw new SourceError(`the file ${attachment.filename} is no longer held`);
      return bytes;
    },
  };
}

async function connect(imap: Imap): Promise<ImapFlow> {
  const { options, config } = imap;
  let target: { host: string; servername?: string };
  try {
    const { host, addresses } = await assertPublicHost(options.host, config.allowedPrivateHosts);
    const address = addresses[0] ?? host;
    // The connection goes to the address just checked; the name stays for the certificate.
    target = parseIp(host) ? { host: address } : { host: address, servername: host };
  } catch (error) {
    throw new SourceError(`${options.host}: ${error instanceof UnsafeUrlError ? error.message : "cannot be resolved"}`);
  }
  try {
    return await connectImap({
      ...target,
      port: options.port,
      tls: options.tls,
      auth: { user: options.username, pass: options.password },
      ...(config.mailCa ? { ca: config.mailCa } : {}),
    });
  } catch (error) {
    throw new SourceError(error instanceof Error ? error.message : String(error));
  }
}

async function foldersOf(imap: Imap, client: ImapFlow): Promise<string[]> {
  const { options } = imap;
  if (options.folders) return options.folders;
  const sent = (await client.list()).find((f) => f.specialUse === "\\Sent");
  return sent && sent.path.toUpperCase() !== "INBOX" ? ["INBOX", sent.path] : ["INBOX"];
}

async function withClient<T>(imap: Imap, run: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = await connect(imap);
  try {
    return await run(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

function threadOf(imap: Imap, email: ParsedEmail, key: string): string {
  const { threads } = imap;
  const named = [...email.references, ...email.inReplyTo].map(normalizeMessageId);
  for (const id of named) {
    const known = threads.get(id);
    if (known) return known;
  }
  // The first of References is the conversation's first message (RFC 5322 §3.6.4).
  const thread = named[0] ?? key;
  if (threads.size >= MAX_KNOWN_THREADS) threads.clear();
  threads.set(key, thread);
  return thread;
}

async function page(imap: Imap, raw: string | null): Promise<SourcePage> {
  const { held, files } = imap;
  held.clear();
  files.clear();
  const cursor = cursorOf(raw);
  return withClient(imap, async (client) => {
    const folders = await foldersOf(imap, client);
    const path = folders[cursor.folder];
    if (path === undefined) return { cursor: JSON.stringify({ ...cursor, folder: 0 }), done: true };
    const folderFlags = (await client.list()).find((f) => f.path === path);
    const sentFolder = folderFlags?.specialUse === "\\Sent";
    let opened: Awaited<ReturnType<ImapFlow["mailboxOpen"]>>;
    try {
      opened = await client.mailboxOpen(path, { readOnly: true });
    } catch {
      throw new SourceError(`the folder ${path} cannot be opened`);
    }
    const uidValidity = String(opened.uidValidity);
    const known = cursor.positions[path];
    const lastUid = known && known.uidValidity === uidValidity ? known.lastUid : 0;
    const found = opened.exists === 0 ? [] : (await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })) || [];
    const uids = found
      .filter((uid) => uid > lastUid)
      .sort((a, b) => a - b)
      .slice(0, PAGE_MESSAGES);
    if (uids.length === 0) {
      const next: Cursor = {
        ...cursor,
        folder: cursor.folder + 1,
        positions: { ...cursor.positions, [path]: { uidValidity, lastUid } },
      };
      return { cursor: JSON.stringify(next), done: false };
    }
    const people = await readMessages(imap, client, uids, { path, uidValidity, sentFolder });
    // Each page's tickets carry a later mark than the last: the engine then writes every new message of
    // a conversation met before, whatever its date (mail of one conversation spreads over folders).
    const seq = cursor.seq + 1;
    const tickets = ticketsOfPage(imap, seq);
    const next: Cursor = {
      folder: cursor.folder,
      seq,
      positions: { ...cursor.positions, [path]: { uidValidity, lastUid: uids.at(-1)! } },
    };
    return { people: [...people.values()], tickets, cursor: JSON.stringify(next), done: false };
  });
}

/** The page's messages, parsed and held by conversation with their files; the people they name. */
async function readMessages(
  imap: Imap,
  client: ImapFlow,
  uids: number[],
  folder: { path: string; uidValidity: string; sentFolder: boolean },
): Promise<Map<string, SourcePerson>> {
  const { own, held, files } = imap;
  const { path, uidValidity, sentFolder } = folder;
  const sizes = new Map<number, number>();
  for await (const m of client.fetch(uids.join(","), { uid: true, size: true }, { uid: true }))
    sizes.set(m.uid, m.size ?? 0);
  const people = new Map<string, SourcePerson>();
  for (const uid of uids) {
    if ((sizes.get(uid) ?? 0) > MAX_MESSAGE_BYTES) continue;
    const message = await client.fetchOne(String(uid), { uid: true, source: true, internalDate: true }, { uid: true });
    if (!message) continue;
    if (!message.source) continue;
    let email: ParsedEmail;
    try {
      email = await parseEmail(new Uint8Array(message.source));
    } catch {
      continue;
    }
    const from = email.from;
    if (!from) continue;
    const key = email.messageId ? normalizeMessageId(email.messageId) : `${path}:${uidValidity}:${uid}`;
    const sent = sentFolder || from.email.toLowerCase() === own;
    const internal = message.internalDate ? new Date(message.internalDate).toISOString() : EPOCH;
    const date =
      email.date && Number.isFinite(Date.parse(email.date)) ? new Date(Date.parse(email.date)).toISOString() : internal;
    const attachments = email.attachments
      .filter((a) => a.content.byteLength > 0)
      .map((a, i): SourceAttachment => {
        const id = `${key}#${i}`;
        files.set(id, a.content);
        return {
          sourceId: id,
          filename: a.filename || "file",
          url: `imap:${id}`,
          inline: a.inline,
          contentId: a.contentId,
        };
      });
    const thread = threadOf(imap, email, key);
    held.set(thread, [...(held.get(thread) ?? []), { key, thread, email, sent, date, attachments }]);
    meet(people, sent ? "a" : "c", from, date);
    const customer = email.to[0];
    if (sent && customer) meet(people, "c", customer, date);
  }
  return people;
}

/** Adds a person a message names, dated by the earliest of the page's messages naming them. */
function meet(
  people: Map<string, SourcePerson>,
  kind: "a" | "c",
  address: { email: string; name: string },
  date: string,
): void {
  const sourceId = `${kind}:${address.email.toLowerCase()}`;
  const before = people.get(sourceId)?.createdAt;
  people.set(sourceId, person(sourceId, address, kind === "a", before && before < date ? before : date));
}

/** The page's conversations as tickets, each marked later than the last page's. */
function ticketsOfPage(imap: Imap, seq: number): SourceTicket[] {
  const { held, newest } = imap;
  return [...held.values()].map((list): SourceTicket => {
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const first = list[0]!;
    const before = newest.get(first.thread);
    const last = before && before.date > list.at(-1)!.date ? before : list.at(-1)!;
    if (newest.size >= MAX_KNOWN_THREADS) newest.clear();
    newest.set(first.thread, { date: last.date, sent: last.sent });
    const requester = first.sent ? first.email.to[0] : first.email.from;
    return {
      sourceId: first.thread,
      updatedAt: `seq:${String(seq).padStart(12, "0")}`,
      subject: (stripSubjectPrefixes(first.email.subject) || "(no subject)").slice(0, 500),
      status: last.sent ? "solved" : "open",
      priority: "normal",
      tags: [],
      requesterSourceId: requester ? `c:${requester.email.toLowerCase()}` : null,
      assigneeSourceId: null,
      createdAt: first.date,
      solvedAt: last.sent ? last.date : null,
    };
  });
}
