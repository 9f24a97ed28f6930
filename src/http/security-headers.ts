/**
 * Security headers for what the HTTP layer serves itself: the web app (index.html and its files)
 * and the /docs page. Feature pages (src/http/pages.ts) declare their own.
 */

/**
 * The web app's policy. Scripts and styles come only from Desk's own files (Vite emits no inline
 * script; the pre-paint theme script is web/public/theme.js). React sets `style` props through the
 * CSSOM, which CSP does not govern, and stored mail HTML carries no style attributes (src/lib/sanitize.ts),
 * so no 'unsafe-inline' is needed. Images also allow data: (the favicon, inline mail images kept by
 * the sanitizer) and any http(s) origin: remote images in mail load only when the agent asks
 * ("Load images"), and blocking them here would break that choice.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self'",
  // 'self' covers the realtime gateway's same-origin WebSocket (CSP Level 3).
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The web app needs none of these powerful features; denying them stops injected content using them. */
export const PERMISSIONS_POLICY = ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"].join(", ");

/** One year, as browsers' preload lists expect; sent only when Desk's public address is https. */
const HSTS = "max-age=31536000; includeSubDomains";

/** The headers every HTML page and file the HTTP layer serves carries, given its content policy. */
export function securityHeaders(csp: string, https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS_POLICY,
    "cross-origin-opener-policy": "same-origin",
  };
  // Over plain http the header is ignored by browsers anyway; over https it pins the scheme.
  if (https) headers["strict-transport-security"] = HSTS;
  return headers;
}

/** Whether Desk's public address (DESK_BASE_URL) is https, which is when HSTS is sent. */
export const servedOverHttps = (baseUrl: string): boolean => /^https:\/\//i.test(baseUrl);

export function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
