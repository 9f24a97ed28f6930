import type { Deps } from "../deps";
import type { Page } from "../http/pages";
import { deskRateLimiter, type RateLimiter } from "../http/rate-limit";
import { requestMeta } from "../http/request-meta";
import { securityHeaders, servedOverHttps } from "../http/security-headers";
import { t } from "../i18n/i18n";
import { DeskError, rateLimited } from "../lib/errors";
import { acceptContactChallenge, issueContactChallenge, SOLVER_JS } from "./portal.pow";
import { assertSameOrigin, LIMITS, oneLine, readPortalForm, storeCustomerFile } from "./portal.forms";
import {
  contactFormPage,
  contactSentPage,
  deadLinkPage,
  linkSentPage,
  messagePage,
  newRequestPage,
  page,
  PORTAL_CSS,
  redeemPage,
  type RequestDraft,
  type Shell,
  signInPage,
  ticketPage,
  ticketsPage,
} from "./portal.render";
import {
  inLanguage,
  linkIsLive,
  openRequest,
  type PortalSession,
  type PortalSite,
  portalContactOf,
  portalSiteAt,
  portalSiteOfWorkspace,
  portalTicketUrl,
  publicThreadOf,
  redeemSignInLink,
  replyAsContact,
  requestSignInLink,
  SESSION_TTL_MS,
  submitContactForm,
  ticketOfSession,
  ticketsOfSession,
} from "./portal.service";

/**
 * The customer portal (DECISIONS.md "Daily work"): `/portal/{slug}` signs a customer in with a
 * one-time link by email, then lists their tickets, shows one (public messages only), takes replies
 * and new requests. `/portal/-/portal.css` and `/portal/-/contact.js` are its files (no workspace
 * slug starts with a dash); `/portal/-/requests/{workspace_id}/{number}` (the "View your request"
 * link of customer mail) redirects to the ticket's page. Every POST is checked same-origin (CSRF); the session is a sealed,
 * HttpOnly, SameSite=Lax cookie scoped to `/portal/{slug}` (Secure when the base URL is https).
 */
const PORTAL_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Sign-in links asked for, per address (in a workspace) and per client address. */
export const LINK_LIMITS = {
  perAddress: { limit: 3, windowMs: 15 * 60_000 },
  perIp: { limit: 10, windowMs: 15 * 60_000 },
} as const;
/** Replies and new requests per session, and contact form submissions per client address. */
export const WRITE_LIMITS = {
  perSession: { limit: 30, windowMs: 60 * 60_000 },
  contactPerIp: { limit: 10, windowMs: 60 * 60_000 },
} as const;

const COOKIE = "desk_portal";
const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

type Limiters = { address: RateLimiter; ip: RateLimiter; session: RateLimiter; contact: RateLimiter };

function html(shell: Shell, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(page(shell), {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });

function cookieOf(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === COOKIE) return rest.join("=");
  }
  return null;
}

