import {
  attachmentsOfMessages,
  presentAttachment,
  type AttachmentJson,
  type AttachmentLinks,
} from "../attachments/attachments.public";
import type { AttachmentRow } from "../attachments/attachments.public";
import { contactRefsOf } from "../contacts/contacts.public";
import type { Queryable } from "../db/database";
import { userRefsOf, type ContactRefJson } from "./tickets.present";
import type { UserRefJson } from "../identity/identity.public";
import type { MessageRow } from "./messages.table";

export type MessageJson = {
  id: string;
  ticket_id: string;
  kind: MessageRow["kind"];
  direction: MessageRow["direction"];
  author: { type: MessageRow["authorType"]; user: UserRefJson | null; contact: ContactRefJson | null };
  body_html: string;
  body_text: string;
  has_quoted: boolean;
  subject: string;
  from_email: string;
  from_name: string;
  to: string[];
  cc: string[];
  bcc: string[];
  attachments: AttachmentJson[];
  delivery_status: MessageRow["deliveryStatus"];
  delivery_error: string;
  delivery_via: MessageRow["deliveryVia"];
  reply_to: string;
  auth_failed: boolean;
  form_sender: string;
  forward: boolean;
  created_at: string;
};

/** Inline email images (`src="cid:…"`) point at their attachment's signed URL. */
function withInlineImages(html: string, files: AttachmentRow[], links: AttachmentLinks): string {
  const inline = files.filter((f) => f.contentId);
  if (inline.length === 0 || !html.includes("cid:")) return html;
  const byCid = new Map(inline.map((f) => [f.contentId!.replace(/^<|>$/g, "").toLowerCase(), f]));
  return html.replace(/src="cid:([^"]+)"/gi, (whole, cid: string) => {
    const file = byCid.get(cid.toLowerCase());
    return file ? `src="${links.url(file).replace(/&/g, "&amp;")}"` : whole;
  });
}

/**
 * What a caller that just wrote a message already knows (for a single row): each given member
 * skips its query. `attachments` are the message's files in order; `contact` is the author's ref.
 */
export type KnownMessageParts = { attachments?: AttachmentRow[]; contact?: ContactRefJson | null };

/** Presents messages with batched look-ups of authors and attachments. */
export async function presentMessages(
  db: Queryable,
  rows: MessageRow[],
  links: AttachmentLinks,
  known: KnownMessageParts = {},
): Promise<MessageJson[]> {
  if (rows.length === 0) return [];
  const single = rows.length === 1 ? rows[0]! : null;
  const users = await userRefsOf(
    db,
    rows.map((r) => r.authorUserId),
  );
  const knownContact =
    single?.authorContactId && known.contact !== undefined && known.contact?.id === single.authorContactId
      ? known.contact
      : undefined;
  const contacts = knownContact
    ? new Map([[knownContact.id, knownContact]])
    : await contactRefsOf(db, [...new Set(rows.map((r) => r.authorContactId).filter((id): id is string => !!id))]);
  const files =
    single && known.attachments
      ? new Map([[single.id, known.attachments]])
      : await attachmentsOfMessages(
          db,
          rows.map((r) => r.id),
        );
  return rows.map((row) => ({
    id: row.id,
    ticket_id: row.ticketId,
    kind: row.kind,
    direction: row.direction,
    author: {
      type: row.authorType,
      user: row.authorUserId ? (users.get(row.authorUserId) ?? null) : null,
      contact: row.authorContactId ? (contacts.get(row.authorContactId) ?? null) : null,
    },
    body_html: withInlineImages(row.bodyHtml, files.get(row.id) ?? [], links),
    body_text: row.bodyText,
    has_quoted: row.hasQuoted,
    subject: row.subject,
    from_email: row.fromEmail,
    from_name: row.fromName,
    to: row.to ?? [],
    cc: row.cc ?? [],
    bcc: row.bcc ?? [],
    attachments: (files.get(row.id) ?? []).map((file) => presentAttachment(file, links)),
    delivery_status: row.deliveryStatus,
    delivery_error: row.deliveryError,
    delivery_via: row.deliveryVia ?? null,
    reply_to: row.replyTo,
    auth_failed: row.authFailed,
    form_sender: row.formSender,
    forward: row.forward,
    created_at: row.createdAt,
  }));
}

/** Presented once per row snapshot: the message.created event and the response share the JSON. */
const presented = new WeakMap<MessageRow, MessageJson>();

export async function presentMessage(
  db: Queryable,
  row: MessageRow,
  links: AttachmentLinks,
  known: KnownMessageParts = {},
): Promise<MessageJson> {
  const cached = presented.get(row);
  if (cached) return cached;
  const json = (await presentMessages(db, [row], links, known))[0]!;
  presented.set(row, json);
  return json;
}
