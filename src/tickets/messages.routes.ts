import { Elysia } from "elysia";
import { z } from "zod";
import { attachmentLinks, type AttachmentLinks, findAttachment } from "../attachments/attachments.public";
import { notFound } from "../lib/errors";
import type { Deps } from "../deps";
import { IdParams, completeList, completeListSchema } from "../http/schemas";
import { presentMessage, presentMessages } from "./messages.present";
import { forwardConversation } from "./messages.forward";
import { AddMessageBody, ForwardBody, MAX_EXTRA_RECIPIENTS, MAX_FORWARD_TO, MessageSchema } from "./messages.schemas";
import { findVisibleMessage, fullTextOf, listMessages, originalOf } from "./messages.service";
import { addMessage } from "./tickets.service";

const read = { role: "viewer", scopes: ["tickets:read"] } as const;
const write = { role: "agent", scopes: ["tickets:write"] } as const;

export function messagesRoutes(deps: Deps) {
  const links = attachmentLinks(deps);
  return new Elysia({ tags: ["messages"] })
    .use(deps.guard)
    .use(ticketMessageRoutes(deps, links))
    .use(messageFileRoutes(deps, links));
}

/** A ticket's messages: the list, a reply or note, a forward. */
function ticketMessageRoutes(deps: Deps, links: AttachmentLinks) {
  return new Elysia({ tags: ["messages"] })
    .use(deps.guard)
    .get(
      "/tickets/:id/messages",
      async ({ ctx, params }) =>
        completeList(await presentMessages(deps.db, await listMessages(deps.db, ctx, params.id), links)),
      {
        access: read,
        params: IdParams,
        response: { 200: completeListSchema(MessageSchema) },
        detail: { summary: "Every message of a ticket, ascending" },
      },
    )
    .post(
      "/tickets/:id/messages",
      async ({ ctx, params, body, set }) => {
        const row = await addMessage(ctx, params.id, body, deps);
        set.status = 201;
        return await presentMessage(deps.db, row, links);
      },
      {
        access: write,
        params: IdParams,
        body: AddMessageBody,
        response: { 201: MessageSchema },
        detail: {
          summary: "Reply or add a note; status (optional) is set in the same step; HTML is sanitized before storage",
          description: `A reply on an email ticket is mailed to the contact from the ticket's mailbox, threaded (In-Reply-To/References) and with the customer's previous message quoted under it (an "On <date>, <name> <<email>> wrote:" line, then a blockquote in HTML and \`>\` lines in text). \`cc\` adds Cc recipients (a header); \`bcc\` adds blind copies that are only in the SMTP envelope, never in a header, and only on replies (422 on a note). At most ${MAX_EXTRA_RECIPIENTS} Cc and Bcc addresses together; each must be a valid address (no display names, no line breaks); an address repeated across To, Cc and Bcc is sent once.`,
        },
      },
    )
    .post(
      "/tickets/:id/forward",
      async ({ ctx, params, body, set }) => {
        const row = await forwardConversation(ctx, params.id, body, deps);
        set.status = 201;
        return await presentMessage(deps.db, row, links);
      },
      {
        access: write,
        params: IdParams,
        body: ForwardBody,
        response: { 201: MessageSchema },
        detail: {
          summary: "Forward the conversation to a third party, with an optional note",
          description: `Mails the ticket's replies (never its notes), oldest first, quoted under the optional note (\`body_html\` or \`body_text\`) from the ticket's mailbox (else the workspace's first) with the subject "Fwd: <subject> [#<number>]". \`to\`: 1 to ${MAX_FORWARD_TO} addresses; \`cc\` and \`bcc\` as on replies (at most ${MAX_EXTRA_RECIPIENTS} together; Bcc only in the SMTP envelope). The contact receives nothing. It is recorded on the ticket's timeline as a message of kind \`note\` with \`forward: true\` and its delivery status; answers to it thread back into the ticket. 422 at \`body.to\` when the workspace has no mailbox to send from.`,
        },
      },
    );
}

/** What a message carries beyond its body: its attachments and its stored original. */
function messageFileRoutes(deps: Deps, links: AttachmentLinks) {
  return new Elysia({ tags: ["messages"] })
    .use(deps.guard)
    .get(
      "/attachments/:id",
      async ({ ctx, params, set }) => {
        // A message's files are read as its ticket is: an attachment of a ticket the caller may not see is not found.
        const row = await findAttachment(deps.db, ctx.workspaceId, params.id);
        if (row.messageId) {
          try {
            await findVisibleMessage(deps.db, ctx, row.messageId);
          } catch {
            throw notFound("Attachment");
          }
        }
        set.status = 302;
        set.headers.location = links.url(row);
        set.headers["cache-control"] = "no-store";
        return null;
      },
      {
        access: read,
        params: IdParams,
        detail: {
          tags: ["attachments"],
          summary: "Redirects to a short-lived signed URL of the file",
          responses: { 302: { description: "Redirect to the signed URL (`Location`)" } },
        },
      },
    )
    .get(
      "/messages/:id/original",
      async ({ ctx, params, query }) => {
        const row = await findVisibleMessage(deps.db, ctx, params.id);
        // `view=text`: the whole body as the customer sent it, quoted history included, decoded
        // (what "show quoted text" displays) rather than the raw MIME source.
        const original = query.view === "text" ? await fullTextOf(deps, row) : await originalOf(deps, row);
        // Served as text, never rendered: the original may hold anything the sender wrote.
        return new Response(original.body, {
          headers: {
            "content-type": "text/plain; charset=utf-8",
            "x-content-type-options": "nosniff",
            "content-security-policy": "default-src 'none'; sandbox",
            "x-original-content-type": original.content_type,
          },
        });
      },
      {
        access: read,
        params: IdParams,
        query: z.object({ view: z.enum(["source", "text"]).optional() }),
        detail: {
          summary:
            "The full original of a message including quoted history, as text (view=text: the decoded body, untrimmed)",
          responses: {
            200: {
              description: "The original as sent, served as text",
              content: { "text/plain": { schema: { type: "string" } } },
            },
          },
        },
      },
    );
}
