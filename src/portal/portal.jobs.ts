import { first } from "../db/store";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { contactLocaleByEmail, findContact } from "../contacts/contacts.public";
import { t } from "../i18n/i18n";
import { customerLocale } from "../i18n/locales";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { escapeHtml } from "../lib/sanitize";
import { sendSystemMail } from "../mail/mail.system";
import { sendCustomerMail } from "../outbound/outbound.public";
import { ticketOfWorkspace } from "../tickets/tickets.public";
import { findWorkspace } from "../workspaces/workspaces.public";
import { portalLinks } from "./portal.table";

/**
 * The sign-in link's mail, from Desk's own address in the workspace's name (the address may be no
 * contact yet, so no mailbox thread fits). The link is sealed in the payload, never stored in clear;
 * a link used or expired meanwhile is not mailed.
 */
export const portalLinkMailJob = defineJob({
  name: "portal.link-mail",
  /** `locale`: the language of the page the link was asked on, for an address no contact with a language holds. */
  schema: z.object({ link_id: z.string(), sealed_url: z.string(), locale: z.string().max(35).optional() }),
  retry: { maxAttempts: 6, baseDelayMs: 10_000, maxDelayMs: 5 * 60_000 },
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const link = first(await deps.db.select().from(portalLinks).where(eq(portalLinks.id, payload.link_id)).limit(1));
    if (!link || link.usedAt || link.expiresAt <= deps.clock.now().toISOString()) return;
    const workspace = await findWorkspace(deps.db, link.workspaceId);
    if (!workspace) return;
    const url = deps.secrets.open(payload.sealed_url);
    const locale = customerLocale(
      (await contactLocaleByEmail(deps.db, link.workspaceId, link.email)) ?? payload.locale,
      workspace.settings,
    );
    await sendSystemMail(
      deps.config,
      deps.clock.now(),
      {
        to: link.email,
        subject: t(locale, "mail.portal_link_subject", { workspace: workspace.name }),
        fromName: workspace.name,
        lines: [
          t(locale, "mail.portal_link_intro", { workspace: workspace.name }),
          "",
          url,
          "",
          t(locale, "mail.portal_link_expiry"),
        ],
        link: url,
        headers: { "Auto-Submitted": "auto-generated" },
      },
      deps.blobs,
    );
  },
});

/**
 * The contact form's confirmation: from the workspace's mailbox on the ticket's thread (so an answer
 * by mail lands on the ticket), else from Desk's own address; it links to the request in the portal.
 */
export const portalConfirmationJob = defineJob({
  name: "portal.confirmation",
  schema: z.object({ ticket_id: z.string(), workspace_id: z.string() }),
  retry: { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const ticket = await ticketOfWorkspace(deps.db, payload.workspace_id, payload.ticket_id);
    const workspace = await findWorkspace(deps.db, payload.workspace_id);
    const contact = ticket?.contactId ? await findContact(deps.db, payload.workspace_id, ticket.contactId) : undefined;
    const to = contact?.email || null;
    if (!ticket || !workspace || !to) return;
    const url = `${deps.config.baseUrl}/portal/${encodeURIComponent(workspace.slug)}/tickets/${ticket.number}`;
    const locale = customerLocale(contact?.locale, workspace.settings);
    const subject = t(locale, "mail.confirmation_subject", { subject: ticket.subject, number: ticket.number });
    const view = t(locale, "mail.view_request");
    const lines = [
      t(locale, "mail.confirmation_body", { workspace: workspace.name, number: ticket.number }),
      "",
      `${view}: ${url}`,
    ];
    const html = `<p>${escapeHtml(lines[0]!)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(view)}</a></p>`;
    const sent = await sendCustomerMail(deps, {
      ticket: {
        id: ticket.id,
        workspaceId: ticket.workspaceId,
        subject: ticket.subject,
        createdAt: ticket.createdAt,
        mailboxId: ticket.mailboxId,
      },
      to,
      subject,
      html,
      text: lines.join("\n"),
      key: `portal-confirmation-${ticket.id}`,
      headers: { "Auto-Submitted": "auto-replied" },
    });
    if (sent) return;
    await sendSystemMail(
      deps.config,
      deps.clock.now(),
      {
        to,
        subject,
        lines,
        link: url,
        html,
        fromName: workspace.name,
        headers: { "Auto-Submitted": "auto-replied" },
      },
      deps.blobs,
    );
  },
});
