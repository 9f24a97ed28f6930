import { describe, expect, test } from "bun:test";
import { trimQuotedText } from "../mail/mail.quote.text";
import type { MessageRow } from "../tickets/tickets.public";
import { forwardBodies, paragraphText, replyBodies } from "./outbound.compose";

const customer = (over: Partial<MessageRow> = {}) =>
  ({
    id: "m1",
    direction: "inbound",
    fromName: 'Mallory "<b>" \r\nBcc: x@evil.test',
    fromEmail: "mallory@customer.test",
    bodyHtml: '<p>First</p><p>Second<img src="x" onerror="alert(1)"></p><script>alert(2)</script>',
    bodyText: "First\nSecond",
    createdAt: "2026-11-23T10:05:00.000Z",
    ...over,
  }) as MessageRow;

describe("mail bodies", () => {
  test("the text part keeps a blank line between paragraphs", () => {
    expect(paragraphText("<p>One</p><p>Two<br>lines</p><ul><li>a</li><li>b</li></ul><p>End</p>")).toBe(
      "One\n\nTwo\nlines\n\n- a\n- b\n\nEnd",
    );
  });

  test("a reply quotes the customer's message, attribution and body escaped and sanitized", () => {
    const { html, text } = replyBodies("<p>Hi</p><p>Done.</p>", customer());
    expect(text).toBe(
      'Hi\n\nDone.\n\nOn Mon, 23 Nov 2026 at 10:05 UTC, Mallory "<b>" Bcc: x@evil.test <mallory@customer.test> wrote:\n> First\n>\n> Second',
    );
    expect(html).toContain(
      "On Mon, 23 Nov 2026 at 10:05 UTC, Mallory &quot;&lt;b&gt;&quot; Bcc: x@evil.test &lt;mallory@customer.test&gt; wrote:",
    );
    expect(html).toMatch(
      /<blockquote class="gmail_quote"[^>]*><p>First<\/p><p>Second<img src="x" \/><\/p><\/blockquote>/,
    );
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("<script");
  });

  test("the attribution speaks the contact's language as Gmail words it there, and our own trimming folds it away", () => {
    const wanted = {
      de: /^Am .*2026 um 10:05 UTC schrieb .*<mallory@customer\.test>:$/m,
      fr: /^Le .*2026 .*10:05 UTC, .*<mallory@customer\.test> a écrit :$/m,
      es: /^El .*2026.* 10:05 UTC, .*<mallory@customer\.test> escribió:$/m,
      "pt-BR": /^Em .*2026.* 10:05 UTC, .*<mallory@customer\.test> escreveu:$/m,
      nl: /^Op .*2026 .*10:05 UTC schreef .*<mallory@customer\.test>:$/m,
    } as const;
    for (const [locale, line] of Object.entries(wanted)) {
      const { text } = replyBodies("<p>Erledigt.</p>", customer(), locale as keyof typeof wanted);
      expect(text).toMatch(line);
      // The customer answers above our reply, which their client quotes whole under its own line.
      const answer = `Danke!\n\nOn Tue, 24 Nov 2026 at 09:00, Support <support@acme.test> wrote:\n${text
        .split("\n")
        .map((l) => `> ${l}`)
        .join("\n")}`;
      expect(trimQuotedText(answer).text.trim()).toBe("Danke!");
      // Or the quoted part alone under the new text: our attribution line is what starts it.
      const bare = `Danke!\n\n${text.slice(text.indexOf("\n\n", text.indexOf("Erledigt")) + 2)}`;
      expect(trimQuotedText(bare).text.trim()).toBe("Danke!");
    }
  });

  test("without a customer message the reply goes alone", () => {
    expect(replyBodies("<p>Hi</p>", undefined)).toEqual({ html: "<p>Hi</p>", text: "Hi" });
  });

  test("a forward too long for one mail keeps the newest messages and says how many it left out", () => {
    const big = "x".repeat(900_000);
    const conversation = [1, 2, 3].map((n) => customer({ id: `m${n}`, bodyHtml: `<p>${n}${big}</p>` }));
    const { text } = forwardBodies("", "S", conversation, () => "C <c@x.test>");
    expect(text).toContain("(1 earlier message not included)");
    expect(text).not.toContain("> 1x");
    expect(text).toContain("> 3x");
  });
});
