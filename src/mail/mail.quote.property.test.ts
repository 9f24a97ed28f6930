import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { trimQuoted } from "./mail.quote";

/**
 * Never lose the customer's words: random customer text placed above, below and between real
 * quote blocks (as Gmail, Apple Mail, Thunderbird, Outlook and Zoho write them) keeps every line,
 * in order. The prose is drawn from words that look like history on their own (dates, addresses,
 * "on", "wrote", "from", links, other scripts) so the rules are tried at their edges; what would
 * make a line clearly history (a leading ">", an attribution verb ending it, a field name with a
 * colon, a sig-dash) is left out, since such a line is not the customer's prose.
 */

const WORDS = [
  "printer",
  "the",
  "on",
  "On",
  "Monday",
  "wrote",
  "sent",
  "from",
  "From",
  "date",
  "to",
  "subject",
  "-",
  "5",
  "2026",
  "10:00",
  "carol@y.test",
  "<s@x.test>",
  "https://x.test/a?b=1",
  "Grüße",
  "谢谢",
  "спасибо",
  "écrit",
  "…",
  "still",
  "broken.",
  "Thanks!",
  "why?",
  "(again)",
  "ok",
];

const line = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 })
  .map((words) => words.join(" "))
  .filter((l) => !/(?:wrote|écrit)$/.test(l));
const prose = fc.array(line, { minLength: 1, maxLength: 4 });

/** Quote blocks that end with history of their own or are followed by more of the reply. */
const QUOTES = [
  "On Mon, Jan 5, 2026 at 10:00 AM Support <s@x.test> wrote:\n> Please restart the printer.\n> Support",
  "Am 05.01.2026 um 10:00 schrieb Support <s@x.test>:\n\n> Bitte starten Sie den Drucker neu.\n>\n>> Alte Nachricht.",
  "On 05/01/2026 10:00, Support wrote:\n> Could you send us the serial number of the printer and the model name\n> so we can look it up?",
  "---- On Mon, 05 Jan 2026 10:00:00 +0100 Support <s@x.test> wrote ----\n\n> Thanks for the details.",
  "> Which floor is the printer on?",
  "Le 5 janv. 2026 à 10:00, Support <s@x.test> a écrit :\n> Merci.",
];
const UNMARKED = [
  "From: Support <s@x.test>\nSent: Monday, January 5, 2026 10:00 AM\nTo: Carol\nSubject: RE: Printer\n\nPlease restart it.",
  "-----Original Message-----\nFrom: Support\nSent: Monday\n\nOld text.",
  "Gesendet: Montag, 05. Januar 2026 um 10:00 Uhr\nVon: Support <s@x.test>\nAn: c@y.test\nBetreff: Drucker\n\nAlt.",
];

const gap = fc.constantFrom("\n", "\n\n");

describe("no customer line is lost", () => {
  test("random prose above, between and below real quote blocks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(prose, fc.constantFrom(...QUOTES), gap, gap), { minLength: 1, maxLength: 3 }),
        fc.option(prose, { nil: undefined }),
        fc.option(fc.constantFrom(...UNMARKED), { nil: undefined }),
        fc.boolean(),
        (parts, tail, unmarked, quoteFirst) => {
          const customer: string[] = [];
          let body = quoteFirst ? `${QUOTES[0]}\n\n` : "";
          for (const [words, quote, before, after] of parts) {
            customer.push(...words);
            body += `${words.join("\n")}${before}${quote}${after}`;
          }
          if (tail) {
            customer.push(...tail);
            body += `${tail.join("\n")}\n`;
          }
          if (unmarked) body += `\n${unmarked}\n`;
          const trimmed = trimQuoted(null, body).text.split("\n");
          let at = 0;
          for (const mine of customer) {
            const found = trimmed.indexOf(mine, at);
            if (found < 0) throw new Error(`lost ${JSON.stringify(mine)} from ${JSON.stringify(body)}`);
            at = found + 1;
          }
        },
      ),
      { numRuns: 400, seed: 20261128 },
    );
  });

  test("random prose in HTML around a client's quote container", () => {
    const CONTAINERS = [
      '<div class="gmail_quote"><div class="gmail_attr">On Mon, Jan 5, 2026 at 10:00 AM Support &lt;s@x.test&gt; wrote:</div><blockquote class="gmail_quote">Old</blockquote></div>',
      '<blockquote type="cite"><div>On 5 Jan 2026, at 10:00, Support wrote:</div><div>Old</div></blockquote>',
    ];
    // Outlook's header block (divRplyFwdMsg) has the quoted message below it unmarked: whatever
    // follows is that message, so only prose above it is the customer's.
    const OUTLOOK = '<div id="divRplyFwdMsg"><b>From:</b> Support<br><b>Sent:</b> Monday</div><div>Old</div>';
    const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    fc.assert(
      fc.property(
        prose,
        fc.option(prose, { nil: undefined }),
        fc.constantFrom(...CONTAINERS),
        (above, below, quote) => {
          const html = `${above.map((l) => `<div>${escapeHtml(l)}</div>`).join("")}${quote}${(below ?? []).map((l) => `<p>${escapeHtml(l)}</p>`).join("")}`;
          const trimmed = trimQuoted(html, "").text;
          for (const mine of [...above, ...(below ?? [])]) expect(trimmed).toContain(mine);
          const outlook = trimQuoted(`${above.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}${OUTLOOK}`, "").text;
          for (const mine of above) expect(outlook).toContain(mine);
        },
      ),
      { numRuns: 200, seed: 20261128 },
    );
  });
});
