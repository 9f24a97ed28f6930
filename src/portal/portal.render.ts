import type { publicMessagesOf, TicketJson, TicketRow } from "../tickets/tickets.public";
import { formatDate, type MessageKey, type MessageValues, t } from "../i18n/i18n";
import type { Locale } from "../i18n/locales";
import { escapeHtml as esc } from "../lib/sanitize";
import { LIMITS } from "./portal.forms";
import type { PortalSite } from "./portal.service";

/**
 * The portal's and the contact form's HTML: server-rendered like the help center (its stylesheet,
 * themed by the workspace's brand colour, plus portal.css), landmarks, one h1, a skip link, labels on
 * every control, and every customer or agent text escaped. No script, except the contact form's
 * proof-of-work solver (a file).
 */

type MessageJson = Awaited<ReturnType<typeof publicMessagesOf>>[number];

export type Shell = { title: string; site: PortalSite; signedInAs?: string | null; main: string; script?: string };

const STATUS_WORDS: Record<string, MessageKey> = {
  new: "portal.status_new",
  open: "portal.status_open",
  pending: "portal.status_pending",
  on_hold: "portal.status_on_hold",
  solved: "portal.status_solved",
  closed: "portal.status_closed",
};
export const statusWord = (locale: Locale, status: string) => {
  const key = STATUS_WORDS[status];
  return key ? t(locale, key) : status;
};

/** A message of the page's language, escaped for HTML (values are customer or agent text). */
const say = (site: PortalSite, key: MessageKey, values?: MessageValues) => esc(t(site.locale, key, values));

/** A message with a link in it: `{link}` becomes the anchor, so each language places it where it reads well. */
function sayWithLink(site: PortalSite, key: MessageKey, href: string, text: MessageKey): string {
  const [before = "", after = ""] = t(site.locale, key, { link: "\u0000" }).split("\u0000");
  return `${esc(before)}<a href="${esc(href)}">${say(site, text)}</a>${esc(after)}`;
}

const time = (site: PortalSite, iso: string) =>
  `<time datetime="${esc(iso)}">${esc(formatDate(site.locale, iso, { time: true }))} UTC</time>`;

export function page({ title, site, signedInAs, main, script }: Shell): string {
  const base = site.url.slice(0, site.url.indexOf("/portal/"));
  const brand = site.brandColor && /^#[0-9a-f]{6}$/i.test(site.brandColor) ? site.brandColor : "";
  const theme = `${base}/help/-/style.css?brand=${encodeURIComponent(brand)}`;
  const help = site.helpCenterUrl
    ? `<a class="contact" href="${esc(site.helpCenterUrl)}">${say(site, "portal.help_center")}</a>`
    : "";
  const account = signedInAs
    ? `<form class="signout" method="post" action="${esc(site.url)}/sign-out"><span class="who">${esc(signedInAs)}</span><button type="submit">${say(site, "portal.sign_out")}</button></form>`
    : "";
  return `<!doctype html>
<html lang="${esc(site.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${esc(title)} - ${esc(site.name)}</title>
<link rel="stylesheet" href="${esc(theme)}">
<link rel="stylesheet" href="${esc(base)}/portal/-/portal.css">
</head>
<body>
<a class="skip" href="#main">${say(site, "portal.skip")}</a>
<header class="site"><div class="bar"><a class="home" href="${esc(site.url)}"><span>${say(site, "portal.site_name", { name: site.name })}</span></a>${help}${account}</div></header>
<main id="main">
${main}
</main>
<footer class="site"><p>${esc(site.name)}</p></footer>${script ? `\n<script src="${esc(script)}" defer></script>` : ""}
</body>
</html>
`;
}

export const errorList = (site: PortalSite, errors: string[]) =>
  errors.length
    ? `<div class="errors" role="alert" id="form-errors"><p>${say(site, "portal.check_form")}</p><ul>${errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul></div>`
    : "";

export function signInPage(site: PortalSite, state: { email?: string; errors?: string[] } = {}): Shell {
  const errors = state.errors ?? [];
  return {
    title: t(site.locale, "portal.sign_in"),
    site,
    main: `<h1>${say(site, "portal.your_requests")}</h1>
<p>${say(site, "portal.sign_in_intro")}</p>
${errorList(site, errors)}
<form class="stack" method="post" action="${esc(site.url)}/sign-in"${errors.length ? ' aria-describedby="form-errors"' : ""}>
<label for="email">${say(site, "portal.email")}</label>
<input type="email" id="email" name="email" autocomplete="email" required maxlength="${LIMITS.email}" value="${esc(state.email ?? "")}">
<button type="submit">${say(site, "portal.email_me_link")}</button>
</form>`,
  };
}

export const linkSentPage = (site: PortalSite): Shell => ({
  title: t(site.locale, "portal.check_email"),
  site,
  main: `<h1>${say(site, "portal.check_email")}</h1>
<p role="status">${say(site, "portal.link_sent")}</p>
<p><a href="${esc(site.url)}">${say(site, "portal.use_another")}</a></p>`,
});

