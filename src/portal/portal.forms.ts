import { systemContext } from "../auth/context";
import { storeAttachmentAsync } from "../attachments/attachments.public";
import type { Deps } from "../deps";
import { t } from "../i18n/i18n";
import type { Locale } from "../i18n/locales";
import { DeskError, invalidAt, tooLarge } from "../lib/errors";

/** A customer's file in the portal or the contact form: at most 10 MB, as in the chat widget. */
export const MAX_PORTAL_UPLOAD_BYTES = 10 * 1024 * 1024;
/** A form without a file is small: anything past this is refused before it is read. */
const MAX_TEXT_FORM_BYTES = 64 * 1024;
/** Room for the multipart boundaries and part headers around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

export const LIMITS = { name: 200, email: 320, subject: 200, message: 20_000 } as const;

/** What a customer may send, by the type its content shows, and the names such files may carry. */
const ALLOWED: Record<string, readonly string[]> = {
  "image/png": ["png"],
  "image/jpeg": ["jpg", "jpeg"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
  "text/plain": ["txt", "log", "csv", "md"],
};

export type PortalForm = { text(name: string): string; file: File | null };

/**
 * Refuses a cross-site post (CSRF): a browser says where a form was sent from, in `Sec-Fetch-Site`
 * (which pages cannot set) and in `Origin`; a post from another site never reaches the handler.
 * Clients that are no browser send neither and carry no customer's cookie.
 */
export function assertSameOrigin(request: Request, baseUrl: string): void {
  const refused = () => new DeskError(403, "cross_site_request", "Forms are accepted only from this site's own pages.");
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) {
    if (site !== "same-origin" && site !== "none") throw refused();
    return;
  }
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(baseUrl).origin && origin !== new URL(request.url).origin) throw refused();
}

/** Reads a urlencoded or multipart form while the body streams, capped; a file only in field `file`. */
export async function readPortalForm(request: Request): Promise<PortalForm> {
  const type = request.headers.get("content-type") ?? "";
  const multipart = type.startsWith("multipart/form-data");
  if (!multipart && !type.startsWith("application/x-www-form-urlencoded"))
    throw new DeskError(415, "unsupported_media_type", "Send the form as a browser does.");
  const cap = multipart ? MAX_PORTAL_UPLOAD_BYTES + ENVELOPE_BYTES : MAX_TEXT_FORM_BYTES;
  if (Number(request.headers.get("content-length") ?? 0) > cap) throw tooLarge("Files may be at most 10 MB.");
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        await reader.cancel();
        throw tooLarge("Files may be at most 10 MB.");
      }
      chunks.push(value);
    }
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    throw invalidAt("body", "The form could not be read.");
  }
  const file = form.get("file");
  return {
    text: (name) => {
      const value = form.get(name);
      return typeof value === "string" ? value : "";
    },
    file: file instanceof File && file.size > 0 ? file : null,
  };
}

/** A one-line field: trimmed, control characters (a header's CR/LF) folded to spaces. */
export const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

/** The type from the first bytes; null for anything not allowed (markup renamed .txt included). */
function sniff(head: Uint8Array): string | null {
  const at = (offset: number, bytes: number[]) => bytes.every((v, i) => head[offset + i] === v);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (at(0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (at(0, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return "image/webp";
  if (at(0, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  if (head.includes(0)) return null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return /^\s*<(!doctype|html|svg|\?xml|script)/i.test(text) ? null : "text/plain";
  } catch {
    return null;
  }
}

/**
 * Checks the customer's file (content decides the type; a name claiming another type is refused as
 * disguised) and stores it unattached; the caller attaches it to the message it writes.
 */
export async function storeCustomerFile(
  deps: Deps,
  workspaceId: string,
  file: File | null,
  locale: Locale,
): Promise<string[]> {
  if (!file) return [];
  if (file.size > MAX_PORTAL_UPLOAD_BYTES) throw tooLarge("Files may be at most 10 MB.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniff(bytes.subarray(0, 4096));
  const refuse = (detail: string) =>
    new DeskError(422, "unsupported_file", detail, [{ location: "body.file", message: detail }]);
  // The page shows the detail to the customer, in the page's language.
  if (!type) throw refuse(t(locale, "portal.file_unsupported"));
  const extension = /\.([a-z0-9]{1,8})$/i.exec(file.name)?.[1]?.toLowerCase();
  if (extension && !ALLOWED[type]!.includes(extension))
    throw refuse(t(locale, "portal.file_disguised", { type, extension }));
  const name = oneLine(file.name).slice(0, 200) || "file";
  const row = await storeAttachmentAsync(
    systemContext(workspaceId),
    { filename: name, bytes, content_type: type },
    deps,
  );
  return [row.id];
}
