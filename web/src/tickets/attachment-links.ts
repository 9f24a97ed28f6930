import type { Attachment } from "../lib/api/types";

/**
 * Attachment URLs are signed for about five minutes (SPEC: short-lived). The open ticket re-reads
 * its messages before they run out (LINK_REFRESH_MS, see useTimeline), and a click on a link that
 * is about to expire, or an image that fails, asks for fresh ones first: an agent never lands on
 * an expired link's error.
 */
export const LINK_REFRESH_MS = 4 * 60_000;

export const PREVIEW_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** When the signed link stops working (ms since the epoch); 0 when it cannot be read. */
export function linkExpiry(url: string): number {
  try {
    const token = new URL(url, location.href).searchParams.get("token") ?? "";
    const payload = token.split(".")[1] ?? "";
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: unknown };
    return typeof claims.exp === "number" ? claims.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

const MARGIN_MS = 20_000;

/**
 * Opens an attachment in a new tab (the browser renders images and PDFs itself; files are served
 * with nosniff and a sandboxing CSP). A link about to expire is refreshed first: the tab opens at
 * once (so no pop-up blocker stops it) and goes to the fresh link when it arrives.
 */
export function openAttachment(
  event: { preventDefault(): void },
  attachment: Attachment,
  refresh: () => Promise<Attachment | undefined>,
) {
  if (linkExpiry(attachment.url) - Date.now() > MARGIN_MS) return;
  event.preventDefault();
  const tab = window.open("about:blank", "_blank");
  if (tab) tab.opener = null;
  refresh().then(
    (fresh) => {
      if (fresh && tab) tab.location.href = fresh.url;
      else tab?.close();
    },
    () => tab?.close(),
  );
}