export const redeemPage = (site: PortalSite, token: string): Shell => ({
  title: t(site.locale, "portal.sign_in"),
  site,
  main: `<h1>${say(site, "portal.sign_in")}</h1>
<p>${say(site, "portal.continue_to", { workspace: site.name })}</p>
<form method="post" action="${esc(site.url)}/sign-in/${esc(token)}"><button type="submit">${say(site, "portal.continue")}</button></form>`,
});

export const deadLinkPage = (site: PortalSite): Shell => ({
  title: t(site.locale, "portal.link_expired"),
  site,
  main: `<h1>${say(site, "portal.dead_link_heading")}</h1>
<p>${say(site, "portal.dead_link_body")}</p>
<p><a href="${esc(site.url)}">${say(site, "portal.new_link")}</a></p>`,
});

export const messagePage = (site: PortalSite, title: string, text: string, signedInAs?: string | null): Shell => ({
  title,
  site,
  signedInAs,
  main: `<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>\n<p><a href="${esc(site.url)}">${say(site, "portal.back")}</a></p>`,
});

export function ticketsPage(site: PortalSite, email: string, tickets: TicketJson[]): Shell {
  const rows = tickets.length
    ? `<ul class="tickets">${tickets
        .map(
          (ticket) => `<li><a href="${esc(site.url)}/tickets/${ticket.number}">${esc(ticket.subject)}</a>
<p class="meta"><span class="status status-${esc(ticket.status)}">${esc(statusWord(site.locale, ticket.status))}</span> · #${ticket.number} · ${say(site, "portal.updated")} ${time(site, ticket.last_message_at)}</p></li>`,
        )
        .join("\n")}</ul>`
    : `<p>${say(site, "portal.no_requests")}</p>`;
  return {
    title: t(site.locale, "portal.your_requests"),
    site,
    signedInAs: email,
    main: `<div class="heading"><h1>${say(site, "portal.your_requests")}</h1><a class="button" href="${esc(site.url)}/new">${say(site, "portal.new_request")}</a></div>
${rows}`,
  };
}

function attachments(message: MessageJson): string {
  if (message.attachments.length === 0) return "";
  return `<ul class="files">${message.attachments
    .filter((a) => !a.inline)
    .map((a) => `<li><a href="${esc(a.url)}" download>${esc(a.filename)}</a></li>`)
    .join("")}</ul>`;
}

export function ticketPage(
  site: PortalSite,
  email: string,
  ticket: TicketRow,
  thread: MessageJson[],
  errors: string[] = [],
  draft = "",
): Shell {
  const items = thread
    .map((m) => {
      const mine = m.author.type === "contact";
      const who = mine
        ? t(site.locale, "portal.you")
        : m.author.user?.name || t(site.locale, "portal.site_name", { name: site.name });
      return `<li class="message${mine ? " mine" : ""}"><p class="meta"><strong>${esc(who)}</strong> · ${time(site, m.created_at)}</p>
<div class="text">${esc(m.body_text)}</div>${attachments(m)}</li>`;
    })
    .join("\n");
  return {
    title: ticket.subject,
    site,
    signedInAs: email,
    main: `<nav class="crumbs" aria-label="${say(site, "portal.breadcrumb")}"><ol><li><a href="${esc(site.url)}">${say(site, "portal.your_requests")}</a></li><li aria-current="page">#${ticket.number}</li></ol></nav>
<h1>${esc(ticket.subject)}</h1>
<p class="meta">${say(site, "portal.request_number", { number: ticket.number })} · <span class="status status-${esc(ticket.status)}">${esc(statusWord(site.locale, ticket.status))}</span></p>
<h2 class="visually-hidden">${say(site, "portal.conversation")}</h2>
<ol class="thread">${items}</ol>
<h2>${say(site, "portal.reply")}</h2>
${errorList(site, errors)}
<form class="stack" method="post" enctype="multipart/form-data" action="${esc(site.url)}/tickets/${ticket.number}"${errors.length ? ' aria-describedby="form-errors"' : ""}>
<label for="message">${say(site, "portal.your_reply")}</label>
<textarea id="message" name="message" rows="6" maxlength="${LIMITS.message}">${esc(draft)}</textarea>
<label for="file">${say(site, "portal.attach")}</label>
<input type="file" id="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain">
<button type="submit">${say(site, "portal.send_reply")}</button>
</form>`,
  };
}

export type RequestDraft = { name?: string; email?: string; subject?: string; message?: string };

function requestFields(site: PortalSite, draft: RequestDraft, withContact: boolean): string {
  const contact = withContact
    ? `<label for="name">${say(site, "portal.your_name")}</label>
<input type="text" id="name" name="name" autocomplete="name" required maxlength="${LIMITS.name}" value="${esc(draft.name ?? "")}">
<label for="email">${say(site, "portal.email")}</label>
<input type="email" id="email" name="email" autocomplete="email" required maxlength="${LIMITS.email}" value="${esc(draft.email ?? "")}">
`
    : "";
  return `${contact}<label for="subject">${say(site, "portal.subject")}</label>
