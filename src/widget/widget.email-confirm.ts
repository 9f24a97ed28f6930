import { first } from "../db/store";
/**
 * An email a chat visitor typed is their word only: anyone may type anyone's address. Before the
 * first chat reply is mailed there, its owner gets one mail asking to confirm (fixed text, a link,
 * nothing the visitor or an agent wrote), at most one a day per address and workspace; replies are
 * mailed only once the address is confirmed, or when the customer's site vouched for the visitor
 * (a verified session, `user_hash`).
 */
import { and, desc, eq, gt, isNotNull } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { sha256Hex } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { escapeHtml } from "../lib/sanitize";
import { t } from "../i18n/i18n";
import { localeForContact, sendCustomerMail } from "../outbound/outbound.public";
import type { TicketRow } from "../tickets/tickets.public";
import { widgetWorkspaceOf } from "../workspaces/workspaces.public";
import { chatEmailConfirmations, visitorSessions } from "./widget.table";

/** One confirmation mail per address and workspace in this window, whatever the visitors do. */
export const CONFIRMATION_RESEND_MS = 24 * 60 * 60_000;
/** How long a confirmation link works. */
const CONFIRMATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

export const CHAT_EMAIL_PATH = "/chat-email/";

/** Whether chat replies may be mailed to `email` for this contact. */
export async function chatEmailConfirmed(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  email: string,
): Promise<boolean> {
  const vouched = first(
    await db
      .select({ id: visitorSessions.id })
      .from(visitorSessions)
      .where(
        and(
          eq(visitorSessions.workspaceId, workspaceId),
          eq(visitorSessions.contactId, contactId),
          eq(visitorSessions.verified, true),
        ),
      )
      .limit(1),
  );
  if (vouched) return true;
  const confirmed = first(
    await db
      .select({ id: chatEmailConfirmations.id })
      .from(chatEmailConfirmations)
      .where(
        and(
          eq(chatEmailConfirmations.workspaceId, workspaceId),
          eq(chatEmailConfirmations.contactId, contactId),
          eq(chatEmailConfirmations.email, email.toLowerCase()),
          isNotNull(chatEmailConfirmations.confirmedAt),
        ),
      )
      .limit(1),
  );
  return Boolean(confirmed);
}

/**
 * Sends the confirmation mail for a chat's typed address, unless one went to that address from this
 * workspace within CONFIRMATION_RESEND_MS. Answers whether a mail was sent.
 */
export async function askToConfirmChatEmail(
  deps: Deps,
  input: { ticket: TicketRow; contactId: string; email: string; fallbackMailboxId: string | null },
): Promise<boolean> {
  const email = input.email.toLowerCase();
  const now = deps.clock.now();
  const recent = first(
    await deps.db
      .select({ id: chatEmailConfirmations.id })
      .from(chatEmailConfirmations)
      .where(
        and(
          eq(chatEmailConfirmations.workspaceId, input.ticket.workspaceId),
          eq(chatEmailConfirmations.email, email),
          gt(chatEmailConfirmations.sentAt, new Date(now.getTime() - CONFIRMATION_RESEND_MS).toISOString()),
        ),
      )
      .orderBy(desc(chatEmailConfirmations.sentAt))
      .limit(1),
  );
  if (recent) return false;
  const token = randomToken(32);
  const id = newId();
  await transact(
    deps.db,
    async (tx) =>
      await tx.insert(chatEmailConfirmations).values({
        id,
        workspaceId: input.ticket.workspaceId,
        contactId: input.contactId,
        ticketId: input.ticket.id,
        email,
        tokenHash: sha256Hex(token),
        sentAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + CONFIRMATION_LIFETIME_MS).toISOString(),
      }),
  );
  const link = `${deps.config.baseUrl}${CHAT_EMAIL_PATH}${token}`;
  const workspace = (await widgetWorkspaceOf(deps.db, input.ticket.workspaceId))?.name ?? "Support";
  const locale = await localeForContact(deps, input.ticket.workspaceId, input.contactId);
  const lines = [
    t(locale, "mail.chat_confirm_asked", { workspace }),
    t(locale, "mail.chat_confirm_if_you"),
    link,
    t(locale, "mail.chat_confirm_not_you"),
  ];
  const sent = await sendCustomerMail(deps, {
    ticket: input.ticket,
    fallbackMailboxId: input.fallbackMailboxId,
    to: email,
    subject: t(locale, "mail.chat_confirm_subject", { workspace: workspace.replace(/[\r\n]+/g, " ") }),
    html: `<p>${escapeHtml(lines[0]!)}</p><p>${escapeHtml(lines[1]!)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t(locale, "mail.chat_confirm_button"))}</a></p><p>${escapeHtml(lines[3]!)}</p>`,
    text: lines.join("\n\n"),
    key: `chat-confirm-${id}`,
    standalone: true,
  });
  return sent !== null;
}

export type Confirmation = { id: string; workspaceId: string; ticketId: string; email: string; confirmed: boolean };

/** The live confirmation a link's token names, or null (unknown, expired). */
export async function confirmationOfToken(db: Queryable, token: string, now: Date): Promise<Confirmation | null> {
  const row = first(
    await db
      .select()
      .from(chatEmailConfirmations)
      .where(eq(chatEmailConfirmations.tokenHash, sha256Hex(token)))
      .limit(1),
  );
  if (!row || row.expiresAt <= now.toISOString()) return null;
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    ticketId: row.ticketId,
    email: row.email,
    confirmed: row.confirmedAt !== null,
  };
}

export async function markChatEmailConfirmed(db: Deps["db"], id: string, now: Date): Promise<void> {
  await transact(
    db,
    async (tx) =>
      await tx
        .update(chatEmailConfirmations)
        .set({ confirmedAt: now.toISOString() })
        .where(eq(chatEmailConfirmations.id, id)),
  );
}
