import { first } from "../db/store";
import { and, eq, gt, or } from "drizzle-orm";
import { z } from "zod";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { t } from "../i18n/i18n";
import { customerLocale } from "../i18n/locales";
import { findContact } from "../contacts/contacts.public";
import { escapeHtml } from "../lib/sanitize";
import { sendSystemMail } from "../mail/mail.system";
import { sendCustomerMail } from "../outbound/outbound.public";
import { ticketOfWorkspace } from "../tickets/tickets.public";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import { csatRequests } from "./csat.table";

/** The link a rating request's mail carries; `?score=` preselects a score (the page never records on GET). */
export const csatLink = (baseUrl: string, token: string): string => `${baseUrl}/csat/${encodeURIComponent(token)}`;

/** The token sits in the payload sealed (DESK_SECRET), never in clear, like an invitation's link. */
const CsatMailPayload = z.object({ request_id: z.string(), sealed_token: z.string() });

/**
 * Mails one rating request, DESK_CSAT_DELAY after the solve, from the ticket's mailbox (else the
 * workspace's first; system mail only without any). Skipped when the request was sent or answered
 * already, has expired, a later solve made a newer one, or its ticket was reopened, deleted, merged
 * or marked spam before the mail went out.
 */
export const csatMailJob = defineJob({
  name: "csat.mail",
  lane: "customer",
  schema: CsatMailPayload,
  retry: { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const now = deps.clock.now();
    const request = first(
      await deps.db.select().from(csatRequests).where(eq(csatRequests.id, payload.request_id)).limit(1),
    );
    if (!request || request.sentAt || request.ratedAt || request.expiresAt <= now.toISOString()) return;
    const ticket = await ticketOfWorkspace(deps.db, request.workspaceId, request.ticketId);
    const workspace = await workspaceSettingsOf(deps.db, request.workspaceId);
    if (!ticket || !workspace || ticket.deletedAt || ticket.mergedIntoId || ticket.spam) return;
    if (ticket.status !== "solved" && ticket.status !== "closed") return;
    // Reopened and solved again while this one waited: the later solve's request is the one to send.
    const newer = first(
      await deps.db
        .select({ id: csatRequests.id })
        .from(csatRequests)
        .where(
          and(
            eq(csatRequests.workspaceId, request.workspaceId),
            eq(csatRequests.ticketId, request.ticketId),
            or(
              gt(csatRequests.createdAt, request.createdAt),
              and(eq(csatRequests.createdAt, request.createdAt), gt(csatRequests.id, request.id)),
            ),
          ),
        )
        .limit(1),
    );
    if (newer) return;
    const link = csatLink(deps.config.baseUrl, deps.secrets.open(payload.sealed_token));
    const contact = ticket.contactId ? await findContact(deps.db, request.workspaceId, ticket.contactId) : undefined;
    const locale = customerLocale(contact?.locale, workspace.settings);
    const scores = ([5, 4, 3, 2, 1] as const).map((score) => ({
      score,
      word: t(locale, `csat.score_${score}`),
      url: `${link}?score=${score}`,
    }));
    const intro = t(locale, "csat.intro", { number: ticket.number, subject: ticket.subject });
    const lines = [
      intro,
      "",
      ...scores.map((s) => `${s.score} - ${s.word}: ${s.url}`),
      "",
      t(locale, "csat.mail_or_open", { link }),
    ];
    const color = typeof workspace.settings.brand_color === "string" ? workspace.settings.brand_color : "#1f6feb";
    const html = [
      `<p>${escapeHtml(intro)}</p>`,
      "<p>",
      ...scores.map(
        (s) =>
          `<a href="${escapeHtml(s.url)}" style="display:inline-block;margin:0 6px 6px 0;padding:8px 12px;border:1px solid ${color};border-radius:6px;color:${color};text-decoration:none">${s.score} · ${s.word}</a>`,
      ),
      "</p>",
      `<p><a href="${escapeHtml(link)}">${escapeHtml(t(locale, "csat.mail_rate_link"))}</a>. ${escapeHtml(t(locale, "csat.mail_link_days"))}</p>`,
    ].join("");
    const subject = t(locale, "csat.mail_subject", { number: ticket.number, subject: ticket.subject });
    // From the ticket's mailbox and threaded on its conversation, so a customer who answers the
    // rating mail reaches the ticket; system mail (no-reply@) only for a workspace without a mailbox.
    const sent = await sendCustomerMail(deps, {
      ticket,
      to: request.email,
      subject,
      html,
      text: lines.join("\n"),
      key: `csat-${request.id}`,
    });
    const path = sent
      ? null
      : await sendSystemMail(
          deps.config,
          now,
          {
            to: request.email,
            subject,
            lines,
            link,
            html,
            fromName: workspace.name,
          },
          deps.blobs,
        );
    await transact(
      deps.db,
      async (tx) =>
        await tx.update(csatRequests).set({ sentAt: now.toISOString() }).where(eq(csatRequests.id, request.id)),
    );
    run.logger.info(
      { request_id: request.id, ...(sent ? { from: sent.from, via: sent.via } : {}), ...(path ? { path } : {}) },
      "rating request mailed",
    );
  },
});
