import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { judge, loadQuoteCorpus, replyMailFor } from "../../test/quote-corpus";
import { htmlToText } from "../lib/sanitize";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

/**
 * The quote-trimming corpus (../shared/mail-trimming) through the real inbound pipeline: each
 * reply is posted to POST /v1/inbound/email threaded to an existing ticket, and the stored
 * body_text and body_html (as text) are judged against the reply its source project expects.
 * Bars: at least 95% right, no line of the customer's lost, has_quoted right on 95%. Desk's own
 * constructed corpus (test/quote-corpus-own.test.ts) measures replies the trimmer was not tuned on.
 */
const corpus = loadQuoteCorpus();
const desk = await startTestDesk();
const { owner } = await createWorkspaceWithOwner(desk);
await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: { name: "Support", email: "support@quotes.test" },
});

const post = (raw: Uint8Array) =>
  desk.api("POST", "/v1/inbound/email?to=support%40quotes.test", {
    headers: { "content-type": "message/rfc822", "desk-inbound-secret": "test-inbound-secret" },
    raw: Buffer.from(raw),
  });

const first = await post(
  new TextEncoder().encode(
    [
      "From: Carol <carol@customer.test>",
      "To: support@quotes.test",
      "Subject: Printer",
      "Message-ID: <first@customer.test>",
      "Date: Mon, 23 Nov 2026 09:00:00 +0000",
      "",
      "It burns.",
      "",
    ].join("\r\n"),
  ),
);

type Stored = { ticket_id: string; body_text: string; body_html: string; has_quoted: number };

describe("quote trimming on the reply corpus, through the inbound pipeline", () => {
  test("meets the bars and prints the figures", async () => {
    expect(first.status).toBe(202);
    expect(corpus.length).toBeGreaterThanOrEqual(119);
    let right = 0;
    let hasQuotedRight = 0;
    const lost: string[] = [];
    const wrong: string[] = [];
    for (const [n, fixture] of corpus.entries()) {
      const raw = replyMailFor(fixture, {
        from: "Carol <carol@customer.test>",
        to: "support@quotes.test",
        subject: "Re: Printer",
        messageId: `<reply-${n}@customer.test>`,
        inReplyTo: "<first@customer.test>",
      });
      const res = await post(raw);
      expect(res.body.status).toBe("appended");
      expect(res.body.ticket_id).toBe(first.body.ticket_id);
      const stored = (
        await rowsOf<Stored>(
          desk.deps.db,
          sql`SELECT ticket_id, body_text, body_html, has_quoted FROM messages WHERE id = ${res.body.message_id}`,
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
      `quote corpus: ${right}/${total} trimmed right (${pct(right)}), has_quoted right ${hasQuotedRight}/${total} (${pct(hasQuotedRight)}), customer lines lost: ${lost.length}`,
    );
    console.log(`not right: ${wrong.join(", ")}`);
    if (lost.length) console.log(`lost:\n${lost.join("\n")}`);
    expect(lost).toEqual([]);
    expect(right / total).toBeGreaterThanOrEqual(0.95);
    expect(hasQuotedRight / total).toBeGreaterThanOrEqual(0.95);
    // The consumers' reactions to the corpus' events, within this test's time rather than the
    // desk's stop (seconds on PostgreSQL, past a hook's budget).
    await desk.consumers.drain();
  }, 120_000);
});
