import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { freePort } from "../../test/peers/dovecot";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { parseEmail } from "../mail/mail.parse";
import { contentLanguageOf, detectLanguage } from "./inbound.language";

const sink = await startSmtpSink();
const smtpPort = await freePort();
const desk = await startTestDesk({
  env: {
    DESK_SMTP_PORT: String(smtpPort),
    DESK_INBOUND_DOMAIN: "desk.test",
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  },
});
afterAll(() => sink.stop());

const { owner } = await createWorkspaceWithOwner(desk);
await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: {
    name: "Support",
    email: "hilfe@acme.test",
    outbound_kind: "smtp",
    config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
    // No text of its own: Desk's default auto-reply goes out, in the customer's language.
    auto_reply_enabled: true,
  },
});

const GERMAN =
  "Guten Tag, ich habe eine Frage zu meiner Rechnung vom letzten Monat. Können Sie mir bitte helfen? Vielen Dank.";
const FRENCH =
  "Bonjour, je n’arrive pas à me connecter à mon compte depuis hier soir. Pouvez-vous m’aider, s’il vous plaît ?";

let seq = 0;
const eml = (from: string, body: string, headers: string[] = []) =>
  [
    `From: ${from}`,
    "To: hilfe@acme.test",
    `Subject: Frage ${seq}`,
    `Message-ID: <lang${Date.now()}.${seq++}@customer.test>`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    ...headers,
    "",
    body,
    "",
  ].join("\r\n");

/** One message over a real SMTP socket to the desk's own listener, as a mail server delivers it. */
function sendSmtp(raw: string): Promise<string[]> {
  const commands = [
    "EHLO client.test\r\n",
    "MAIL FROM:<sender@customer.test>\r\n",
    "RCPT TO:<hilfe@acme.test>\r\n",
    "DATA\r\n",
    `${raw.replace(/\r\n\./g, "\r\n..")}\r\n.\r\n`,
    "QUIT\r\n",
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(smtpPort, "127.0.0.1");
    const replies: string[] = [];
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      let match = /^(\d{3}) .*\r\n/m.exec(buffer);
      while (match) {
        replies.push(match[0].trim());
        buffer = buffer.slice(match.index + match[0].length);
        const next = commands[replies.length - 1];
        if (next) socket.write(next);
        else socket.end();
        match = /^(\d{3}) .*\r\n/m.exec(buffer);
      }
    });
    socket.on("end", () => resolve(replies));
    socket.on("error", reject);
  });
}

async function localeOfSender(email: string): Promise<string | null | undefined> {
  const list = await desk.api("GET", `/v1/contacts?q=${encodeURIComponent(email)}`, { headers: owner.headers });
  return (list.body.data as Array<{ email: string; locale: string | null }>).find((c) => c.email === email)?.locale;
}

describe("the language of inbound mail", () => {
  test("Content-Language names it, whatever the body's language; a malformed header says nothing", async () => {
    expect((await sendSmtp(eml("Ana <ana@customer.test>", FRENCH, ["Content-Language: de-de, en"]))).at(-2)).toMatch(
      /^250 /,
    );
    expect(await localeOfSender("ana@customer.test")).toBe("de-DE");
    const headers = (value: string) => ({ headers: new Map([["content-language", [value]]]) });
    expect(contentLanguageOf(headers("not a tag; x"))).toBeNull();
    expect(contentLanguageOf(headers("*"))).toBeNull();
    expect(contentLanguageOf(headers("FR-ca"))).toBe("fr-CA");
  });

  test("without the header, a German or a French body is detected; a short or ambiguous one is not", async () => {
    await sendSmtp(eml("Bernd <bernd@customer.test>", GERMAN));
    await sendSmtp(eml("Chloé <chloe@customer.test>", FRENCH));
    await sendSmtp(eml("Dan <dan@customer.test>", "Danke!"));
    expect(await localeOfSender("bernd@customer.test")).toBe("de");
    expect(await localeOfSender("chloe@customer.test")).toBe("fr");
    expect(await localeOfSender("dan@customer.test")).toBeNull();
    // Spanish and Portuguese score alike on a short line: no guess.
    expect(await detectLanguage("Hola, no puedo entrar en mi cuenta desde ayer. ¿Me pueden ayudar?")).toBeNull();
    expect(await detectLanguage("Order 12345 ref ABC-778 https://shop.example/orders/12345?x=1")).toBeNull();
  });

  test("set once: a later mail in another language, or an agent's choice, is never overwritten", async () => {
    await sendSmtp(eml("Eva <eva@customer.test>", GERMAN));
    await sendSmtp(eml("Eva <eva@customer.test>", FRENCH, ["Content-Language: fr"]));
    expect(await localeOfSender("eva@customer.test")).toBe("de");
    const made = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "fay@customer.test", locale: "es" },
    });
    expect(made.status).toBe(201);
    await sendSmtp(eml("Fay <fay@customer.test>", GERMAN, ["Content-Language: de"]));
    expect(await localeOfSender("fay@customer.test")).toBe("es");
  });

  test("Desk's default auto-reply and the request link speak the German contact's language", async () => {
    const before = sink.messages().length;
    await sendSmtp(eml("Gerd <gerd@customer.test>", GERMAN, ["Content-Language: de"]));
    for (let i = 0; i < 3; i++) await desk.jobs.drain();
    const raw = await sink.waitForMatch((m) => m.includes("gerd@customer.test"));
    expect(sink.messages().length).toBeGreaterThan(before);
    const mail = await parseEmail(new TextEncoder().encode(raw));
    expect(mail.text).toContain("Wir haben Ihre Nachricht erhalten und melden uns bald bei Ihnen.");
    expect(mail.text).toContain("Ihre Anfrage ansehen:");
    expect(mail.text).not.toContain("We received your message");
  });

  test("an agent's reply quotes the German contact under a German attribution", async () => {
    await sendSmtp(eml("Hilde <hilde@customer.test>", GERMAN, ["Content-Language: de"]));
    const list = await desk.api("GET", "/v1/tickets?limit=100", { headers: owner.headers });
    const ticket = (list.body as { data: Array<{ id: string; contact: { email: string } | null }> }).data.find(
      (t) => t.contact?.email === "hilde@customer.test",
    );
    expect(ticket).toBeDefined();
    const reply = await desk.api("POST", `/v1/tickets/${ticket!.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>Erledigt.</p>" },
    });
    expect(reply.status).toBe(201);
    for (let i = 0; i < 3; i++) await desk.jobs.drain();
    const raw = await sink.waitForMatch((m) => m.includes("hilde@customer.test") && m.includes("Erledigt"));
    const mail = await parseEmail(new TextEncoder().encode(raw));
    expect(mail.text).toMatch(/^Am .+ schrieb Hilde <hilde@customer\.test>:$/m);
    expect(mail.text).not.toContain(" wrote:");
  });
});
