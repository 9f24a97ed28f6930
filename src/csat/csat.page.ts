import type { Deps } from "../deps";
import type { Page } from "../http/pages";
import { DeskError } from "../lib/errors";
import { t } from "../i18n/i18n";
import { acceptedLanguages, DEFAULT_LOCALE, type Locale, negotiateLocale, SHIPPED_LOCALES } from "../i18n/locales";
import { escapeHtml } from "../lib/sanitize";
import { requestMeta } from "../http/request-meta";
import { spendRatingBudget } from "./csat.limits";
import { CSAT_COMMENT_MAX } from "./csat.schemas";
import { contactLocaleOf, openRequestOf, rateTicket } from "./csat.service";

/**
 * The rating page customers reach from the CSAT email: `/csat/{token}` (optionally `?score=N`, the
 * score the customer clicked in the mail, preselected). Server-rendered, no JavaScript: reading it
 * never records (link scanners fetch it); the form POSTs to the same path, which records and
 * redirects back (303) to the page, now thanking and offering to add a comment or change the score.
 * Styles come from `/csat/assets/csat.css?brand=<hex>`, so the CSP needs no inline style.
 */

type Score = 1 | 2 | 3 | 4 | 5;
const scoreWord = (locale: Locale, score: number) => t(locale, `csat.score_${score as Score}`);
/** The page's language: the customer's browser (Accept-Language), else `fallback` (the workspace's). */
const pageLocale = (request: Request, fallback: Locale): Locale =>
  negotiateLocale(acceptedLanguages(request.headers.get("accept-language")), SHIPPED_LOCALES, fallback);

const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = {
  "content-security-policy": CSP,
  "x-frame-options": "DENY",
  // The token is in the URL: never send it to another site.
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "cross-origin-opener-policy": "same-origin",
};

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
const HEX = /^(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const DEFAULT_BRAND = "1f6feb";

function html(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

function layout(locale: Locale, title: string, brand: string, main: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/csat/assets/csat.css?brand=${brand}">
</head>
<body>
<main class="card">
${main}
</main>
</body>
</html>`;
}

function notFoundPage(request: Request): Response {
  const locale = pageLocale(request, DEFAULT_LOCALE);
  return html(
    layout(
      locale,
      t(locale, "csat.not_found_title"),
      DEFAULT_BRAND,
      `<h1>${escapeHtml(t(locale, "csat.not_found_heading"))}</h1>
<p>${escapeHtml(t(locale, "csat.not_found_body"))}</p>`,
    ),
    404,
  );
}

/** `error`: a message of the page's catalogue, filled in the page's language. */
type FormState = {
  score: number | null;
  comment: string;
  error: null | { key: "csat.form_too_large" | "csat.choose_score" | "csat.comment_too_long"; max?: number };
};

async function ratingPage(
  request: Request,
  token: string,
  deps: Deps,
  state: FormState | null,
  preselect: number | null,
): Promise<Response> {
  let open: Awaited<ReturnType<typeof openRequestOf>>;
  try {
    open = await openRequestOf(deps.db, token, deps.clock.now().toISOString());
  } catch (error) {
    if (error instanceof DeskError && error.status === 404) return notFoundPage(request);
    throw error;
  }
  // The language of the mail that brought the customer here, else their browser's, else the workspace's.
  const locale =
    (await contactLocaleOf(deps.db, open.request.workspaceId, open.ticket.contactId)) ??
    pageLocale(request, open.workspace.locale);
  const say = (key: Parameters<typeof t>[1], values?: Parameters<typeof t>[2]) => escapeHtml(t(locale, key, values));
  const brand = (open.workspace.brandColor ?? `#${DEFAULT_BRAND}`).replace(/^#/, "");
  const rated = open.request.score;
  const selected = state?.score ?? preselect ?? rated;
  const comment = state?.comment ?? open.request.comment ?? "";
  const ws = escapeHtml(open.workspace.name);
  const radios = [5, 4, 3, 2, 1]
    .map(
      (
        score,
      ) => `<input type="radio" id="score-${score}" name="score" value="${score}"${selected === score ? " checked" : ""}>
<label for="score-${score}"><span class="num">${score}</span> ${escapeHtml(scoreWord(locale, score))}</label>`,
    )
    .join("\n");
  const thanks =
    rated !== null && !state
      ? `<p class="thanks" role="status">${say("csat.thanks", { score: rated, word: scoreWord(locale, rated) })}${
          open.request.comment ? "" : ` ${say("csat.add_comment")}`
        }</p>`
      : "";
  const error = state?.error
    ? `<p class="error" role="alert" id="form-error">${say(state.error.key, { max: state.error.max ?? 0 })}</p>`
    : "";
  const main = `<p class="brand">${ws}</p>
<h1>${say("csat.heading")}</h1>
<p>${say("csat.intro", { number: open.ticket.number, subject: open.ticket.subject })}</p>
${thanks}${error}
<form method="post" action="/csat/${token}"${state?.error ? ' aria-describedby="form-error"' : ""}>
<fieldset>
<legend>${say("csat.your_rating")}</legend>
<div class="scores">
${radios}
</div>
</fieldset>
<label for="comment" class="comment-label">${say("csat.comment")}</label>
<textarea id="comment" name="comment" rows="4" maxlength="${CSAT_COMMENT_MAX}">${escapeHtml(comment)}</textarea>
<button type="submit">${say(rated === null ? "csat.send" : "csat.update")}</button>
</form>`;
  return html(
    layout(locale, t(locale, "csat.title", { workspace: open.workspace.name }), brand, main),
    state?.error ? 422 : 200,
  );
}

function tooManyPage(request: Request, error: DeskError): Response {
  const locale = pageLocale(request, DEFAULT_LOCALE);
  const response = html(
    layout(
      locale,
      t(locale, "csat.too_many_title"),
      DEFAULT_BRAND,
      `<h1>${escapeHtml(t(locale, "csat.too_many_title"))}</h1>
<p>${escapeHtml(t(locale, "csat.too_many_body"))}</p>`,
    ),
    429,
  );
  for (const [name, value] of Object.entries(error.headers ?? {})) response.headers.set(name, value);
  return response;
}

async function recordFromForm(token: string, request: Request, deps: Deps): Promise<Response> {
  try {
    await spendRatingBudget(deps, requestMeta(request).ip, token);
  } catch (error) {
    if (error instanceof DeskError && error.status === 429) return tooManyPage(request, error);
    throw error;
  }
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > 32_768)
    return await ratingPage(
      request,
      token,
      deps,
      { score: null, comment: "", error: { key: "csat.form_too_large" } },
      null,
    );
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return await ratingPage(
      request,
      token,
      deps,
      { score: null, comment: "", error: { key: "csat.choose_score" } },
      null,
    );
  }
  const rawScore = form.get("score");
  const rawComment = form.get("comment");
  const comment = typeof rawComment === "string" ? rawComment : "";
  const score = typeof rawScore === "string" && /^[1-5]$/.test(rawScore) ? Number(rawScore) : null;
  if (score === null)
    return await ratingPage(request, token, deps, { score: null, comment, error: { key: "csat.choose_score" } }, null);
  if (comment.length > CSAT_COMMENT_MAX)
    return await ratingPage(
      request,
      token,
      deps,
      { score, comment, error: { key: "csat.comment_too_long", max: CSAT_COMMENT_MAX } },
      null,
    );
  try {
    await rateTicket(token, { score, comment }, deps);
  } catch (error) {
    if (error instanceof DeskError && error.status === 404) return notFoundPage(request);
    throw error;
  }
  return new Response(null, { status: 303, headers: { location: `/csat/${token}`, "cache-control": "no-store" } });
}

