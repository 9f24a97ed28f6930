import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import nodemailer from "nodemailer";
import { createLogger } from "../lib/logger";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpReceiver, type ReceivedMail } from "./mail.receiver";

/** A self-signed certificate for 127.0.0.1 / localhost, made by openssl for this test run. */
const dir = mkdtempSync(join(tmpdir(), "desk-smtp-tls-"));
const made = Bun.spawnSync([
  "openssl",
  "req",
  "-x509",
  "-newkey",
  "rsa:2048",
  "-nodes",
  "-days",
  "1",
  "-subj",
  "/CN=localhost",
  "-addext",
  "subjectAltName=DNS:localhost,IP:127.0.0.1",
  "-keyout",
  join(dir, "key.pem"),
  "-out",
  join(dir, "cert.pem"),
]);
if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
const cert = readFileSync(join(dir, "cert.pem"), "utf8");
const key = readFileSync(join(dir, "key.pem"), "utf8");

const received: ReceivedMail[] = [];
const LIMIT = 64 * 1024;
const receiver = await startSmtpReceiver({
  host: "127.0.0.1",
  port: await freePort(),
  tls: { cert, key },
  hostname: "mx.desk.test",
  maxBytes: LIMIT,
  logger: createLogger("silent"),
  // The store answers asynchronously; "broken@" stands for a lookup that fails.
  isKnownRecipient: async (address) => {
    if (address === "broken@desk.test") throw new Error("the store is unavailable");
    return address === "support@desk.test";
  },
  async onMail(mail) {
    received.push(mail);
  },
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const message = (bytes: number) => ({
  from: "carol@customer.test",
  to: "support@desk.test",
  subject: "Hello",
  text: "x".repeat(bytes),
});

describe("the SMTP receiver", () => {
  test("offers STARTTLS; a client requiring TLS delivers over it with the certificate verified", async () => {
    const client = nodemailer.createTransport({
      host: "127.0.0.1",
      port: receiver.port,
      secure: false,
      requireTLS: true,
      tls: { ca: [cert], servername: "localhost" },
    });
    const info = await client.sendMail({ ...message(10), messageId: "<tls-1@customer.test>" });
    expect(info.response).toMatch(/^250 /);
    expect(new TextDecoder().decode(received.at(-1)!.raw)).toContain("Message-ID: <tls-1@customer.test>");
    client.close();
  });

  test("a client that does not trust the certificate refuses to send (no silent downgrade)", async () => {
    const client = nodemailer.createTransport({
      host: "127.0.0.1",
      port: receiver.port,
      secure: false,
      requireTLS: true,
      tls: { servername: "localhost" },
    });
    const before = received.length;
    await expect(client.sendMail(message(10))).rejects.toThrow();
    expect(received.length).toBe(before);
    client.close();
  });

  test("a message over the size limit is refused with 552 after DATA and not handed on", async () => {
    const before = received.length;
    const raw = new TextEncoder().encode(
      `From: carol@customer.test\r\nTo: support@desk.test\r\nSubject: big\r\n\r\n${"y".repeat(LIMIT + 1000)}\r\n`,
    );
    const replies = await sendRawSmtp(receiver.port, raw, { from: "carol@customer.test", to: ["support@desk.test"] });
    const final = replies.at(-2)!;
    expect(final.code).toBe(552);
    expect(final.text).toContain(`limit ${LIMIT} bytes`);
    expect(received.length).toBe(before);
    // The receiver stays up: a message within the limit still arrives.
    const small = await sendRawSmtp(
      receiver.port,
      new TextEncoder().encode("From: carol@customer.test\r\nSubject: small\r\n\r\nok\r\n"),
      { from: "carol@customer.test", to: ["support@desk.test"] },
    );
    expect(small.at(-2)!.code).toBe(250);
    expect(received.length).toBe(before + 1);
  });

  test("a client declaring SIZE over the limit is refused at MAIL FROM", async () => {
    const client = nodemailer.createTransport({
      host: "127.0.0.1",
      port: receiver.port,
      secure: false,
      ignoreTLS: true,
    });
    const error = await client.sendMail(message(LIMIT * 2)).catch((e: { responseCode?: number }) => e);
    expect((error as { responseCode?: number }).responseCode).toBe(552);
    client.close();
  });

  test("unknown recipients are refused with 550 at RCPT", async () => {
    const replies = await sendRawSmtp(receiver.port, new TextEncoder().encode("Subject: x\r\n\r\nx\r\n"), {
      from: "a@b.test",
      to: ["nobody@desk.test"],
    });
    expect(replies.find((r) => r.code === 550)?.text).toContain("No such mailbox");
  });

  test("a recipient lookup that fails is answered 451 at RCPT (try again later), not left hanging", async () => {
    const count = received.length;
    const replies = await sendRawSmtp(receiver.port, new TextEncoder().encode("Subject: x\r\n\r\nx\r\n"), {
      from: "a@b.test",
      to: ["broken@desk.test"],
    });
    expect(replies.find((r) => r.code === 451)?.text).toContain("try again later");
    expect(received.length).toBe(count);
  });
});

/** A line-reading SMTP client over a real socket, from a chosen loopback address. */
function rawClient(port: number, localAddress = "127.0.0.1") {
  const socket = connect({ port, host: "127.0.0.1", localAddress });
  const lines: string[] = [];
  let buffer = "";
  let closedAt = 0;
  const closed = new Promise<void>((resolve) =>
    socket.on("close", () => {
      closedAt = performance.now();
      resolve();
    }),
  );
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
      lines.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  });
  /** Resolves with the first final reply line (`NNN text`) after `from` lines were seen. */
  const reply = async (from: number, timeoutMs = 3000): Promise<string> => {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const line = lines.slice(from).find((l) => /^\d{3} /.test(l));
      if (line) return line;
      if (performance.now() > until) throw new Error(`no reply; lines: ${JSON.stringify(lines)}`);
      await Bun.sleep(10);
    }
  };
  const command = async (text: string): Promise<string> => {
    const from = lines.length;
    socket.write(text);
    return reply(from);
  };
  return { socket, lines, closed, closedAt: () => closedAt, reply, command, end: () => socket.destroy() };
}

