import { first } from "../db/store";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "./identity.table";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { t } from "../i18n/i18n";
import { DEFAULT_LOCALE, memberLocale } from "../i18n/locales";
import { sendSystemMail } from "../mail/mail.system";

/** The link is the secret: the payload holds it sealed (DESK_SECRET), never in clear. */
export const SsoLinkMailPayload = z.object({ user_id: z.string(), provider: z.string(), sealed_url: z.string() });

/**
 * Asks a person to confirm that a provider account that signed in with their (verified) email is
 * theirs. System mail like a password reset: through the DESK_SMTP_URL relay when set, else an .eml
 * file in `<data dir>/outbox`; a durable job, so a relay that is down is retried.
 */
export const ssoLinkMailJob = defineJob({
  name: "sso.link-mail",
  schema: SsoLinkMailPayload,
  retry: { maxAttempts: 6, baseDelayMs: 15_000, maxDelayMs: 10 * 60_000 },
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const person = first(await deps.db.select().from(users).where(eq(users.id, payload.user_id)).limit(1));
    const provider = deps.config.ssoProviders.find((p) => p.id === payload.provider);
    if (!person || !provider) return;
    const url = deps.secrets.open(payload.sealed_url);
    // The person's own language, else English: an account is no one workspace's, so none of theirs decides.
    const locale = memberLocale(person.locale, DEFAULT_LOCALE);
    const values = { provider: provider.name, email: person.email };
    const lines = [
      t(locale, "member_mail.hello", { name: person.name }),
      "",
      t(locale, "member_mail.sso_signed_in", values),
      t(locale, "member_mail.sso_if_you", values),
      url,
      "",
      t(locale, "member_mail.sso_expiry"),
    ];
    const path = await sendSystemMail(
      deps.config,
      deps.clock.now(),
      {
        to: person.email,
        subject: t(locale, "member_mail.sso_subject", values),
        lines,
        link: url,
        // Auto-responders must not answer (or forward) a message that carries a sign-in secret.
        headers: { "Auto-Submitted": "auto-generated" },
      },
      deps.blobs,
    );
    run.logger.info({ user_id: person.id, provider: provider.id, outbox: path }, "sso link confirmation mailed");
  },
});