/** Relative luminance (WCAG) of a hex colour. */
function luminance(hex: string): number {
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const channel = (i: number) => {
    const v = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/**
 * The page's stylesheet in the workspace's brand colour. The brand fills the chosen score and the
 * button, with black or white text, whichever contrasts more; body text stays dark on white, so
 * contrast holds whatever colour a workspace picks.
 */
function stylesheet(brandHex: string): string {
  const brand = `#${brandHex}`;
  const on = luminance(brandHex) > 0.179 ? "#111111" : "#ffffff";
  return `*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f3f4f6;line-height:1.5}
body{margin:0;padding:24px 16px}
.card{max-width:560px;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-top:6px solid ${brand};border-radius:10px;padding:24px}
.brand{margin:0;font-weight:600;color:#57606a}
h1{font-size:1.5rem;margin:.25rem 0 .75rem}
fieldset{border:0;margin:16px 0;padding:0}
legend{font-weight:600;margin-bottom:8px}
.scores{display:flex;flex-wrap:wrap;gap:8px}
.scores input{position:absolute;opacity:0;width:1px;height:1px}
.scores label{display:inline-flex;align-items:center;gap:6px;min-height:44px;padding:8px 14px;border:2px solid #8c959f;border-radius:8px;cursor:pointer;background:#fff;color:#1f2328}
.scores .num{font-weight:700}
.scores input:checked+label{background:${brand};border-color:${brand};color:${on}}
.scores input:focus-visible+label{outline:3px solid #1f2328;outline-offset:2px}
.comment-label{display:block;font-weight:600;margin:8px 0 4px}
textarea{width:100%;font:inherit;padding:8px;border:1px solid #6e7781;border-radius:6px}
textarea:focus-visible,button:focus-visible{outline:3px solid #1f2328;outline-offset:2px}
button{margin-top:12px;min-height:44px;padding:8px 18px;font:inherit;font-weight:600;border:0;border-radius:8px;background:${brand};color:${on};cursor:pointer}
.thanks{padding:10px 12px;border-radius:6px;background:#dafbe1;color:#116329}
.error{padding:10px 12px;border-radius:6px;background:#ffebe9;color:#82071e}
@media (prefers-color-scheme:dark){html{background:#0d1117;color:#e6edf3}.card{background:#161b22;border-color:#30363d;border-top-color:${brand}}.brand{color:#9198a1}.scores label{background:#161b22;color:#e6edf3;border-color:#9198a1}textarea{background:#0d1117;color:#e6edf3;border-color:#9198a1}.scores input:focus-visible+label,textarea:focus-visible,button:focus-visible{outline-color:#e6edf3}.thanks{background:#033a16;color:#aff5b4}.error{background:#4c0519;color:#ffc1c0}}
`;
}

export function csatPages(deps: Deps): Page[] {
  return [
    {
      path: "/csat/",
      methods: ["GET", "HEAD", "POST"],
      securityHeaders: HEADERS,
      async handle(request, path) {
        const rest = path.slice("/csat/".length);
        const url = new URL(request.url);
        if (rest === "assets/csat.css") {
          if (request.method === "POST") return notFoundPage(request);
          const brand = url.searchParams.get("brand") ?? DEFAULT_BRAND;
          return new Response(stylesheet(HEX.test(brand) ? brand : DEFAULT_BRAND), {
            headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=86400" },
          });
        }
        if (!TOKEN.test(rest)) return notFoundPage(request);
        if (request.method === "POST") return recordFromForm(rest, request, deps);
        const wanted = url.searchParams.get("score");
        const preselect = wanted && /^[1-5]$/.test(wanted) ? Number(wanted) : null;
        return await ratingPage(request, rest, deps, null, preselect);
      },
    },
  ];
}
