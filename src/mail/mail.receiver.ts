import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { countSmtpSession, recordSmtpMessage } from "../metrics/metrics";
import type { Logger } from "../lib/logger";
import { isAddressInUse, PortTakenError } from "../lib/port-taken";

export const SMTP_MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/**
 * A receiver without a certificate never upgrades a socket (STARTTLS is disabled), yet smtp-server
 * builds a TLS context from its built-in self-signed key in the constructor regardless: that costs
 * an idle server about 1 MB of resident memory for a context nothing can use.
 */
class PlainSmtpServer extends SMTPServer {
  override updateSecureContext(): void {
    this.secureContext = new Map();
  }
}

/** What the receiver asks of whoever consumes the mail (the inbound feature). */
export type ReceivedMail = {
  raw: Uint8Array;
  recipients: string[];
  mailFrom: string | null;
  remoteAddress: string | null;
  receivedAt: number;
};

/**
 * What one client may hold. Each phase of a session has its own deadline that client bytes do not
 * extend, so a client dribbling a byte every few seconds (which keeps resetting the idle timeout)
 * is still cut off: the envelope (greeting to DATA, counted again after each message) within
 * `commandPhaseMs`, the message itself (354 to the final dot) within `dataPhaseMs`.
 */
export type SmtpLimits = {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** Silence allowed between two reads of the socket. */
  idleMs: number;
  commandPhaseMs: number;
  dataPhaseMs: number;
};

/** RFC 5321 section 4.5.3.2's server timeouts, and caps well above a busy relay's parallelism. */
export const DEFAULT_SMTP_LIMITS: SmtpLimits = {
  maxConnections: 100,
  maxConnectionsPerAddress: 10,
  idleMs: 60_000,
  commandPhaseMs: 5 * 60_000,
  dataPhaseMs: 10 * 60_000,
};

export type SmtpReceiverOptions = {
  host: string;
  port: number;
  /** STARTTLS is advertised and accepted only with a certificate; without one the command is unknown. */
  tls: { cert: string; key: string } | null;
  hostname?: string;
  maxBytes?: number;
  limits?: Partial<SmtpLimits>;
  logger: Logger;
  /** RCPT TO is refused with 550 unless this answers true. */
  isKnownRecipient: (address: string) => boolean | Promise<boolean>;
  /** Resolves once the mail is stored (the 250 after DATA means it is safe). MailRefused answers 550, any other throw 451. */
  onMail: (mail: ReceivedMail) => Promise<void>;
};

export type SmtpReceiver = { port: number; close(): Promise<void> };

class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown by `onMail` to refuse a message for good: the client gets a 550 with this text. */
export class MailRefused extends Error {}

/** The embedded SMTP receiver: transport only; the ticket logic sits behind `onMail`. */
export async function startSmtpReceiver(options: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const maxBytes = options.maxBytes ?? SMTP_MAX_MESSAGE_BYTES;
  const limits: SmtpLimits = { ...DEFAULT_SMTP_LIMITS, ...options.limits };
  const log = options.logger;
  const phases = createPhaseDeadlines(limits, options.hostname, log, (id) =>
    [...server.connections].find((c) => c.id === id),
  );
  const addresses = createAddressCounter(limits, log, phases);
  const server = new (options.tls ? SMTPServer : PlainSmtpServer)({
    name: options.hostname,
    secure: false,
    // Without a certificate smtp-server would still answer STARTTLS with its built-in self-signed one.
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { hideSTARTTLS: true }),
    authOptional: true,
    disabledCommands: options.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    disableReverseLookup: true,
    size: maxBytes,
    banner: "Desk ESMTP",
    logger: false,
    maxClients: limits.maxConnections,
    socketTimeout: limits.idleMs,
    onConnect: addresses.onConnect,
    onClose: addresses.onClose,
    async onRcptTo(address, _session, callback) {
      const recipient = address.address.trim().toLowerCase();
      // smtp-server ignores what this returns: a failed lookup must still answer, or the session hangs.
      let known: boolean;
      try {
        known = await options.isKnownRecipient(recipient);
      } catch (error) {
        log.error(
          { err: error instanceof Error ? error.message : String(error) },
          "smtp: looking up a recipient failed",
        );
        return callback(new SmtpReply(451, "4.3.0 Temporary failure, try again later"));
      }
      if (known) return callback();
      log.info({ recipient }, "smtp: refused unknown recipient");
      callback(new SmtpReply(550, "5.1.1 No such mailbox here"));
    },
    onData: (stream, session, callback) => receiveMessage({ options, maxBytes, phases }, stream, session, callback),
  });
  server.on("error", (error) => log.warn({ err: error.message }, "smtp: connection error"));
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: unknown) =>
      reject(isAddressInUse(error) ? new PortTakenError("SMTP", options.host, options.port) : error);
    server.once("error", refuse);
    server.listen(options.port, options.host, () => {
      server.off("error", refuse);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  log.info({ port, tls: Boolean(options.tls), limits }, "smtp receiver listening");
  return {
    port,
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          phases.clear();
          resolve();
        }),
      ),
  };
}

