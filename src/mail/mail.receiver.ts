import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Logger } from "../lib/logger";

export const SMTP_MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** What the receiver asks of whoever consumes the mail (the inbound feature). */
export type ReceivedMail = { raw: Uint8Array; recipients: string[]; mailFrom: string | null; remoteAddress: string | null; receivedAt: number };

export type SmtpReceiverOptions = {
  host: string;
  port: number;
  tls: { cert: string; key: string } | null;
  hostname?: string;
  maxBytes?: number;
  logger: Logger;
  /** RCPT TO is refused with 550 unless this answers true. */
  isKnownRecipient: (address: string) => boolean;
  /** Resolves once the mail is stored (the 250 after DATA means it is safe). MailRefused answers 550, any other throw 451. */
  onMail: (mail: ReceivedMail) => Promise<void>;
};

export type SmtpReceiver = { port: number; close(): Promise<void> };

class SmtpReply extends Error {
  constructor(readonly responseCode: number, message: string) {
    super(message);
  }
}

/** Thrown by `onMail` to refuse a message for good: the client gets a 550 with this text. */
export class MailRefused extends Error {}

/** The embedded SMTP receiver: transport only; the ticket logic sits behind `onMail`. */
export async function startSmtpReceiver(options: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const maxBytes = options.maxBytes ?? SMTP_MAX_MESSAGE_BYTES;
  const log = options.logger;
  const server = new SMTPServer({
    name: options.hostname,
    secure: false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { hideSTARTTLS: true }),
    authOptional: true,
    disabledCommands: ["AUTH"],
    disableReverseLookup: true,
    size: maxBytes,
    banner: "Desk ESMTP",
    logger: false,
    onRcptTo(address, _session, callback) {
      const recipient = address.address.trim().toLowerCase();
      if (options.isKnownRecipient(recipient)) return callback();
      log.info({ recipient }, "smtp: refused unknown recipient");
      callback(new SmtpReply(550, "5.1.1 No such mailbox here"));
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on("error", (error) => callback(error));
      stream.on("end", () => {
        if (stream.sizeExceeded || size > maxBytes) {
          log.info({ bytes: size, limit: maxBytes }, "smtp: refused oversized message");
          return callback(new SmtpReply(552, `5.3.4 Message too big (limit ${maxBytes} bytes)`));
        }
        const mail: ReceivedMail = {
          // Buffer.concat already makes one fresh copy; a Buffer is a Uint8Array, so no second one.
          raw: Buffer.concat(chunks, size),
          recipients: session.envelope.rcptTo.map((r) => r.address.trim().toLowerCase()),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          remoteAddress: session.remoteAddress ?? null,
          receivedAt: performance.now(),
        };
        options.onMail(mail).then(
          () => callback(null, "2.0.0 Message accepted"),
          (error: unknown) => {
            if (error instanceof MailRefused) return callback(new SmtpReply(550, `5.6.0 ${error.message}`));
            log.error({ err: error instanceof Error ? error.message : String(error) }, "smtp: storing a message failed");
            callback(new SmtpReply(451, "4.3.0 Temporary failure storing the message, try again later"));
          },
        );
      });
    },
  });
  server.on("error", (error) => log.warn({ err: error.message }, "smtp: connection error"));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  log.info({ port, tls: Boolean(options.tls) }, "smtp receiver listening");
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
