import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { createLogger } from "../lib/logger";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpReceiver, type ReceivedMail } from "./mail.receiver";

/** A self-signed certificate for 127.0.0.1 / localhost, made by openssl for this test run. */
const dir = mkdtempSync(join(tmpdir(), "desk-smtp-tls-"));
const made = Bun.spawnSync([
  "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
  "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
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
  isKnownRecipient: (address) => address === "support@desk.test",
  async onMail(mail) {
    received.push(mail);
  },
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const message = (bytes: number) => ({ from: "carol@customer.test", to: "support@desk.test", subject: "Hello", text: "x".repeat(bytes) });

describe("the SMTP receiver", () => {
  test("offers STARTTLS; a client requiring TLS delivers over it with the certificate verified", async () => {
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: receiver.port, secure: false, requireTLS: true, tls: { ca: [cert], servername: "localhost" } });
    const info = await client.sendMail({ ...message(10), messageId: "<tls-1@customer.test>" });
    expect(info.response).toMatch(/^250 /);
    expect(new TextDecoder().decode(received.at(-1)!.raw)).toContain("Message-ID: <tls-1@customer.test>");
    client.close();
  });

  test("a client that does not trust the certificate refuses to send (no silent downgrade)", async () => {
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: receiver.port, secure: false, requireTLS: true, tls: { servername: "localhost" } });
    const before = received.length;
    await expect(client.sendMail(message(10))).rejects.toThrow();
    expect(received.length).toBe(before);
    client.close();
  });

  test("a message over the size limit is refused with 552 after DATA and not handed on", async () => {
    const before = received.length;
    const raw = new TextEncoder().encode(`From: carol@customer.test\r\nTo: support@desk.test\r\nSubject: big\r\n\r\n${"y".repeat(LIMIT + 1000)}\r\n`);
    const replies = await sendRawSmtp(receiver.port, raw, { from: "carol@customer.test", to: ["support@desk.test"] });
    const final = replies.at(-2)!;
    expect(final.code).toBe(552);
    expect(final.text).toContain(`limit ${LIMIT} bytes`);
    expect(received.length).toBe(before);
    // The receiver stays up: a message within the limit still arrives.
    const small = await sendRawSmtp(receiver.port, new TextEncoder().encode("From: carol@customer.test\r\nSubject: small\r\n\r\nok\r\n"), { from: "carol@customer.test", to: ["support@desk.test"] });
    expect(small.at(-2)!.code).toBe(250);
    expect(received.length).toBe(before + 1);
  });

  test("a client declaring SIZE over the limit is refused at MAIL FROM", async () => {
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: receiver.port, secure: false, ignoreTLS: true });
    const error = await client.sendMail(message(LIMIT * 2)).catch((e: { responseCode?: number }) => e);
    expect((error as { responseCode?: number }).responseCode).toBe(552);
    client.close();
  });

  test("unknown recipients are refused with 550 at RCPT", async () => {
    const replies = await sendRawSmtp(receiver.port, new TextEncoder().encode("Subject: x\r\n\r\nx\r\n"), { from: "a@b.test", to: ["nobody@desk.test"] });
    expect(replies.find((r) => r.code === 550)?.text).toContain("No such mailbox");
  });
});
