import { connect, type Socket } from "node:net";

export type SmtpReplyLine = { code: number; text: string };

/**
 * A byte-exact SMTP client over a real socket: sends raw message bytes as written (8-bit, NUL,
 * bare LF), only dot-stuffing them. Answers every final reply in order: greeting, EHLO, MAIL,
 * RCPT…, DATA, end of data, QUIT. Tests use it where nodemailer would rewrite the message.
 */
export async function sendRawSmtp(
  port: number,
  raw: Uint8Array,
  envelope: { from: string; to: string[] },
  host = "127.0.0.1",
): Promise<SmtpReplyLine[]> {
  const socket: Socket = connect(port, host);
  const replies: SmtpReplyLine[] = [];
  let buffer = "";
  let waiting: ((line: SmtpReplyLine) => void) | null = null;
  const pending: SmtpReplyLine[] = [];
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    for (;;) {
      const match = /^(\d{3}) (.*)\r\n/m.exec(buffer);
      if (!match) break;
      buffer = buffer.slice(match.index + match[0].length);
      const line = { code: Number(match[1]), text: match[2]! };
      replies.push(line);
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve(line);
      } else pending.push(line);
    }
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("error", () => {});
  const next = () =>
    new Promise<SmtpReplyLine>((resolve, reject) => {
      const queued = pending.shift();
      if (queued) return resolve(queued);
      waiting = resolve;
      socket.once("close", () => reject(new Error(`connection closed after: ${JSON.stringify(replies)}`)));
    });
  const command = async (text: string) => {
    socket.write(text);
    return next();
  };
  await next();
  await command("EHLO client.test\r\n");
  await command(`MAIL FROM:<${envelope.from}>\r\n`);
  for (const to of envelope.to) await command(`RCPT TO:<${to}>\r\n`);
  const data = await command("DATA\r\n");
  if (data.code === 354) {
    socket.write(dotStuff(raw));
    // The terminator needs a CRLF before the dot; a file ending in a bare LF still gets one.
    const endsWithCrlf = raw.length > 1 && raw[raw.length - 2] === 0x0d && raw[raw.length - 1] === 0x0a;
    const ending = endsWithCrlf ? "" : "\r\n";
    socket.write(`${ending}.\r\n`);
    await next();
  }
  await command("QUIT\r\n").catch(() => undefined);
  socket.end();
  await closed;
  return replies;
}

/** Doubles a leading dot on every line (RFC 5321 §4.5.2), on bytes. */
function dotStuff(raw: Uint8Array): Buffer {
  const source = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const pieces: Buffer[] = [];
  let from = 0;
  let lineStart = 0;
  while (lineStart < source.length) {
    if (source[lineStart] === 0x2e) {
      pieces.push(source.subarray(from, lineStart), Buffer.from("."));
      from = lineStart;
    }
    const newline = source.indexOf(0x0a, lineStart);
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  pieces.push(source.subarray(from));
  return Buffer.concat(pieces);
}
