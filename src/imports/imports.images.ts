import type { RequestContext } from "../auth/context";
import { storeAttachmentAsync } from "../attachments/attachments.public";
import type { Deps } from "../deps";
import { normalizeCidReferences } from "../inbound/inbound.public";
import { newId } from "../lib/ids";
import { escapeHtml } from "../lib/sanitize";
import type { ImportSource, SourceAttachment, SourceMessage } from "./imports.source";

/** Images of one message fetched at most; any further one is replaced by its alt text. */
export const MAX_INLINE_IMAGES = 50;

const IMG_RE = /<img\b[^>]*>/gi;
const SRC_RE = /(\bsrc\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const ALT_RE = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

const decodeAttr = (value: string): string =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** An image that stays out of the body: its alt text (escaped), so no remote request reveals the reader. */
const altOf = (tag: string): string => {
  const match = ALT_RE.exec(tag);
  const alt = match ? decodeAttr(match[1] ?? match[2] ?? match[3] ?? "") : "";
  return alt ? escapeHtml(alt.slice(0, 500)) : "";
};

export type InlinedMessage = { message: SourceMessage; ids: string[]; problems: string[] };

/**
 * Stores the images a message's HTML names as attachments of the message, the way live mail keeps
 * inline parts: the body names each as `src="cid:<content-id>"` and the messages presenter swaps it
 * for the attachment's signed URL. Mail parts (IMAP) already carry their content ids; an image by
 * URL is fetched only when the source recognizes it as the account's own file (its host), through
 * the source's download (SSRF guard, size cap). Any other remote image, and one that fails, is
 * replaced by its alt text: a stored body never makes the agent's browser fetch from elsewhere.
 * Attachments the body fetched are dropped from the message's list so they are not stored twice.
 */
export async function inlineImages(
  deps: Deps,
  ctx: RequestContext,
  source: ImportSource,
  message: SourceMessage,
  signal: AbortSignal,
): Promise<InlinedMessage> {
  const ids: string[] = [];
  const problems: string[] = [];
  const contentIds = new Set(
    message.attachments.flatMap((a) => (a.contentId ? [a.contentId.replace(/^<|>$/g, "").trim().toLowerCase()] : [])),
  );
  let html = normalizeCidReferences(message.html, contentIds);
  const tags = [...html.matchAll(IMG_RE)].map((m) => m[0]);
  const fetched = new Map<string, string | null>();
  const used = new Set<string>();
  for (const tag of tags) {
    const src = SRC_RE.exec(tag);
    const url = src ? decodeAttr(src[2] ?? src[3] ?? src[4] ?? "").trim() : "";
    if (!/^https?:/i.test(url)) continue;
    let cid = fetched.get(url);
    if (cid === undefined) {
      cid = null;
      const attachment = fetched.size < MAX_INLINE_IMAGES ? (source.inlineImage?.(url) ?? null) : null;
      if (attachment) {
        try {
          const bytes = await source.download(attachment, signal);
          const contentId = `${newId()}@import.desk`;
          const stored = await storeAttachmentAsync(
            ctx,
            { filename: attachment.filename, bytes, inline: true, content_id: contentId },
            deps,
          );
          ids.push(stored.id);
          cid = contentId;
        } catch (error) {
          if (signal.aborted) throw error;
          problems.push(`inline image ${url.slice(0, 200)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      fetched.set(url, cid);
    }
    if (cid) used.add(url);
    const replacement = cid ? tag.replace(SRC_RE, (_w, prefix: string) => `${prefix}"cid:${cid}"`) : altOf(tag);
    html = html.replace(tag, () => replacement);
  }
  const attachments = message.attachments.filter((a) => !used.has(a.url));
  return { message: { ...message, html, attachments }, ids, problems };
}

/**
 * An image URL is one of the account's files when it is on the vendor's own host (the import's
 * base URL: scheme, host and port) under the vendor's file path; it is then fetched like an
 * attachment. Any other URL (another host, or the account's API, which a customer could name in a
 * message to have its answer stored): null.
 */
export function vendorImage(root: string, url: string, filesPath: string): SourceAttachment | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(root).origin || !parsed.pathname.startsWith(filesPath)) return null;
  const name = parsed.searchParams.get("name") ?? parsed.pathname.split("/").filter(Boolean).at(-1) ?? "";
  return { sourceId: parsed.href, filename: name.slice(0, 200) || "image", url: parsed.href, inline: true };
}
