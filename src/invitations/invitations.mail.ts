import { eq } from "drizzle-orm";
import { join } from "node:path";
import { z } from "zod";
import { workspaceRefOf } from "../workspaces/workspaces.public";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { escapeHtml } from "../lib/sanitize";
import { defineJob, type JobContext, PermanentFailure } from "../jobs/define";
import { SendFailure, sendViaSmtp, smtpSettingsFromUrl, writeToOutbox, type OutgoingMail } from "../mail/mail.send";
import { userRef } from "../users/users.public";
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
    const invitation = deps.db.select().from(invitations).where(eq(invitations.id, payload.invitation_id)).get();
    const workspaceName = invitation && workspaceRefOf(deps.db, invitation.workspaceId)?.name;
    if (
      !invitation ||
      workspaceName === undefined ||
      invitation.revokedAt ||
      invitation.acceptedAt ||
      invitation.expiresAt <= deps.clock.now().toISOString()
    )
      return;
    const url = deps.secrets.open(payload.sealed_url);
    const inviter = userRef(deps.db, invitation.invitedBy);
    const role = invitation.role === "admin" ? "an admin" : `a ${invitation.role}`;
    const lines = [
      `${inviter ? inviter.name : "Someone"} invited you to join ${workspaceName} on Desk as ${role}.`,
      "",
      `Accept the invitation: ${url}`,
      "",
      `The link works until ${invitation.expiresAt}. If you did not expect it, ignore this email.`,
    ];
    const host = new URL(deps.config.baseUrl).hostname;
    const mail: OutgoingMail = {
      from: { name: "Desk", address: `no-reply@${host}` },
      to: [invitation.email],
      cc: [],
      subject: `Join ${workspaceName} on Desk`,
      text: lines.join("\n"),
      html: lines
        .map((line) =>
          line
            ? `<p>${escapeHtml(line).replace(escapeHtml(url), `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`)}</p>`
            : "",
        )
        .join(""),
      messageId: `<${newId()}@${host}>`,
    };
    const relay = deps.config.smtpRelayUrl;
    if (!relay) {
      const path = await writeToOutbox(join(deps.config.dataDir, "outbox"), mail, deps.clock.now());
      run.logger.info({ invitation_id: invitation.id, path }, "invitation mail written to the outbox");
      return;
    }
    try {
      await sendViaSmtp(smtpSettingsFromUrl(relay), mail);
    } catch (error) {
      if (error instanceof SendFailure && !error.temporary) throw new PermanentFailure(error.message);
      throw error;
    }
    run.logger.info({ invitation_id: invitation.id }, "invitation mail sent through the relay");
  },
});
