import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { invalidAt } from "../lib/errors";
import { findMailbox, firstMailboxOf } from "../mailboxes/mailboxes.public";
import type { MessageRow } from "./messages.table";
import { findVisibleTicket } from "./tickets.repo";
import { addMessage } from "./tickets.service";

export type ForwardInput = {
  to: string[];
  cc?: string[];
  bcc?: string[];
  body_html?: string;
  body_text?: string;
  attachment_ids?: string[];
};

/**
 * Forwards a ticket's conversation to third parties: stored on the ticket as an internal message
 * (kind `note`, `forward: true`, never shown or sent to the contact) and mailed by the outbox from
 * the ticket's mailbox with the conversation quoted under the optional note. Its Message-ID is
 * remembered like a reply's, so the recipients' answers thread back into this ticket.
 */
export async function forwardConversation(
  ctx: RequestContext,
  ref: string,
  input: ForwardInput,
  deps: Deps,
): Promise<MessageRow> {
  const ticket = await findVisibleTicket(deps.db, ctx, ref);
  const mailbox = ticket.mailboxId
    ? await findMailbox(deps.db, ctx.workspaceId, ticket.mailboxId)
    : await firstMailboxOf(deps.db, ctx.workspaceId);
  if (!mailbox || mailbox.status === "disabled")
    throw invalidAt("body.to", "No mailbox to send from: add one under Settings → Mailboxes.");
  return await addMessage(
    ctx,
    ticket.id,
    {
      kind: "note",
      forward_to: input.to,
      cc: input.cc,
      bcc: input.bcc,
      ...(input.body_html !== undefined ? { body_html: input.body_html } : {}),
      ...(input.body_text !== undefined ? { body_text: input.body_text } : {}),
      attachment_ids: input.attachment_ids,
    },
    deps,
  );
}
