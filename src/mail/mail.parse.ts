import type { AddressObject, ParsedMail } from "mailparser";
import { decodeFlowed, hideFlowedParameter } from "./mail.flowed";

export type MailAddress = { email: string; name: string };

export type MailAttachment = {
  filename: string;
  contentType: string;
  content: Uint8Array;
  /** Without angle brackets; set for parts an HTML body may reference as `cid:`. */
  contentId: string | null;
  inline: boolean;
};

/** A received message, reduced to what the ingest pipeline reads. Transport only: no ticket logic. */
export type ParsedEmail = {
  messageId: string | null;
  inReplyTo: string[];
  references: string[];
  from: MailAddress | null;
  replyTo: MailAddress | null;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string;
  date: string | null;
  html: string | null;
  text: string;
  attachments: MailAttachment[];
  /** Lower-cased header name → every raw value (unfolded), in order. */
  headers: Map<string, string[]>;
  /** Outlook's `Thread-Topic` (the conversation's subject without prefixes), decoded; null when absent. */
  threadTopic: string | null;
};

const MESSAGE_ID_RE = /<([^<>\s]+)>/g;

/** Message-IDs are compared without brackets and case-insensitively (some relays change case). */
export function normalizeMessageId(value: string): string {
  return value.trim().replace(/^<|>$/g, "").trim().toLowerCase();
}

/** Every `<id>` in a header value; a bare id without brackets counts too. */
export function messageIdsIn(value: string | undefined | null): string[] {
  if (!value) return [];
  const found = [...value.matchAll(MESSAGE_ID_RE)].map((m) => normalizeMessageId(m[1]!));
  if (found.length) return found;
  const bare = value.trim();
  return bare && !/\s/.test(bare) && bare.includes("@") ? [normalizeMessageId(bare)] : [];
}

function addressesOf(value: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const out: MailAddress[] = [];
  const visit = (entry: { address?: string; name?: string; group?: Array<{ address?: string; name?: string }> }) => {
    if (entry.group) for (const member of entry.group) visit(member);
    const email = (entry.address ?? "").trim().toLowerCase();
    if (email && /^[^\s@]+@[^\s@]+$/.test(email)) out.push({ email, name: (entry.name ?? "").trim() });
  };
  for (const object of objects) for (const entry of object.value ?? []) visit(entry);
  return out;
}

function rawHeaders(parsed: ParsedMail): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const { key, line } of parsed.headerLines ?? []) {
    const colon = line.indexOf(":");
    const value = (colon >= 0 ? line.slice(colon + 1) : "").replace(/\r?\n[ \t]+/g, " ").trim();
    const list = headers.get(key.toLowerCase());
    if (list) list.push(value);
    else headers.set(key.toLowerCase(), [value]);
  }
  return headers;
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * RFC 2047 encoded words in a header mailparser leaves raw (it decodes only the headers it knows):
 * adjacent words join without the space between them; an unknown charset reads as UTF-8.
 */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(ENCODED_WORD, (_whole, charset: string, kind: string, text: string) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? Buffer.from(text, "base64")
          : Buffer.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
              "latin1",
            );
      let decoder: TextDecoder;
      try {
        decoder = new TextDecoder(charset.split("*")[0]!.toLowerCase());
      } catch {
        decoder = new TextDecoder("utf-8");
      }
      return decoder.decode(bytes);
    });
}

/** NUL and other C0 controls (except tab and line breaks) never reach storage. */
const stripControls = (value: string): string => value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");

/** The raw header block and body of a message, as bytes read one-to-one (latin1). */
function splitRaw(raw: Uint8Array): { head: string; body: string } {
  const text = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, 256 * 1024)).toString("latin1");
  const match = /\r?\n\r?\n/.exec(text);
  return match
    ? { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) }
    : { head: text, body: "" };
}

/**
 * Unencoded 8-bit header text that is not UTF-8 (old clients write Latin-1 straight into Subject
 * or From) decodes to U+FFFD; read such a header again as windows-1252, the usual culprit.
 */
function legacyHeader(head: string, name: string): string | null {
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, "im").exec(unfolded);
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, "latin1");
  return new TextDecoder("windows-1252").decode(bytes).trim();
}

