import { first } from "../db/store";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "./identity.table";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { t } from "../i18n/i18n";
import { DEFAULT_LOCALE, memberLocale } from "../i18n/locales";
import { sendSystemMail } from "../mail/mail.system";
import { passwordResets } from "./password-resets.table";

/** The link is the secret: the payload holds it sealed (DESK_SECRET), never in clear. */
export const PasswordResetMailPayload = z.object({ reset_id: z.string(), sealed_url: z.string() });

/**
 * Mails a reset link as system mail: through the DESK_SMTP_URL relay when set, else as an .eml
 * file under `<data dir>/outbox` (DECISIONS.md), like invitations. A durable job, so a relay that
 * is down is retried; a reset used or expired meanwhile is not mailed.
 */
export const passwordResetMailJob = defineJob({
  name: "password_reset.mail",
  schema: PasswordResetMailPayload,
  retry: { maxAttempts: 6, baseDelayMs: 15_000, maxDelayMs: 10 * 60_000 },
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const row = first(
      await deps.db
        .select({ reset: passwordResets, email: users.email, name: users.name, locale: users.locale })
        .from(passwordResets)
        .innerJoin(users, eq(users.id, passwordResets.userId))
        .where(eq(passwordResets.id, payload.reset_id))
        .limit(1),
    );
    if (!row || row.reset.usedAt || row.reset.expiresAt <= deps.clock.now().toISOString()) return;
    const url = deps.secrets.open(payload.sealed_url);
    // The person's own language, else English: an account is no one workspace's, so none of theirs decides.
    const locale = memberLocale(row.locale, DEFAULT_LOCALE);
    const lines = [
      t(locale, "member_mail.hello", { name: row.name }),
      "",
      t(locale, "member_mail.reset_asked"),
      url,
      "",
      t(locale, "member_mail.reset_expiry", { expires: row.reset.expiresAt }),
      t(locale, "member_mail.reset_ignore"),
    ];
    const path = await sendSystemMail(
      deps.config,
      deps.clock.now(),
      {
        to: row.email,
        subject: t(locale, "member_mail.reset_subject"),
        lines,
        link: url,
        // Auto-responders must not answer (or forward) a message that carries a sign-in secret.
        headers: { "Auto-Submitted": "auto-generated" },
      },
      deps.blobs,
    );
    if (path) {
      run.logger.warn(
        { reset_id: row.reset.id, path },
        "password reset mail written to the outbox (no DESK_SMTP_URL relay): it was not delivered",
      );
      return;
    }
    run.logger.info({ reset_id: row.reset.id }, "password reset mail sent through the relay");
  },
});