function sessionCookie(deps: Deps, site: PortalSite, value: string, maxAgeSeconds: number): string {
  const path = new URL(site.url).pathname;
  const secure = servedOverHttps(deps.config.baseUrl) ? "; Secure" : "";
  return `${COOKIE}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The session the cookie carries, when it is this site's, unexpired and its contact still there. */
async function sessionOf(deps: Deps, site: PortalSite, request: Request): Promise<PortalSession | null> {
  const sealed = cookieOf(request);
  if (!sealed) return null;
  let data: unknown;
  try {
    data = JSON.parse(deps.secrets.open(decodeURIComponent(sealed)));
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const { w, c, e, x } = data as Record<string, unknown>;
  if (w !== site.workspaceId || typeof c !== "string" || typeof e !== "string" || typeof x !== "number") return null;
  if (x <= deps.clock.now().getTime()) return null;
  const contact = await portalContactOf(deps, w, c);
  return contact ? { workspaceId: w, contactId: c, email: e, locale: contact.locale } : null;
}

/** Checks and counts in one `take`: a shared store cannot let two nodes both pass for the last slot. */
async function spend(limiter: RateLimiter, key: string): Promise<void> {
  const wait = await limiter.take(key);
  if (wait > 0) throw rateLimited(wait);
}

const tryAgain = (site: PortalSite, error: DeskError) =>
  error.status === 429 ? t(site.locale, "portal.try_again") : error.detail;

/** The page that says a post was refused: too many attempts, or why it was not sent. */
const refusedPage = (site: PortalSite, error: DeskError) =>
  messagePage(
    site,
    t(site.locale, error.status === 429 ? "portal.too_many" : "portal.not_sent"),
    tryAgain(site, error),
  );

/** Form errors as messages; a DeskError's own detail otherwise. */
const problemsOf = (error: DeskError) => (error.errors?.length ? error.errors.map((e) => e.message) : [error.detail]);

function validateRequest(site: PortalSite, draft: RequestDraft, withContact: boolean): string[] {
  const errors: string[] = [];
  const say = (key: Parameters<typeof t>[1], max?: number) =>
    errors.push(t(site.locale, key, max === undefined ? undefined : { max }));
  if (withContact) {
    if (!draft.name) say("portal.enter_name");
    else if (draft.name.length > LIMITS.name) say("portal.name_too_long", LIMITS.name);
    if (!draft.email || draft.email.length > LIMITS.email || !EMAIL.test(draft.email)) say("portal.enter_email");
  }
  if (!draft.subject) say("portal.enter_subject");
  else if (draft.subject.length > LIMITS.subject) say("portal.subject_too_long", LIMITS.subject);
  if (!draft.message?.trim()) say("portal.write_message");
  else if (draft.message.length > LIMITS.message) say("portal.message_too_long", LIMITS.message);
  return errors;
}

export function portalPages(deps: Deps): Page[] {
  const limiters: Limiters = {
    address: deskRateLimiter(deps, { name: "portal.link-address", ...LINK_LIMITS.perAddress }),
    ip: deskRateLimiter(deps, { name: "portal.link-ip", ...LINK_LIMITS.perIp }),
    session: deskRateLimiter(deps, { name: "portal.session-writes", ...WRITE_LIMITS.perSession }),
    contact: deskRateLimiter(deps, { name: "portal.contact-ip", ...WRITE_LIMITS.contactPerIp }),
  };
  let headers = { baseUrl: "", values: {} as Readonly<Record<string, string>> };
  const headersNow = () => {
    const baseUrl = deps.config.baseUrl;
    if (headers.baseUrl !== baseUrl)
      headers = {
        baseUrl,
        values: {
          ...securityHeaders(PORTAL_CSP, servedOverHttps(baseUrl)),
          // Sign-in links carry their token in the path: never send it to another site. (Not
          // no-referrer: that makes browsers send `Origin: null` on the pages' own forms.)
          "referrer-policy": "same-origin",
          "x-robots-tag": "noindex, nofollow",
        },
      };
    return headers.values;
  };

  const portal: Portal = { deps, limiters };

  return [
    {
      path: "/portal/",
      methods: ["GET", "HEAD", "POST"],
      get securityHeaders() {
        return headersNow();
      },
      async handle(request, path) {
        try {
          return await route(portal, request, path);
        } catch (error) {
          if (!(error instanceof DeskError) || error.status === 404) throw error;
          const site = await portalSiteAt(deps, path.split("/")[2] ?? "");
          if (!site) throw error;
          return html(refusedPage(inLanguage(site, request), error), error.status, error.headers ?? {});
        }
      },
    },
  ];
}

/** What every portal page shares: the desk and the budgets of sign-in links and writes. */
type Portal = { deps: Deps; limiters: Limiters };

async function route(portal: Portal, request: Request, path: string): Promise<Response> {
  const { deps } = portal;
  let parts: string[];
  try {
    parts = path.slice("/portal/".length).split("/").map(decodeURIComponent);
  } catch {
    return notFoundPage(null);
  }
  if (parts.at(-1) === "") parts.pop();
  const [slug, section, item, ...extra] = parts;
  const post = request.method === "POST";
  if (slug === "-" && !post && item === undefined) {
    if (section === "portal.css") return asset(PORTAL_CSS, "text/css; charset=utf-8");
    if (section === "contact.js") return asset(SOLVER_JS, "text/javascript; charset=utf-8");
  }
  // `/portal/-/requests/{workspace_id}/{number}`: the link in customer mail, which knows no slug.
  if (slug === "-" && section === "requests" && item !== undefined && extra.length === 1 && !post) {
    const target = await portalSiteOfWorkspace(deps, item);
    if (!target || !/^[1-9][0-9]{0,9}$/.test(extra[0]!)) return notFoundPage(null);
    return seeOther(portalTicketUrl(target, Number(extra[0])));
  }
  const found = slug ? await portalSiteAt(deps, slug) : null;
  if (!found || extra.length > 0) return notFoundPage(found && inLanguage(found, request));
  if (post) assertSameOrigin(request, deps.config.baseUrl);
  const session = await sessionOf(deps, found, request);
  const site = inLanguage(found, request, session);
  try {
    if (section === undefined && !post)
      return session
        ? html(ticketsPage(site, session.email, await ticketsOfSession(deps, session)))
        : html(signInPage(site));
    if (section === "sign-in" && item === undefined && post) return await askForLink(portal, request, site);
    if (section === "sign-in" && item !== undefined) {
      if (!post)
        return (await linkIsLive(deps, site, item)) ? html(redeemPage(site, item)) : html(deadLinkPage(site), 404);
      const opened = await redeemSignInLink(deps, site, item);
      if (!opened) return html(deadLinkPage(site), 404);
      const value = encodeURIComponent(
        deps.secrets.seal(
          JSON.stringify({
            w: opened.workspaceId,
            c: opened.contactId,
            e: opened.email,
            x: deps.clock.now().getTime() + SESSION_TTL_MS,
          }),
        ),
      );
      return seeOther(site.url, { "set-cookie": sessionCookie(deps, site, value, SESSION_TTL_MS / 1000) });
    }
    if (section === "sign-out" && item === undefined && post)
      return seeOther(site.url, { "set-cookie": sessionCookie(deps, site, "", 0) });
    // Everything below is the signed-in customer's: without a session, the sign-in page.
    if (!session) return post ? seeOther(site.url) : html(signInPage(site), 200);
    if (section === "tickets" && item !== undefined) return await ticketRoute(portal, request, site, session, item);
    if (section === "new" && item === undefined) return await newRequestRoute(portal, request, site, session);
  } catch (error) {
    if (error instanceof DeskError && error.status === 404) return notFoundPage(site, session?.email);
    throw error;
  }
  return notFoundPage(site, session?.email);
}

function notFoundPage(site: PortalSite | null, email?: string | null): Response {
  if (!site)
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return html(
    messagePage(site, t(site.locale, "portal.not_found"), t(site.locale, "portal.not_found_body"), email),
    404,
  );
}

async function askForLink(portal: Portal, request: Request, site: PortalSite): Promise<Response> {
  const { deps, limiters } = portal;
  const form = await readPortalForm(request);
  const email = oneLine(form.text("email")).toLowerCase();
  if (!email || email.length > LIMITS.email || !EMAIL.test(email))
    return html(signInPage(site, { email, errors: [t(site.locale, "portal.enter_email")] }), 422);
  const ip = requestMeta(request).ip;
  const addressKey = `${site.workspaceId}:${email}`;
  // Both budgets are checked before either is spent, so a refusal costs the other nothing.
  const wait = Math.max(
    await limiters.address.retryAfter(addressKey),
    ip === null ? 0 : await limiters.ip.retryAfter(ip),
  );
  if (wait > 0) throw rateLimited(wait);
  await limiters.address.hit(addressKey);
  if (ip !== null) await limiters.ip.hit(ip);
  await requestSignInLink(deps, site, email);
  return html(linkSentPage(site));
}

async function ticketRoute(portal: Portal, request: Request, site: PortalSite, session: PortalSession, number: string) {
  const { deps, limiters } = portal;
  const ticket = await ticketOfSession(deps, session, number);
  if (request.method !== "POST")
    return html(ticketPage(site, session.email, ticket, await publicThreadOf(deps, ticket)));
  await spend(limiters.session, session.contactId);
  const form = await readPortalForm(request);
  const body = form.text("message").trim();
  const formErrors =
    body.length > LIMITS.message ? [t(site.locale, "portal.reply_too_long", { max: LIMITS.message })] : [];
  if (!body && !form.file) formErrors.push(t(site.locale, "portal.write_reply_or_file"));
  const show = async (errors: string[]) =>
    html(ticketPage(site, session.email, ticket, await publicThreadOf(deps, ticket), errors, body), 422);
  if (formErrors.length) return await show(formErrors);
  let attachmentIds: string[];
  try {
    attachmentIds = await storeCustomerFile(deps, session.workspaceId, form.file, site.locale);
  } catch (error) {
    if (error instanceof DeskError && error.status === 422) return await show(problemsOf(error));
    throw error;
  }
  await replyAsContact(deps, session, ticket, { body, attachmentIds });
  return seeOther(portalTicketUrl(site, ticket.number));
}

async function newRequestRoute(portal: Portal, request: Request, site: PortalSite, session: PortalSession) {
  const { deps, limiters } = portal;
  if (request.method !== "POST") return html(newRequestPage(site, session.email));
  await spend(limiters.session, session.contactId);
  const form = await readPortalForm(request);
  const draft = { subject: oneLine(form.text("subject")), message: form.text("message").trim() };
  const errors = validateRequest(site, draft, false);
  if (errors.length) return html(newRequestPage(site, session.email, draft, errors), 422);
  let attachmentIds: string[];
  try {
    attachmentIds = await storeCustomerFile(deps, session.workspaceId, form.file, site.locale);
  } catch (error) {
    if (error instanceof DeskError && error.status === 422)
      return html(newRequestPage(site, session.email, draft, problemsOf(error)), 422);
    throw error;
  }
  const ticket = await openRequest(deps, session, { subject: draft.subject, body: draft.message, attachmentIds });
  return seeOther(portalTicketUrl(site, ticket.number));
}

const asset = (body: string, type: string) =>
  new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=3600" } });

/**
 * The contact form at `/help/{slug}/contact` (DECISIONS.md "Daily work"): name, email, subject,
 * message and a file; the ALTCHA proof-of-work the page solves; a `portal` ticket and a confirmation
 * mail with the portal link. The help center serves it (its path, headers and theme) and hands the
 * request here; `center` is its workspace. Submissions are limited per client address.
 */
export function contactFormHandler(deps: Deps) {
  const limiter = deskRateLimiter(deps, { name: "portal.contact-form-ip", ...WRITE_LIMITS.contactPerIp });
  return async (request: Request, center: { slug: string; url: string }): Promise<Response> => {
    const found = await portalSiteAt(deps, center.slug);
    if (!found) return new Response("Not found", { status: 404 });
    // The help center's language for this reader: Accept-Language among its languages, else the workspace's.
    const site = inLanguage(found, request);
    const action = `${center.url}/contact`;
    const form = async (draft: RequestDraft = {}, errors: string[] = [], status = 200) =>
      html(contactFormPage(site, action, await issueContactChallenge(deps), draft, errors), status);
    if (request.method !== "POST") {
      if (new URL(request.url).searchParams.has("sent")) return html(contactSentPage(site));
      return form();
    }
    try {
      assertSameOrigin(request, deps.config.baseUrl);
      const ip = requestMeta(request).ip;
      if (ip !== null) await spend(limiter, ip);
      const fields = await readPortalForm(request);
      const draft = {
        name: oneLine(fields.text("name")),
        email: oneLine(fields.text("email")).toLowerCase(),
        subject: oneLine(fields.text("subject")),
        message: fields.text("message").trim(),
      };
      const errors = validateRequest(site, draft, true);
      if (errors.length) return form(draft, errors, 422);
      // Spam without the page's proof-of-work is refused before anything is stored.
      if (!(await acceptContactChallenge(deps, fields.text("altcha"))))
        return form(draft, [t(site.locale, "portal.pow_failed")], 422);
      let attachmentIds: string[];
      try {
        attachmentIds = await storeCustomerFile(deps, site.workspaceId, fields.file, site.locale);
      } catch (error) {
        if (error instanceof DeskError && error.status === 422) return form(draft, problemsOf(error), 422);
        throw error;
      }
      await submitContactForm(deps, site, { ...draft, body: draft.message, attachmentIds });
      return seeOther(`${action}?sent=1`);
    } catch (error) {
      if (!(error instanceof DeskError)) throw error;
      return html(refusedPage(site, error), error.status, error.headers ?? {});
    }
  };
}
