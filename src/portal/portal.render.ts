import type { publicMessagesOf, TicketJson, TicketRow } from "../tickets/tickets.public";
import { escapeHtml as esc } from "../lib/sanitize";
import { LIMITS } from "./portal.forms";
import type { PortalSite } from "./portal.service";

/**
 * The portal's and the contact form's HTML: server-rendered like the help center (its stylesheet,
 * themed by the workspace's brand colour, plus portal.css), landmarks, one h1, a skip link, labels on
 * every control, and every customer or agent text escaped. No script, except the contact form's
 * proof-of-work solver (a file).
 */

type MessageJson = ReturnType<typeof publicMessagesOf>[number];

export type Shell = { title: string; site: PortalSite; signedInAs?: string | null; main: string; script?: string };

const STATUS_WORDS: Record<string, string> = {
  new: "Received",
  open: "Open",
  pending: "Waiting for your reply",
  on_hold: "On hold",
  solved: "Solved",
  closed: "Closed",
};
export const statusWord = (status: string) => STATUS_WORDS[status] ?? status;

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const time = (iso: string) => `<time datetime="${esc(iso)}">${esc(dateFormat.format(new Date(iso)))} UTC</time>`;

export function page({ title, site, signedInAs, main, script }: Shell): string {
  const base = site.url.slice(0, site.url.indexOf("/portal/"));
  const brand = site.brandColor && /^#[0-9a-f]{6}$/i.test(site.brandColor) ? site.brandColor : "";
  const theme = `${base}/help/-/style.css?brand=${encodeURIComponent(brand)}`;
  const help = site.helpCenterUrl ? `<a class="contact" href="${esc(site.helpCenterUrl)}">Help center</a>` : "";
  const account = signedInAs
    ? `<form class="signout" method="post" action="${esc(site.url)}/sign-out"><span class="who">${esc(signedInAs)}</span><button type="submit">Sign out</button></form>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${esc(title)} - ${esc(site.name)}</title>
<link rel="stylesheet" href="${esc(theme)}">
<link rel="stylesheet" href="${esc(base)}/portal/-/portal.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="bar"><a class="home" href="${esc(site.url)}"><span>${esc(site.name)} support</span></a>${help}${account}</div></header>
<main id="main">
${main}
</main>
<footer class="site"><p>${esc(site.name)}</p></footer>${script ? `\n<script src="${esc(script)}" defer></script>` : ""}
</body>
</html>
`;
}

export const errorList = (errors: string[]) =>
  errors.length
    ? `<div class="errors" role="alert" id="form-errors"><p>Please check the form:</p><ul>${errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul></div>`
    : "";

export function signInPage(site: PortalSite, state: { email?: string; errors?: string[] } = {}): Shell {
  const errors = state.errors ?? [];
  return {
    title: "Sign in",
    site,
    main: `<h1>Your requests</h1>
<p>Enter your email address and we will send you a link to see and answer your requests.</p>
${errorList(errors)}
<form class="stack" method="post" action="${esc(site.url)}/sign-in"${errors.length ? ' aria-describedby="form-errors"' : ""}>
<label for="email">Email address</label>
<input type="email" id="email" name="email" autocomplete="email" required maxlength="${LIMITS.email}" value="${esc(state.email ?? "")}">
<button type="submit">Email me a sign-in link</button>
</form>`,
  };
}

export const linkSentPage = (site: PortalSite): Shell => ({
  title: "Check your email",
  site,
  main: `<h1>Check your email</h1>
<p role="status">If the address can receive mail, a sign-in link is on its way. It works once, for 15 minutes.</p>
<p><a href="${esc(site.url)}">Use another address</a></p>`,
});

export const redeemPage = (site: PortalSite, token: string): Shell => ({
  title: "Sign in",
  site,
  main: `<h1>Sign in</h1>
<p>Continue to see your requests to ${esc(site.name)}.</p>
<form method="post" action="${esc(site.url)}/sign-in/${esc(token)}"><button type="submit">Continue</button></form>`,
});

export const deadLinkPage = (site: PortalSite): Shell => ({
  title: "Link expired",
  site,
  main: `<h1>This sign-in link does not work</h1>
<p>Links work once, for 15 minutes. Ask for a new one below.</p>
<p><a href="${esc(site.url)}">Get a new sign-in link</a></p>`,
});

export const messagePage = (site: PortalSite, title: string, text: string, signedInAs?: string | null): Shell => ({
  title,
  site,
  signedInAs,
  main: `<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>\n<p><a href="${esc(site.url)}">Back to your requests</a></p>`,
});

