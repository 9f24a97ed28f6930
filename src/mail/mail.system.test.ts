import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { localBlobStore } from "../lib/blob-store";
import { sendSystemMail } from "./mail.system";

const sink = await startSmtpSink();
afterAll(() => sink.stop());
const blobs = localBlobStore(mkdtempSync(join(tmpdir(), "desk-system-mail-")));
const config = (mailFrom: string | null) => ({
  baseUrl: "https://desk.example.com",
  smtpRelayUrl: `smtp://127.0.0.1:${sink.port}?tls=none`,
  mailFrom,
});
const mail = (to: string) => ({
  to,
  subject: "Your invitation",
  lines: ["Join us: https://x.test/i"],
  link: "https://x.test/i",
});

describe("system mail through the relay", () => {
  test("comes from DESK_MAIL_FROM when set, else no-reply@ the base URL's host", async () => {
    await sendSystemMail(
      config("desk@acme.example"),
      new Date(),
      { ...mail("ana@team.test"), fromName: "Acme" },
      blobs,
    );
    await sendSystemMail(config(null), new Date(), mail("ben@team.test"), blobs);
    const configured = await sink.waitForMatch((m) => m.includes("To: ana@team.test") && m.includes("Join us"));
    expect(configured).toContain("From: Acme <desk@acme.example>");
    const fallback = await sink.waitForMatch((m) => m.includes("To: ben@team.test") && m.includes("Join us"));
    expect(fallback).toContain("From: Desk <no-reply@desk.example.com>");
  });
});
