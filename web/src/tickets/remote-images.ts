/**
 * Remote images in mail (tracking pixels tell the sender when and where a message was read) are
 * blocked until the agent loads them, for one message or always for a sender. The choice per
 * sender is kept in this browser's localStorage (`desk.remote_images.senders`), not on the server:
 * it is one agent's privacy preference. Inline `cid:` images (served by Desk as attachments) and
 * `data:` images are not remote and always show.
 */
const SENDERS_KEY = "desk.remote_images.senders";

export function senderAllowed(email: string): boolean {
  if (!email) return false;
  return readSenders().includes(email.toLowerCase());
}

export function allowSender(email: string): void {
  const senders = readSenders();
  if (!email || senders.includes(email.toLowerCase())) return;
  localStorage.setItem(SENDERS_KEY, JSON.stringify([...senders, email.toLowerCase()].slice(-1000)));
}

function readSenders(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(SENDERS_KEY) ?? "[]");
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The body with remote image sources moved aside (`data-remote-src`), so nothing is fetched until
 * the agent asks. Parsed in an inert document (DOMParser loads no images). `trusted` lists origins
 * that are Desk itself (this page and the message's own attachment links).
 */
export function withoutRemoteImages(html: string, trusted: string[]): { html: string; blocked: number } {
  if (!/<img/i.test(html)) return { html, blocked: 0 };
  const doc = new DOMParser().parseFromString(html, "text/html");
  let blocked = 0;
  for (const img of Array.from(doc.querySelectorAll("img"))) {
    const src = img.getAttribute("src") ?? "";
    if (!/^https?:/i.test(src.trim())) continue;
    let origin = "";
    try {
      origin = new URL(src.trim()).origin;
    } catch {
      // An unparsable URL is dropped with the others.
    }
    if (origin && trusted.includes(origin)) continue;
    img.setAttribute("data-remote-src", src);
    img.removeAttribute("src");
    img.classList.add("remote-blocked");
    blocked++;
  }
  return { html: blocked ? doc.body.innerHTML : html, blocked };
}

/** Origins that are Desk's own for a message: the page and its attachment links. */
export function trustedOrigins(attachmentUrls: string[]): string[] {
  const out = new Set<string>([location.origin]);
  for (const url of attachmentUrls) {
    try {
      out.add(new URL(url, location.href).origin);
    } catch {
      // not a URL: nothing to trust
    }
  }
  return [...out];
}
