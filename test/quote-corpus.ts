import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The quote-trimming corpus (../shared/mail-trimming beside the repository, as CI clones it): real
 * replies other projects wrote for their own quote-stripping tests, each with the reply a reader
 * should see. This module builds each fixture into a reply mail and judges what Desk stored.
 */
export type QuoteFixture = {
  id: string;
  file: string;
  kind: "text" | "html" | "eml";
  expected: string;
  quoted: boolean;
  style: string;
  optional?: string[];
  probes?: string[];
};

const repoRoot = resolve(import.meta.dir, "..");
export const quoteCorpusDir = resolve(repoRoot, "../shared/mail-trimming");

/**
 * Desk's own corpus (test/quote-corpus-own): replies constructed per client family from how each
 * client writes its quotes, kept apart from the shared one so that the two measure different things.
 */
export const ownQuoteCorpusDir = resolve(repoRoot, "test/quote-corpus-own");

/** Throws when the corpus is missing: a quiet skip would let the bars pass without being measured. */
export function loadQuoteCorpus(dir = quoteCorpusDir): Array<QuoteFixture & { body: Buffer; expectedText: string }> {
  const index = join(dir, "fixtures.json");
  if (!existsSync(index))
    throw new Error(`quote-trimming corpus missing: ${index} (clone shared/ beside the repository)`);
  const { fixtures } = JSON.parse(readFileSync(index, "utf8")) as { fixtures: QuoteFixture[] };
  return fixtures.map((f) => ({
    ...f,
    body: readFileSync(join(dir, f.file)),
    expectedText: readFileSync(join(dir, f.expected), "utf8"),
  }));
}

/** Headers of ours that replace the fixture's own: the reply is threaded to an existing ticket. */
const OWN_HEADERS =
  /^(from|to|cc|bcc|subject|date|message-id|in-reply-to|references|reply-to|sender|return-path|received|delivered-to|x-[\w-]+|dkim-signature|authentication-results|arc-[\w-]+|user-agent|thread-[\w-]+|importance|x-mailer)$/i;

/**
 * A whole reply mail for a fixture: text and HTML bodies go base64 in UTF-8 (byte-exact, line
 * endings included); an .eml keeps its content headers and body as they are, under our envelope.
 */
export function replyMailFor(
  fixture: QuoteFixture & { body: Buffer },
  thread: { messageId: string; inReplyTo: string; from: string; to: string; subject: string },
): Uint8Array {
  const ours = [
    `From: ${thread.from}`,
    `To: ${thread.to}`,
    `Subject: ${thread.subject}`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    `Message-ID: ${thread.messageId}`,
    `In-Reply-To: ${thread.inReplyTo}`,
    `References: ${thread.inReplyTo}`,
  ];
  if (fixture.kind !== "eml") {
    const type = fixture.kind === "html" ? "text/html" : "text/plain";
    const base64 = fixture.body.toString("base64").replace(/.{76}/g, "$&\r\n");
    const head = [
      ...ours,
      "MIME-Version: 1.0",
      `Content-Type: ${type}; charset=utf-8`,
      "Content-Transfer-Encoding: base64",
    ].join("\r\n");
    return new Uint8Array(Buffer.from(`${head}\r\n\r\n${base64}\r\n`, "latin1"));
  }
  const raw = fixture.body.toString("latin1");
  const split = /\r?\n\r?\n/.exec(raw)!;
  const kept: string[] = [];
  let keep = false;
  for (const line of raw.slice(0, split.index).split(/\r?\n/)) {
    if (/^[ \t]/.test(line)) {
      if (keep) kept.push(line);
      continue;
    }
    const name = line.slice(0, line.indexOf(":"));
    keep = !OWN_HEADERS.test(name);
    if (keep) kept.push(line);
  }
  const body = raw.slice(split.index + split[0].length);
  return new Uint8Array(Buffer.from(`${[...ours, ...kept].join("\r\n")}\r\n\r\n${body}`, "latin1"));
}

/** Whitespace-normalised: zero-width and non-breaking spaces count as spaces, runs collapse. */
export const normalizeSpace = (text: string): string =>
  text.replace(/(?:[\s\u00a0\u200b\u200c\u202f\ufeff]|\u200d)+/g, " ").trim();

const linesOf = (text: string): string[] => text.split(/\r?\n/).map(normalizeSpace).filter(Boolean);

export type Verdict = { right: boolean; lostLines: string[] };

/**
 * Right: the stored text equals the expected reply (whitespace-normalised), with or without each
 * optional line. Lost: the expected lines (optional ones aside) missing from what was stored.
 */
export function judge(stored: string, fixture: { expectedText: string; optional?: string[] }): Verdict {
  const optional = new Set((fixture.optional ?? []).map(normalizeSpace).filter(Boolean));
  const flatStored = normalizeSpace(stored);
  const required = linesOf(fixture.expectedText).filter((line) => !optional.has(line));
  const lostLines = required.filter((line) => !flatStored.includes(line));
  let withoutOptional = flatStored;
  for (const line of optional) withoutOptional = normalizeSpace(withoutOptional.replace(line, " "));
  const right = lostLines.length === 0 && withoutOptional === normalizeSpace(required.join(" "));
  return { right, lostLines };
}