/**
 * A multipart message whose boundaries are broken yields no parts at all; rather than an empty
 * message, show its body text without boundary and part-header lines.
 */
function salvagedText(body: string): string {
  const decoded = new TextDecoder("utf-8").decode(Buffer.from(body.slice(0, 100_000), "latin1"));
  return decoded
    .split(/\r?\n/)
    .filter((line) => !/^--\S+/.test(line) && !/^Content-[\w-]+:/i.test(line))
    .join("\n")
    .trim();
}

/** Parses raw RFC 822 bytes. Never throws for malformed MIME: mailparser reads what it can. */
export async function parseEmail(raw: Uint8Array): Promise<ParsedEmail> {
  // mailparser is loaded with the first message: an idle instance never holds it in memory.
  const { simpleParser } = await import("mailparser");
  // format=flowed is decoded here, quote depth respected (see mail.flowed.ts), not by mailparser.
  const flowed = hideFlowedParameter(raw);
  const parsed = await simpleParser(Buffer.from(flowed.raw.buffer, flowed.raw.byteOffset, flowed.raw.byteLength), {
    keepCidLinks: true,
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  const headers = rawHeaders(parsed);
  const first = (name: string) => headers.get(name)?.[0];
  const messageId = messageIdsIn(first("message-id"))[0] ?? null;
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : null;
  // Reading the raw bytes again is only needed for the rare broken message; most never pay for it.
  let split: ReturnType<typeof splitRaw> | null = null;
  const raw8bit = () => (split ??= splitRaw(raw));
  let subject = parsed.subject ?? "";
  if (subject.includes("\uFFFD")) subject = legacyHeader(raw8bit().head, "subject") ?? subject;
  const from = addressesOf(parsed.from)[0] ?? null;
  if (from?.name.includes("\uFFFD")) {
    const legacy = legacyHeader(raw8bit().head, "from");
    const name = legacy ? /^\s*"?([^"<]*?)"?\s*</.exec(legacy)?.[1] : undefined;
    if (name) from.name = name.trim();
  }
  const html = typeof parsed.html === "string" && parsed.html.trim() ? stripControls(parsed.html) : null;
  let text = stripControls(parsed.text ?? "");
  if (flowed.flowed) text = decodeFlowed(text, flowed.delSp);
  const isMultipart = /^multipart\//i.test(
    parsed.headers.get("content-type")
      ? String((parsed.headers.get("content-type") as { value?: string }).value ?? "")
      : "",
  );
  if (isMultipart && html === null && !text.trim() && parsed.attachments.length === 0)
    text = stripControls(salvagedText(raw8bit().body));
  return {
    messageId,
    inReplyTo: messageIdsIn(first("in-reply-to")),
    references: (headers.get("references") ?? []).flatMap((v) => messageIdsIn(v)),
    from,
    replyTo: addressesOf(parsed.replyTo)[0] ?? null,
    to: addressesOf(parsed.to),
    cc: addressesOf(parsed.cc),
    subject: stripControls(subject.replace(/[\r\n]+/g, " ")).trim(),
    date,
    html,
    text,
    attachments: parsed.attachments.map((a) => ({
      filename: (a.filename ?? "").trim() || defaultName(a.contentType),
      contentType: (a.contentType || "application/octet-stream").toLowerCase(),
      content: new Uint8Array(a.content),
      contentId: a.contentId ? a.contentId.replace(/^<|>$/g, "") : (a.cid ?? null),
      inline: a.related === true || (a.contentDisposition === "inline" && Boolean(a.contentId)),
    })),
    headers,
    threadTopic: first("thread-topic")
      ? stripControls(decodeEncodedWords(first("thread-topic")!.slice(0, 4000)).replace(/[\r\n]+/g, " "))
          .trim()
          .slice(0, 1000)
      : null,
  };
}

function defaultName(contentType: string): string {
  if (contentType === "message/rfc822") return "message.eml";
  if (contentType === "message/delivery-status") return "delivery-status.txt";
  if (contentType === "text/rfc822-headers") return "headers.txt";
  const sub = contentType.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin";
  return `attachment.${sub}`;
}
