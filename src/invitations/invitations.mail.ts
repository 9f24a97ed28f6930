import { eq } from "drizzle-orm";
import { z } from "zod";
import { workspaceRefOf } from "../workspaces/workspaces.public";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { sendSystemMail } from "../mail/mail.system";
import { userRef } from "../identity/identity.public";
import { invitations } from "./invitations.table";

/** The link's end as people read it: the recipient's zone is unknown, so UTC, said so. */
const LINK_EXPIRY = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

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
    const role = `${/^[aeiou]/.test(invitation.role) ? "an" : "a"} ${invitation.role}`;
    const lines = [
      `${inviter ? inviter.name : "Someone"} invited you to join ${workspaceName} on Desk as ${role}.`,
      "",
      `Accept the invitation: ${url}`,
      "",
      `The link works until ${LINK_EXPIRY.format(new Date(invitation.expiresAt))} (UTC). If you did not expect it, ignore this email.`,
    ];
    const path = await sendSystemMail(deps.config, deps.clock.now(), {
      to: invitation.email,
      subject: `Join ${workspaceName} on Desk`,
      lines,
      link: url,
    });
    if (path) {
      run.logger.info({ invitation_id: invitation.id, path }, "invitation mail written to the outbox");
      return;
    }
    run.logger.info({ invitation_id: invitation.id }, "invitation mail sent through the relay");
  },
});