type SmtpConnection = { id: string; remoteAddress: string; send(code: number, message: string): void };
type PhaseDeadlines = ReturnType<typeof createPhaseDeadlines>;

/** Each session's deadline for its current phase (SmtpLimits), closing it with 421 when passed. */
function createPhaseDeadlines(
  limits: SmtpLimits,
  hostname: string | undefined,
  log: Logger,
  connectionOf: (sessionId: string) => SmtpConnection | undefined,
) {
  const deadlines = new Map<string, ReturnType<typeof setTimeout>>();
  return {
    /** Starts the deadline of the session's current phase, replacing the previous one. */
    start(sessionId: string, phase: "command" | "data") {
      clearTimeout(deadlines.get(sessionId));
      const ms = phase === "data" ? limits.dataPhaseMs : limits.commandPhaseMs;
      const timer = setTimeout(() => {
        deadlines.delete(sessionId);
        const connection = connectionOf(sessionId);
        if (!connection) return;
        log.info(
          { phase, remote: connection.remoteAddress, limitMs: ms },
          "smtp: closed a session over its phase time limit",
        );
        // 421 closes the connection; a message cut off in DATA is dropped (its stream errors), never stored.
        connection.send(
          421,
          `${hostname ?? "Desk"} Timeout: ${phase === "data" ? "message" : "commands"} took too long, closing connection`,
        );
      }, ms);
      timer.unref();
      deadlines.set(sessionId, timer);
    },
    stop(sessionId: string) {
      clearTimeout(deadlines.get(sessionId));
      deadlines.delete(sessionId);
    },
    clear() {
      for (const timer of deadlines.values()) clearTimeout(timer);
      deadlines.clear();
    },
  };
}

/** Open sessions per client address, and the sessions counted there (refused ones are not). */
function createAddressCounter(limits: SmtpLimits, log: Logger, phases: PhaseDeadlines) {
  const perAddress = new Map<string, number>();
  const counted = new Map<string, string>();
  return {
    onConnect(session: SMTPServerSession, callback: (error?: Error) => void) {
      const address = session.remoteAddress;
      const open = perAddress.get(address) ?? 0;
      if (open >= limits.maxConnectionsPerAddress) {
        log.info({ remote: address, open }, "smtp: refused a connection over the per-address limit");
        return callback(new SmtpReply(421, "4.7.0 Too many connections from your address, try again later"));
      }
      perAddress.set(address, open + 1);
      counted.set(session.id, address);
      countSmtpSession();
      phases.start(session.id, "command");
      callback();
    },
    onClose(session: SMTPServerSession) {
      phases.stop(session.id);
      const address = counted.get(session.id);
      if (address === undefined) return;
      counted.delete(session.id);
      const open = (perAddress.get(address) ?? 1) - 1;
      if (open > 0) perAddress.set(address, open);
      else perAddress.delete(address);
    },
  };
}

/** DATA: reads the message under the size limit and answers once `onMail` stored or refused it. */
function receiveMessage(
  receiver: { options: SmtpReceiverOptions; maxBytes: number; phases: PhaseDeadlines },
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  callback: (error?: Error | null, message?: string) => void,
): void {
  const { options, maxBytes, phases } = receiver;
  const log = options.logger;
  phases.start(session.id, "data");
  // The next envelope gets a fresh command phase once this message is answered.
  const answer: typeof callback = (error, message) => {
    phases.start(session.id, "command");
    callback(error, message);
  };
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  });
  stream.on("error", (error) => {
    phases.stop(session.id);
    callback(error);
  });
  stream.on("end", () => {
    // The client has sent everything: storing it is our time, not the client's phase.
    phases.stop(session.id);
    if (stream.sizeExceeded || size > maxBytes) {
      log.info({ bytes: size, limit: maxBytes }, "smtp: refused oversized message");
      return answer(new SmtpReply(552, `5.3.4 Message too big (limit ${maxBytes} bytes)`));
    }
    const mail: ReceivedMail = {
      // Buffer.concat already makes one fresh copy; a Buffer is a Uint8Array, so no second one.
      raw: Buffer.concat(chunks, size),
      recipients: session.envelope.rcptTo.map((r) => r.address.trim().toLowerCase()),
      mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
      remoteAddress: session.remoteAddress ?? null,
      receivedAt: performance.now(),
    };
    void options.onMail(mail).then(
      () => {
        recordSmtpMessage("accepted");
        answer(null, "2.0.0 Message accepted");
      },
      (error: unknown) => {
        if (error instanceof MailRefused) {
          recordSmtpMessage("refused");
          return answer(new SmtpReply(550, `5.6.0 ${error.message}`));
        }
        recordSmtpMessage("deferred");
        log.error({ err: error instanceof Error ? error.message : String(error) }, "smtp: storing a message failed");
        answer(new SmtpReply(451, "4.3.0 Temporary failure storing the message, try again later"));
      },
    );
  });
}
