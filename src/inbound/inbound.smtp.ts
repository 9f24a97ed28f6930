import type { Deps } from "../deps";
import { startSmtpReceiver, type SmtpReceiver } from "../mail/mail.receiver";
import { ingestEmail, isKnownRecipient, mailboxForRecipient } from "./inbound.service";

/** The embedded SMTP receiver, handing every accepted recipient's copy to the ingest pipeline. */
export function startInboundSmtp(deps: Deps): Promise<SmtpReceiver> {
  return startSmtpReceiver({
    host: deps.config.host,
    port: deps.config.smtpPort,
    tls: deps.config.smtpTls,
    hostname: deps.config.inboundDomain,
    logger: deps.logger.child({ subsystem: "smtp" }),
    isKnownRecipient: (address) => isKnownRecipient(deps.db, address),
    async onMail(mail) {
      const seen = new Set<string>();
      for (const recipient of mail.recipients) {
        const mailbox = mailboxForRecipient(deps.db, recipient);
        // Two recipients reaching one mailbox store one message.
        if (!mailbox || seen.has(mailbox.id)) continue;
        seen.add(mailbox.id);
        await ingestEmail(deps, { raw: mail.raw, mailbox, recipient, receivedAt: mail.receivedAt });
      }
    },
  });
}
