import { first } from "../db/store";
import { and, asc, eq, gte, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { defineJob, type JobContext } from "../jobs/define";
import { sendSystemMail } from "../mail/mail.system";
import { isMember } from "../members/members.public";
import { userMailRef } from "../identity/identity.public";
import { type MessageKey, t } from "../i18n/i18n";
import { DEFAULT_LOCALE, type Locale, memberLocale, workspaceLocales } from "../i18n/locales";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import { notificationPreferences, notifications } from "./notifications.table";

type Row = typeof notifications.$inferSelect;

/** Types whose line has no actor or ticket wording of its own: said as a phrase, "on <ticket>" when there is one. */
const PHRASES = {
  ai_cap_reached: "member_mail.line_ai_cap_reached",
  ai_balance_low: "member_mail.line_ai_balance_low",
  ai_balance_out: "member_mail.line_ai_balance_out",
  auto_recharge_failed: "member_mail.line_auto_recharge_failed",
  ai_key_failed: "member_mail.line_ai_key_failed",
} as const satisfies Record<string, MessageKey>;

/** One line saying what happened, for the subject of a single mail and a line of a digest, in `locale`. */
export function notificationLine(row: Pick<Row, "type" | "ticket" | "data">, locale: Locale = DEFAULT_LOCALE): string {
  const ticket = row.ticket ? `#${row.ticket.number} ${row.ticket.subject}` : "";
  const by = typeof row.data.by_name === "string" ? row.data.by_name : null;
  const someone = () => t(locale, "member_mail.someone");
  switch (row.type) {
    case "assigned":
      return by
        ? t(locale, "member_mail.line_assigned_by", { ticket, by })
        : t(locale, "member_mail.line_assigned", { ticket });
    case "mentioned":
      return t(locale, "member_mail.line_mentioned", { by: by ?? someone(), ticket });
    case "note_added":
      return t(locale, "member_mail.line_note_added", { by: by ?? someone(), ticket });
    case "customer_replied":
      return t(locale, "member_mail.line_customer_replied", { ticket });
    case "sla_breached":
      return t(locale, "member_mail.line_sla_breached", { ticket });
    case "ai_handoff":
      return t(locale, "member_mail.line_ai_handoff", { ticket });
  }
  const key = PHRASES[row.type as keyof typeof PHRASES];
  // A type this build does not know (a row written by a newer version) is said in its own words.
  const what = key ? t(locale, key) : row.type.replace(/_/g, " ");
  return ticket ? t(locale, "member_mail.line_on_ticket", { what, ticket }) : what;
}

/** The recipient's own language when Desk ships it, else the workspace's (WorkspaceSettings `locale`). */
function recipientLocale(userLocale: string | null, settings: Record<string, unknown>): Locale {
  return memberLocale(userLocale, workspaceLocales(settings).locale);
}

const linkOf = (baseUrl: string, row: Pick<Row, "ticket">) =>
  new URL(row.ticket ? `/tickets/${row.ticket.number}` : "/notifications", baseUrl).toString();

/**
 * Mails one notification to a person who chose "immediately". Skipped when it was read or mailed
 * meanwhile, or the person left the workspace. Sent through system mail (DESK_SMTP_URL or the outbox).
 */
export const notificationEmailJob = defineJob({
  name: "notifications.email",
  schema: z.object({ notification_id: z.string() }),
  retry: { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  async handler({ notification_id }, run: JobContext<Deps>) {
    const { deps } = run;
    const row = first(await deps.db.select().from(notifications).where(eq(notifications.id, notification_id)).limit(1));
    if (!row || row.readAt || row.emailedAt || !(await isMember(deps.db, row.workspaceId, row.userId))) return;
    const user = await userMailRef(deps.db, row.userId);
    const workspace = await workspaceSettingsOf(deps.db, row.workspaceId);
    if (!user || !workspace) return;
    const locale = recipientLocale(user.locale, workspace.settings);
    const line = notificationLine(row, locale);
    const link = linkOf(deps.config.baseUrl, row);
    const excerpt = typeof row.data.excerpt === "string" ? row.data.excerpt : null;
    await sendSystemMail(
      deps.config,
      deps.clock.now(),
      {
        to: user.email,
        subject: `[${workspace.name}] ${line}`,
        lines: [
          line,
          ...(excerpt ? ["", excerpt] : []),
          "",
          t(locale, "member_mail.open_it", { link }),
          "",
          t(locale, "member_mail.immediately_footer"),
        ],
        link,
      },
      deps.blobs,
    );
    const now = deps.clock.now().toISOString();
    await transact(deps.db, async (tx) => {
      await tx.update(notifications).set({ emailedAt: now }).where(eq(notifications.id, row.id));
    });
    run.logger.info({ notification_id }, "notification mailed");
  },
});

/**
 * Once a day (08:00 UTC) each person who chose "digest" gets one mail listing the notifications
 * still unread and not mailed since their last digest; nothing to tell, no mail.
 */
export const notificationDigestJob = defineJob({
  name: "notifications.digest",
  schema: z.object({}).passthrough(),
  schedule: "0 8 * * *",
  retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 30 * 60_000 },
  async handler(_payload, run: JobContext<Deps>) {
    const { deps } = run;
    const people = await deps.db
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.email, "digest"));
    for (const person of people) {
      const rows = await deps.db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.workspaceId, person.workspaceId),
            eq(notifications.userId, person.userId),
            isNull(notifications.readAt),
            isNull(notifications.emailedAt),
            // From the moment digests were chosen (the same millisecond included): nothing older is mailed as news.
            person.digestSentAt ? gte(notifications.createdAt, person.digestSentAt) : undefined,
          ),
        )
        .orderBy(asc(notifications.id))
        .limit(200);
      const now = deps.clock.now().toISOString();
      const user = await userMailRef(deps.db, person.userId);
      const workspace = await workspaceSettingsOf(deps.db, person.workspaceId);
      if (rows.length && user && workspace && (await isMember(deps.db, workspace.id, user.id))) {
        const link = new URL("/notifications", deps.config.baseUrl).toString();
        const locale = recipientLocale(user.locale, workspace.settings);
        await sendSystemMail(
          deps.config,
          deps.clock.now(),
          {
            to: user.email,
            subject: t(locale, "member_mail.digest_subject", { workspace: workspace.name, count: rows.length }),
            lines: [
              ...rows.map((row) => `- ${notificationLine(row, locale)}: ${linkOf(deps.config.baseUrl, row)}`),
              "",
              t(locale, "member_mail.digest_all", { link }),
            ],
            link,
          },
          deps.blobs,
        );
      }
      await transact(deps.db, async (tx) => {
        if (rows.length)
          await tx
            .update(notifications)
            .set({ emailedAt: now })
            .where(
              inArray(
                notifications.id,
                rows.map((r) => r.id),
              ),
            );
        await tx
          .update(notificationPreferences)
          .set({ digestSentAt: now })
          .where(
            and(
              eq(notificationPreferences.workspaceId, person.workspaceId),
              eq(notificationPreferences.userId, person.userId),
            ),
          );
      });
    }
  },
});
