import { describe, expect, test } from "bun:test";
import { htmlToText } from "../src/lib/sanitize";
import { createWorkspaceWithOwner } from "./factories";
import { startTestDesk } from "./harness";
import { judge, loadQuoteCorpus, ownQuoteCorpusDir, replyMailFor } from "./quote-corpus";
import { sql } from "drizzle-orm";
import { rowsOf } from "../src/db/store";

/**
 * Desk's own quote-trimming corpus (test/quote-corpus-own, see its README): replies constructed per
 * client family and language as plain text, HTML and whole messages, through the real inbound
 * pipeline and judged like the shared corpus. It measures the rules on replies the trimmer was
 * not tuned on; the shared corpus (src/inbound/inbound.quote-corpus.test.ts) measures real ones.
 * Bars: at least 95% right, no line of the customer's lost, has_quoted right on every one.
 */
const corpus = loadQuoteCorpus(ownQuoteCorpusDir);
const desk = await startTestDesk();
const { owner } = await createWorkspaceWithOwner(desk);
await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: { name: "Support", email: "support@own-quotes.test" },
});

const post = (raw: Uint8Array) =>
  desk.api("POST", "/v1/inbound/email?to=support%40own-quotes.test", {
    headers: { "content-type": "message/rfc822", "desk-inbound-secret": "test-inbound-secret" },
    raw: Buffer.from(raw),
  });

const first = await post(
  new TextEncoder().encode(
    [
      "From: Carol <carol@customer.test>",
      "To: support@own-quotes.test",
      "Subject: Printer",
      "Message-ID: <own-first@customer.test>",
      "Date: Mon, 23 Nov 2026 09:00:00 +0000",
      "",
      "The printer shows E-42.",
      "",
    ].join("\r\n"),
  ),
);

// has_quoted: 0/1 on SQLite, a boolean on PostgreSQL.
type Stored = { body_text: string; body_html: string; has_quoted: number | boolean };

describe("quote trimming on Desk's own constructed corpus, through the inbound pipeline", () => {
  test("meets the bars and prints the figures", async () => {
    expect(first.status).toBe(202);
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    let right = 0;
    let hasQuotedRight = 0;
    const lost: string[] = [];
    const wrong: string[] = [];
    for (const [n, fixture] of corpus.entries()) {
      const raw = replyMailFor(fixture, {
        from: "Carol <carol@customer.test>",
        to: "support@own-quotes.test",
        subject: "Re: Printer",
        messageId: `<own-reply-${n}@customer.test>`,
        inReplyTo: "<own-first@customer.test>",
      });
      const res = await post(raw);
      expect(res.body.status).toBe("appended");
      const stored = (
        await rowsOf<Stored>(
          desk.deps.db,
          sql`SELECT body_text, body_html, has_quoted FROM messages WHERE id = ${res.body.message_id}`,
        )
      )[0]!;
      const asText = judge(stored.body_text, fixture);
      const asHtml = judge(htmlToText(stored.body_html), fixture);
      if (asText.right && asHtml.right) right++;
      else wrong.push(fixture.id);
      for (const line of new Set([...asText.lostLines, ...asHtml.lostLines])) lost.push(`${fixture.id}: ${line}`);
      if (Boolean(stored.has_quoted) === fixture.quoted) hasQuotedRight++;
      else wrong.push(`${fixture.id} (has_quoted)`);
    }
    const total = corpus.length;
    const pct = (k: number) => `${((100 * k) / total).toFixed(1)}%`;
    console.log(
      `own quote corpus: ${right}/${total} trimmed right (${pct(right)}), has_quoted right ${hasQuotedRight}/${total} (${pct(hasQuotedRight)}), customer lines lost: ${lost.length}`,
    );
    if (wrong.length) console.log(`not right: ${wrong.join(", ")}`);
    if (lost.length) console.log(`lost:\n${lost.join("\n")}`);
    expect(lost).toEqual([]);
    expect(right / total).toBeGreaterThanOrEqual(0.95);
    expect(hasQuotedRight).toBe(total);
  }, 120_000);
});
