import type { Deps } from "../deps";
import type { Page } from "../http/pages";
import { escapeHtml } from "../lib/sanitize";
import { mailUnseenChatRepliesNow } from "./widget.chat-mail";
import { CHAT_EMAIL_PATH, confirmationOfToken, markChatEmailConfirmed } from "./widget.email-confirm";

/**
 * `/chat-email/{token}`: the link of a chat's email confirmation. Reading it changes nothing (mail
 * scanners fetch links); the page's button POSTs to the same path, which confirms the address and
 * mails the chat's unseen replies. Styled by the CSAT page's neutral stylesheet.
 */

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

const HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "cache-control": "no-store",
};

function page(title: string, main: string, status = 200): Response {
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/csat/assets/csat.css">
</head>
<body>
<main class="card">
${main}
</main>
</body>
</html>`;
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

const gone = () =>
  page(
    "Link not found",
    "<h1>This link does not work</h1><p>It may have expired (links work for 7 days) or been mistyped.</p>",
    404,
  );

export function chatEmailConfirmPage(deps: Deps): Page {
  return {
    path: CHAT_EMAIL_PATH,
    methods: ["GET", "HEAD", "POST"],
    securityHeaders: HEADERS,
    async handle(request, path) {
      const token = path.slice(CHAT_EMAIL_PATH.length);
      if (!TOKEN.test(token)) return gone();
      const now = deps.clock.now();
      const confirmation = await confirmationOfToken(deps.db, token, now);
      if (!confirmation) return gone();
      const email = escapeHtml(confirmation.email);
      if (request.method === "POST") {
        if (!confirmation.confirmed) {
          await markChatEmailConfirmed(deps.db, confirmation.id, now);
          await mailUnseenChatRepliesNow(deps, confirmation.workspaceId, confirmation.ticketId);
        }
        return page(
          "Email confirmed",
          `<h1>Thank you</h1><p role="status">Replies to your chat will be emailed to ${email}. You can answer them by email too.</p>`,
        );
      }
      if (confirmation.confirmed)
        return page("Email confirmed", `<h1>Already confirmed</h1><p>Replies to your chat go to ${email}.</p>`);
      return page(
        "Confirm your email",
        `<h1>Get replies by email</h1>
<p>Confirm that replies to your chat may be emailed to ${email}.</p>
<form method="post" action="${CHAT_EMAIL_PATH}${token}"><button type="submit">Confirm my email</button></form>`,
      );
    },
  };
}
