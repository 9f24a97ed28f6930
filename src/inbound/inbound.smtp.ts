import type { Deps } from "../deps";
import { MailRefused, startSmtpReceiver, type SmtpReceiver } from "../mail/mail.receiver";
import { ingestEmail, isKnownRecipient, mailboxForRecipient, type IngestOutcome } from "./inbound.service";

/** Refusals the sender should hear about (its server then bounces); loop guards stay silent. */
const REFUSAL_TEXT: Record<string, string> = {
  no_from_address: "Refused: the message has no valid From address",
  unparseable: "Refused: the message could not be parsed",
};

/** The embedded SMTP receiver, handing every accepted recipient's copy to the ingest pipeline. */
export function startInboundSmtp(deps: Deps): Promise<SmtpReceiver> {
  return startSmtpReceiver({
    host: deps.config.smtpHost,
    port: deps.config.smtpPort,
    tls: deps.config.smtpTls,
    limits: deps.config.smtpLimits,
    hostname: deps.config.inboundDomain,
    logger: deps.logger.child({ subsystem: "smtp" }),
    isKnownRecipient: async (address) => await isKnownRecipient(deps.db, address),
    async onMail(mail) {
      const seen = new Set<string>();
      const outcomes: IngestOutcome[] = [];
      for (const recipient of mail.recipients) {
        const mailbox = await mailboxForRecipient(deps.db, recipient);
        // Two recipients reaching one mailbox store one message.
        if (!mailbox || seen.has(mailbox.id)) continue;
        seen.add(mailbox.id);
        outcomes.push(await ingestEmail(deps, { raw: mail.raw, mailbox, recipient, receivedAt: mail.receivedAt }));
      }
      const first = outcomes[0];
      const reason = first?.outcome === "refused" ? first.reason : "";
      const refusal = REFUSAL_TEXT[reason];
      if (refusal && outcomes.every((o) => o.outcome === "refused" && o.reason === reason))
        throw new MailRefused(refusal);
    },
  });
}