async function startLimited(limits: Parameters<typeof startSmtpReceiver>[0]["limits"], mails: ReceivedMail[] = []) {
  return startSmtpReceiver({
    host: "127.0.0.1",
    port: 0,
    tls: null,
    hostname: "mx.desk.test",
    logger: createLogger("silent"),
    limits,
    isKnownRecipient: (address) => address === "support@desk.test",
    async onMail(mail) {
      mails.push(mail);
    },
  });
}

describe("the SMTP receiver's limits", () => {
  test("without a certificate STARTTLS is neither advertised nor accepted; the session goes on in plain text", async () => {
    const mails: ReceivedMail[] = [];
    const plain = await startLimited({}, mails);
    try {
      const client = rawClient(plain.port);
      expect(await client.reply(0)).toMatch(/^220 /);
      const from = client.lines.length;
      expect(await client.command("EHLO client.test\r\n")).toMatch(/^250 /);
      expect(client.lines.slice(from).join("\n")).not.toContain("STARTTLS");
      expect(await client.command("STARTTLS\r\n")).toMatch(/^5\d\d /);
      expect(await client.command("MAIL FROM:<carol@customer.test>\r\n")).toMatch(/^250 /);
      expect(await client.command("RCPT TO:<support@desk.test>\r\n")).toMatch(/^250 /);
      expect(await client.command("DATA\r\n")).toMatch(/^354 /);
      expect(await client.command("Subject: plain\r\n\r\nhello\r\n.\r\n")).toMatch(/^250 /);
      expect(mails.length).toBe(1);
      client.end();
    } finally {
      await plain.close();
    }
  });

  test("connections over the per-address cap get 421; a closed one frees its place; other addresses are not affected", async () => {
    const limited = await startLimited({ maxConnectionsPerAddress: 2 });
    try {
      const first = rawClient(limited.port);
      const second = rawClient(limited.port);
      expect(await first.reply(0)).toMatch(/^220 /);
      expect(await second.reply(0)).toMatch(/^220 /);
      const third = rawClient(limited.port);
      expect(await third.reply(0)).toMatch(/^421 .*Too many connections from your address/);
      await third.closed;
      const elsewhere = rawClient(limited.port, "127.0.0.2");
      expect(await elsewhere.reply(0)).toMatch(/^220 /);
      first.end();
      await first.closed;
      await Bun.sleep(50);
      const again = rawClient(limited.port);
      expect(await again.reply(0)).toMatch(/^220 /);
      for (const c of [second, elsewhere, again]) c.end();
    } finally {
      await limited.close();
    }
  });

  test("connections over the total cap get 421 whatever their address", async () => {
    const limited = await startLimited({ maxConnections: 3, maxConnectionsPerAddress: 3 });
    try {
      const open = ["127.0.0.2", "127.0.0.3", "127.0.0.4"].map((address) => rawClient(limited.port, address));
      for (const c of open) expect(await c.reply(0)).toMatch(/^220 /);
      const extra = rawClient(limited.port, "127.0.0.5");
      expect(await extra.reply(0)).toMatch(/^421 .*Too many connected clients/);
      await extra.closed;
      for (const c of open) c.end();
    } finally {
      await limited.close();
    }
  });

  test("a client dribbling a byte at a time inside DATA is cut off at the data phase limit and nothing is stored", async () => {
    const mails: ReceivedMail[] = [];
    // The idle timeout is far away: only the phase deadline can end this session.
    const limited = await startLimited({ idleMs: 30_000, dataPhaseMs: 600 }, mails);
    try {
      const client = rawClient(limited.port);
      await client.reply(0);
      await client.command("EHLO client.test\r\n");
      await client.command("MAIL FROM:<carol@customer.test>\r\n");
      await client.command("RCPT TO:<support@desk.test>\r\n");
      expect(await client.command("DATA\r\n")).toMatch(/^354 /);
      const started = performance.now();
      const from = client.lines.length;
      const drip = setInterval(() => client.socket.writable && client.socket.write("x"), 50);
      await client.closed;
      clearInterval(drip);
      const took = performance.now() - started;
      expect(took).toBeGreaterThan(500);
      expect(took).toBeLessThan(3000);
      expect(client.lines.slice(from).join("\n")).toMatch(/^421 .*took too long/m);
      await Bun.sleep(50);
      expect(mails.length).toBe(0);
    } finally {
      await limited.close();
    }
  });

  test("a client dribbling a command is cut off at the command phase limit", async () => {
    const limited = await startLimited({ idleMs: 30_000, commandPhaseMs: 600 });
    try {
      const client = rawClient(limited.port);
      await client.reply(0);
      const started = performance.now();
      const drip = setInterval(() => client.socket.writable && client.socket.write("E"), 50);
      await client.closed;
      clearInterval(drip);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(client.lines.join("\n")).toMatch(/^421 .*took too long/m);
    } finally {
      await limited.close();
    }
  });

  test("each message starts a fresh command phase: a session that keeps delivering outlives one phase limit", async () => {
    const mails: ReceivedMail[] = [];
    const limited = await startLimited({ commandPhaseMs: 700, dataPhaseMs: 700 }, mails);
    try {
      const client = rawClient(limited.port);
      await client.reply(0);
      await client.command("EHLO client.test\r\n");
      const started = performance.now();
      for (let i = 0; i < 3; i++) {
        await Bun.sleep(400);
        expect(await client.command("MAIL FROM:<carol@customer.test>\r\n")).toMatch(/^250 /);
        expect(await client.command("RCPT TO:<support@desk.test>\r\n")).toMatch(/^250 /);
        expect(await client.command("DATA\r\n")).toMatch(/^354 /);
        expect(await client.command(`Subject: ${i}\r\n\r\nhello\r\n.\r\n`)).toMatch(/^250 /);
      }
      expect(performance.now() - started).toBeGreaterThan(1000);
      expect(mails.length).toBe(3);
      client.end();
    } finally {
      await limited.close();
    }
  });
});