export function ticketsPage(site: PortalSite, email: string, tickets: TicketJson[]): Shell {
  const rows = tickets.length
    ? `<ul class="tickets">${tickets
        .map(
          (t) => `<li><a href="${esc(site.url)}/tickets/${t.number}">${esc(t.subject)}</a>
<p class="meta"><span class="status status-${esc(t.status)}">${esc(statusWord(t.status))}</span> · #${t.number} · updated ${time(t.last_message_at)}</p></li>`,
        )
        .join("\n")}</ul>`
    : `<p>You have no requests yet.</p>`;
  return {
    title: "Your requests",
    site,
    signedInAs: email,
    main: `<div class="heading"><h1>Your requests</h1><a class="button" href="${esc(site.url)}/new">New request</a></div>
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
      const who = mine ? "You" : m.author.user?.name || `${site.name} support`;
      return `<li class="message${mine ? " mine" : ""}"><p class="meta"><strong>${esc(who)}</strong> · ${time(m.created_at)}</p>
<div class="text">${esc(m.body_text)}</div>${attachments(m)}</li>`;
    })
    .join("\n");
  return {
    title: ticket.subject,
    site,
    signedInAs: email,
    main: `<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="${esc(site.url)}">Your requests</a></li><li aria-current="page">#${ticket.number}</li></ol></nav>
<h1>${esc(ticket.subject)}</h1>
<p class="meta">Request #${ticket.number} · <span class="status status-${esc(ticket.status)}">${esc(statusWord(ticket.status))}</span></p>
<h2 class="visually-hidden">Conversation</h2>
<ol class="thread">${items}</ol>
<h2>Reply</h2>
${errorList(errors)}
<form class="stack" method="post" enctype="multipart/form-data" action="${esc(site.url)}/tickets/${ticket.number}"${errors.length ? ' aria-describedby="form-errors"' : ""}>
<label for="message">Your reply</label>
<textarea id="message" name="message" rows="6" maxlength="${LIMITS.message}">${esc(draft)}</textarea>
<label for="file">Attach a file (optional, up to 10 MB)</label>
<input type="file" id="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain">
<button type="submit">Send reply</button>
</form>`,
  };
}

export type RequestDraft = { name?: string; email?: string; subject?: string; message?: string };

function requestFields(draft: RequestDraft, withContact: boolean): string {
  const contact = withContact
    ? `<label for="name">Your name</label>
<input type="text" id="name" name="name" autocomplete="name" required maxlength="${LIMITS.name}" value="${esc(draft.name ?? "")}">
<label for="email">Email address</label>
<input type="email" id="email" name="email" autocomplete="email" required maxlength="${LIMITS.email}" value="${esc(draft.email ?? "")}">
`
    : "";
  return `${contact}<label for="subject">Subject</label>
<input type="text" id="subject" name="subject" required maxlength="${LIMITS.subject}" value="${esc(draft.subject ?? "")}">
<label for="message">How can we help?</label>
<textarea id="message" name="message" rows="8" required maxlength="${LIMITS.message}">${esc(draft.message ?? "")}</textarea>
<label for="file">Attach a file (optional, up to 10 MB)</label>
<input type="file" id="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain">`;
}

export const newRequestPage = (
  site: PortalSite,
  email: string,
  draft: RequestDraft = {},
  errors: string[] = [],
): Shell => ({
  title: "New request",
  site,
  signedInAs: email,
  main: `<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="${esc(site.url)}">Your requests</a></li><li aria-current="page">New request</li></ol></nav>
<h1>New request</h1>
${errorList(errors)}
<form class="stack" method="post" enctype="multipart/form-data" action="${esc(site.url)}/new"${errors.length ? ' aria-describedby="form-errors"' : ""}>
${requestFields(draft, false)}
<button type="submit">Send request</button>
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
    title: "Contact us",
    site,
    script: `${base}/portal/-/contact.js`,
    main: `<h1>Contact us</h1>
<p>Send us a message and we will answer by email. You can follow your request in <a href="${esc(site.url)}">your requests</a>.</p>
${errorList(errors)}
<form class="stack" method="post" enctype="multipart/form-data" action="${esc(action)}" data-challenge="${esc(challenge)}"${errors.length ? ' aria-describedby="form-errors"' : ""}>
${requestFields(draft, true)}
<input type="hidden" name="altcha" value="">
<p class="hint" id="pow-hint">This form checks that it is sent from a browser; it needs JavaScript.</p>
<button type="submit" aria-describedby="pow-hint">Send message</button>
</form>`,
  };
}

export const contactSentPage = (site: PortalSite): Shell => ({
  title: "Message sent",
  site,
  main: `<h1>Thank you</h1>
<p role="status">We received your message and emailed you a confirmation with a link to your request.</p>
<p><a href="${esc(site.url)}">See your requests</a></p>`,
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
