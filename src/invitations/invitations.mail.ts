import { first } from "../db/store";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { formatDate, t } from "../i18n/i18n";
import { workspaceLocales } from "../i18n/locales";
import { sendSystemMail } from "../mail/mail.system";
import { userRef } from "../identity/identity.public";
import { invitations } from "./invitations.table";

/** The accept link carries the token, so the payload holds it sealed (DESK_SECRET), never in clear. */
export const InvitationMailPayload = z.object({ invitation_id: z.string(), sealed_url: z.string() });

/**
 * Mails an invitation's link: through the DESK_SMTP_URL relay when one is set, else as an .eml
 * file under `<data dir>/outbox` (DECISIONS.md). A durable job, so a relay that is down is retried;
 * an invitation revoked, accepted or expired meanwhile is not mailed.
 */
export const invitationMailJob = defineJob({
  name: "invitation.mail",
  schema: InvitationMailPayload,
  retry: { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const invitation = first(
      await deps.db.select().from(invitations).where(eq(invitations.id, payload.invitation_id)).limit(1),
    );
    const workspace = invitation && (await workspaceSettingsOf(deps.db, invitation.workspaceId));
    if (
      !invitation ||
      !workspace ||
      invitation.revokedAt ||
      invitation.acceptedAt ||
      invitation.expiresAt <= deps.clock.now().toISOString()
    )
      return;
    const url = deps.secrets.open(payload.sealed_url);
    const inviter = await userRef(deps.db, invitation.invitedBy);
    // The invitee has no account (so no language of their own) yet: the inviting workspace's language.
    const locale = workspaceLocales(workspace.settings).locale;
    const values = { workspace: workspace.name };
    const lines = [
      t(locale, "member_mail.invite_body", {
        ...values,
        inviter: inviter ? inviter.name : t(locale, "member_mail.someone"),
        role: invitation.role,
      }),
      "",
      t(locale, "member_mail.invite_accept", { url }),
      "",
      // The recipient's zone is unknown, so UTC, said so.
      t(locale, "member_mail.invite_expiry", { expires: formatDate(locale, invitation.expiresAt, { time: true }) }),
    ];
    const path = await sendSystemMail(
      deps.config,
      deps.clock.now(),
      {
        to: invitation.email,
        subject: t(locale, "member_mail.invite_subject", values),
        lines,
        link: url,
      },
      deps.blobs,
    );
    if (path) {
      run.logger.info({ invitation_id: invitation.id, path }, "invitation mail written to the outbox");
      return;
    }
    run.logger.info({ invitation_id: invitation.id }, "invitation mail sent through the relay");
  },
});