<input type="text" id="subject" name="subject" required maxlength="${LIMITS.subject}" value="${esc(draft.subject ?? "")}">
<label for="message">${say(site, "portal.how_can_we_help")}</label>
<textarea id="message" name="message" rows="8" required maxlength="${LIMITS.message}">${esc(draft.message ?? "")}</textarea>
<label for="file">${say(site, "portal.attach")}</label>
<input type="file" id="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain">`;
}

export const newRequestPage = (
  site: PortalSite,
  email: string,
  draft: RequestDraft = {},
  errors: string[] = [],
): Shell => ({
  title: t(site.locale, "portal.new_request"),
  site,
  signedInAs: email,
  main: `<nav class="crumbs" aria-label="${say(site, "portal.breadcrumb")}"><ol><li><a href="${esc(site.url)}">${say(site, "portal.your_requests")}</a></li><li aria-current="page">${say(site, "portal.new_request")}</li></ol></nav>
<h1>${say(site, "portal.new_request")}</h1>
${errorList(site, errors)}
<form class="stack" method="post" enctype="multipart/form-data" action="${esc(site.url)}/new"${errors.length ? ' aria-describedby="form-errors"' : ""}>
${requestFields(site, draft, false)}
<button type="submit">${say(site, "portal.send_request")}</button>
</form>`,
});

/** The contact form: `action` its own address; `challenge` the proof-of-work the page's script solves. */
export function contactFormPage(
  site: PortalSite,
  action: string,
  challenge: string,
  draft: RequestDraft = {},
  errors: string[] = [],
): Shell {
  const base = site.url.slice(0, site.url.indexOf("/portal/"));
  return {
    title: t(site.locale, "portal.contact_us"),
    site,
    script: `${base}/portal/-/contact.js`,
    main: `<h1>${say(site, "portal.contact_us")}</h1>
<p>${sayWithLink(site, "portal.contact_intro", site.url, "portal.your_requests_link")}</p>
${errorList(site, errors)}
<form class="stack" method="post" enctype="multipart/form-data" action="${esc(action)}" data-challenge="${esc(challenge)}"${errors.length ? ' aria-describedby="form-errors"' : ""}>
${requestFields(site, draft, true)}
<input type="hidden" name="altcha" value="">
<p class="hint" id="pow-hint">${say(site, "portal.pow_hint")}</p>
<button type="submit" aria-describedby="pow-hint">${say(site, "portal.send_message")}</button>
</form>`,
  };
}

export const contactSentPage = (site: PortalSite): Shell => ({
  title: t(site.locale, "portal.message_sent"),
  site,
  main: `<h1>${say(site, "portal.thank_you")}</h1>
<p role="status">${say(site, "portal.received")}</p>
<p><a href="${esc(site.url)}">${say(site, "portal.see_requests")}</a></p>`,
});

/** The portal's own rules over the help center's stylesheet; colours meet 4.5:1 on white. */
export const PORTAL_CSS = `form.stack{display:flex;flex-direction:column;gap:6px;max-width:640px}
form.stack label{font-weight:600;margin-top:10px}
form.stack input[type=text],form.stack input[type=email],form.stack textarea{font:inherit;padding:8px 12px;border:1px solid #6e7781;border-radius:6px;color:#1f2328;background:#fff;min-height:44px;width:100%}
form.stack input[type=file]{font:inherit;min-height:44px}
textarea:focus-visible,input:focus-visible,button:focus-visible,a.button:focus-visible{outline:3px solid var(--link);outline-offset:2px}
main button,a.button{font:inherit;font-weight:600;padding:10px 18px;border-radius:6px;border:0;background:var(--brand);color:var(--on-brand);cursor:pointer;min-height:44px;text-decoration:none;display:inline-flex;align-items:center;justify-content:center;align-self:flex-start;margin-top:12px}
header.site form.signout{margin-left:auto;display:flex;align-items:center;gap:8px;flex-wrap:wrap}
header.site .who{overflow-wrap:anywhere}
.heading{display:flex;align-items:center;justify-content:space-between;gap:12px;flex-wrap:wrap}
.heading a.button{margin-top:0}
ul.tickets{list-style:none;padding:0;margin:0}
ul.tickets li{padding:12px 0;border-bottom:1px solid #d0d7de}
ul.tickets a{font-weight:600;overflow-wrap:anywhere}
ul.tickets p{margin:4px 0 0}
.status{font-weight:600;color:#1f2328}
ol.thread{list-style:none;padding:0;margin:0}
ol.thread li.message{border:1px solid #d0d7de;border-radius:8px;padding:12px 16px;margin:0 0 12px}
ol.thread li.mine{background:#f6f8fa}
ol.thread .meta{margin:0 0 6px}
ol.thread .text{white-space:pre-wrap;overflow-wrap:anywhere}
ul.files{margin:8px 0 0;padding-left:20px}
.errors{border:2px solid #b42318;border-radius:8px;padding:8px 16px;color:#b42318;background:#fff;max-width:640px}
.hint{color:#57606a;font-size:.95rem;margin:8px 0 0}
h1{overflow-wrap:anywhere}
`;
