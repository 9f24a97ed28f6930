import { and, asc, eq, gte, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Deps } from "../deps";
import { withTx } from "../db/tx";
import { defineJob, type JobContext } from "../jobs/define";
import { sendSystemMail } from "../mail/mail.system";
import { isMember } from "../members/members.public";
import { userRef } from "../identity/identity.public";
import { workspaceRefOf } from "../workspaces/workspaces.public";
import { notificationPreferences, notifications } from "./notifications.table";

type Row = typeof notifications.$inferSelect;

/** One line saying what happened, for the subject of a single mail and a line of a digest. */
export function notificationLine(row: Pick<Row, "type" | "ticket" | "data">): string {
  const ticket = row.ticket ? `#${row.ticket.number} ${row.ticket.subject}` : "";
  const by = typeof row.data.by_name === "string" ? row.data.by_name : null;
  switch (row.type) {
    case "assigned":
      return `${ticket} was assigned to you${by ? ` by ${by}` : ""}`;
    case "mentioned":
      return `${by ?? "Someone"} mentioned you on ${ticket}`;
    case "note_added":
      return `${by ?? "Someone"} added a note on ${ticket}`;
    case "customer_replied":
      return `The customer replied on ${ticket}`;
    case "sla_breached":
      return `SLA breached on ${ticket}`;
    case "ai_handoff":
      return `The chat on ${ticket} was handed to people`;
    default:
      return `${row.type.replace(/_/g, " ")}${ticket ? ` on ${ticket}` : ""}`;
  }
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
    const row = deps.db.select().from(notifications).where(eq(notifications.id, notification_id)).get();
    if (!row || row.readAt || row.emailedAt || !isMember(deps.db, row.workspaceId, row.userId)) return;
    const user = userRef(deps.db, row.userId);
    const workspace = workspaceRefOf(deps.db, row.workspaceId);
    if (!user || !workspace || workspace.deletedAt) return;
    const line = notificationLine(row);
    const link = linkOf(deps.config.baseUrl, row);
    const excerpt = typeof row.data.excerpt === "string" ? row.data.excerpt : null;
    await sendSystemMail(deps.config, deps.clock.now(), {
      to: user.email,
      subject: `[${workspace.name}] ${line}`,
      lines: [
        line,
        ...(excerpt ? ["", excerpt] : []),
        "",
        `Open it: ${link}`,
        "",
        "You get these emails as they happen; change this under Profile → Notifications.",
      ],
      link,
    });
    const now = deps.clock.now().toISOString();
    withTx(deps.db, (tx) => {
      tx.update(notifications).set({ emailedAt: now }).where(eq(notifications.id, row.id)).run();
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
    const people = deps.db
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.email, "digest"))
      .all();
    for (const person of people) {
      const rows = deps.db
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
        .limit(200)
        .all();
      const now = deps.clock.now().toISOString();
      const user = userRef(deps.db, person.userId);
      const workspace = workspaceRefOf(deps.db, person.workspaceId);
      if (rows.length && user && workspace && !workspace.deletedAt && isMember(deps.db, workspace.id, user.id)) {
        const link = new URL("/notifications", deps.config.baseUrl).toString();
        await sendSystemMail(deps.config, deps.clock.now(), {
          to: user.email,
          subject: `[${workspace.name}] ${rows.length} notification${rows.length === 1 ? "" : "s"} today`,
          lines: [
            ...rows.map((row) => `- ${notificationLine(row)}: ${linkOf(deps.config.baseUrl, row)}`),
            "",
            `All notifications: ${link}`,
          ],
          link,
        });
      }
      withTx(deps.db, (tx) => {
        if (rows.length)
          tx.update(notifications)
            .set({ emailedAt: now })
            .where(
              inArray(
                notifications.id,
                rows.map((r) => r.id),
              ),
            )
            .run();
        tx.update(notificationPreferences)
          .set({ digestSentAt: now })
          .where(
            and(
              eq(notificationPreferences.workspaceId, person.workspaceId),
              eq(notificationPreferences.userId, person.userId),
            ),
          )
          .run();
      });
    }
  },
});
