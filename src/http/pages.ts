import { DeskError } from "../lib/errors";
import { errorResponse } from "./respond";

/**
 * A page a feature serves outside /v1 (a help center under `/help/`, a rating page under `/csat/`,
 * `/widget.js`). Its security headers are declared with it and set on every answer it gives, errors
 * included, so no handler can forget them: a page embedded in other sites (the widget's script)
 * needs other headers than a page people open (the help center's CSP, frame rules).
 */
export type Page = {
  /** An exact path (`/widget.js`), or a prefix ending in `/` (`/help/`) that serves everything under it. */
  path: string;
  /** GET (and the HEAD that goes with it) unless stated. */
  methods?: readonly string[];
  /** Set on every answer of the page, over any the handler set. */
  securityHeaders: Readonly<Record<string, string>>;
  handle(request: Request, path: string): Response | Promise<Response>;
};

/** Paths the HTTP layer keeps for itself: no page may take them. */
const RESERVED = ["/v1", "/healthz", "/readyz", "/metrics", "/docs", "/assets/"];

/** Headers every page answer carries unless the page declares its own value. */
const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

export type PageRouter = {
  match(path: string): Page | null;
  serve(page: Page, request: Request, path: string): Promise<Response>;
};

/** Builds the lookup once at start; refuses a page on a reserved path or one declared twice. */
export function createPageRouter(pages: readonly Page[]): PageRouter {
  const exact = new Map<string, Page>();
  const prefixes: Page[] = [];
  for (const page of pages) {
    const path = page.path;
    if (!path.startsWith("/") || RESERVED.some((r) => path === r || path.startsWith(r.endsWith("/") ? r : `${r}/`)))
      throw new Error(`page path ${path} is not allowed: pages live outside ${RESERVED.join(", ")}`);
    if (exact.has(path) || prefixes.some((p) => p.path === path))
      throw new Error(`page path ${path} is declared twice`);
    if (path.endsWith("/") && path.length > 1) prefixes.push(page);
    else exact.set(path, page);
  }
  // Longest prefix first, so `/help/api/` wins over `/help/`.
  prefixes.sort((a, b) => b.path.length - a.path.length);
  return {
    match(path) {
      const page = exact.get(path);
      if (page) return page;
      for (const prefix of prefixes) if (path.startsWith(prefix.path) || `${path}/` === prefix.path) return prefix;
      return null;
    },
    async serve(page, request, path) {
      const methods = page.methods ?? ["GET", "HEAD"];
      let response: Response;
      if (!methods.includes(request.method)) {
        response = errorResponse(new DeskError(405, "method_not_allowed", `${request.method} is not served here.`));
        response.headers.set("allow", methods.join(", "));
      } else {
        try {
          response = await page.handle(request, path);
        } catch (error) {
          if (!(error instanceof DeskError)) throw error;
          response = errorResponse(error);
        }
      }
      for (const [name, value] of Object.entries(BASELINE_HEADERS))
        if (!(name in page.securityHeaders)) response.headers.set(name, value);
      for (const [name, value] of Object.entries(page.securityHeaders)) response.headers.set(name, value);
      return response;
    },
  };
}
