import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId } from "../lib/ids";

export type SystemMail = { to: string; subject: string; text: string };

/** Header values never carry line breaks (no header injection); non-ASCII goes RFC 2047 encoded. */
function headerValue(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ").trim();
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, "utf8").toString("base64")}?=`;
}

/**
 * Without DESK_SMTP_URL, system mail is written as an .eml file under `<data dir>/outbox`
 * (DECISIONS.md). The mail feature may later route this through its relay instead.
 */
export function writeSystemMail(dataDir: string, fromDomain: string, mail: SystemMail, now = new Date()): string {
  const dir = join(dataDir, "outbox");
  mkdirSync(dir, { recursive: true, mode: 0o750 });
  const id = newId();
  const eml = [
    `From: Desk <no-reply@${headerValue(fromDomain)}>`,
    `To: <${headerValue(mail.to).replace(/[<>]/g, "")}>`,
    `Subject: ${headerValue(mail.subject)}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${id}@${headerValue(fromDomain)}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(mail.text.replace(/\r?\n/g, "\r\n"), "utf8").toString("base64").replace(/.{76}/g, "$&\r\n"),
    "",
  ].join("\r\n");
  const path = join(dir, `${now.toISOString().replace(/[:.]/g, "-")}-${id}.eml`);
  writeFileSync(path, eml, { mode: 0o640 });
  return path;
}
