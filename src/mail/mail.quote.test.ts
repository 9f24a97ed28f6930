import { describe, expect, test } from "bun:test";
import { decodeFlowed, hideFlowedParameter } from "./mail.flowed";
import { parseEmail } from "./mail.parse";
import { trimQuoted } from "./mail.quote";

describe("trimQuoted", () => {
  test("a sign-off written under the quote stays", () => {
    const body = trimQuoted(
      null,
      "Test reply\n\nOn 04/19/2011 07:10 AM, Roman Tkachenko wrote:\n\n>\n> Test\n\nRegards, Roman",
    );
    expect(body).toEqual({ html: null, text: "Test reply\n\nRegards, Roman", hasQuoted: true });
  });

  test("an answer between quotes keeps its context; the trailing history goes", () => {
    const body = trimQuoted(null, "Hi,\nOn Tue, Bob wrote:\n> question one\n\nAnswer one.\n\n> -Bob\n> list footer");
    expect(body.text).toBe("Hi,\nOn Tue, Bob wrote:\n> question one\n\nAnswer one.");
    expect(body.hasQuoted).toBe(true);
  });

  test("Outlook header blocks in other languages start the history", () => {
    const body = trimQuoted(
      null,
      "Allo!\nFrån: Anno [mailto:a@b.test]\nSkickat: den 26 augusti 2015 14:45\nTill: Leiff\nÄmne: RE: Week 36\n\nBlah",
    );
    expect(body).toEqual({ html: null, text: "Allo!", hasQuoted: true });
  });

  test("a forwarded message is content, and nothing quoted means nothing trimmed", () => {
    const forward =
      "FYI\n\n---------- Forwarded message ----------\nFrom: bob@example.com\nDate: Tue, Sep 4, 2012\nTo: rob@example.com\n\nText";
    expect(trimQuoted(null, forward)).toEqual({ html: null, text: forward, hasQuoted: false });
    expect(trimQuoted(null, "Blah\nOn blah-blah-blah").hasQuoted).toBe(false);
  });

  test("HTML cut at the client's quote gives the same reply in body_text, not the plain part's quote", () => {
    const html =
      '<div>Hi. I am fine.</div><div class="gmail_quote">On Thu, Jun 26, 2014 at 1:53 PM, Sasha &lt;a@b.test&gt; wrote:<blockquote>Hello!</blockquote></div>';
    const body = trimQuoted(
      html,
      "Hi. I am fine.\n\nOn Thu, Jun 26, 2014 at 1:53 PM, Sasha <a@b.test> wrote:\n> Hello!",
    );
    expect(body).toEqual({ html: "<div>Hi. I am fine.</div>", text: "Hi. I am fine.", hasQuoted: true });
  });

  test("an HTML answer written below a blockquote keeps the answer", () => {
    const html =
      "<div>On Mon, Jan 5, 2015 at 9:00 AM, Bob &lt;b@x.test&gt; wrote:</div><blockquote>Old</blockquote><div>New answer</div>";
    const body = trimQuoted(html, "");
    expect(body.text).toBe("New answer");
    expect(body.hasQuoted).toBe(true);
  });
});

describe("format=flowed", () => {
  test("a soft break never joins a quoted line with the reply below it", () => {
    expect(decodeFlowed("On 04/02/2012, Megan wrote:\n> Hi \nHello", false)).toBe(
      "On 04/02/2012, Megan wrote:\n> Hi\nHello",
    );
    expect(decodeFlowed("one \ntwo\n>> a \n>> b\n-- \nsig", false)).toBe("one two\n>> a b\n-- \nsig");
    expect(decodeFlowed("one \ntwo", true)).toBe("onetwo");
  });

  test("parsed through mailparser with the parameter hidden, the reply is trimmable", async () => {
    const raw = new TextEncoder().encode(
      [
        "From: bob <bob@x.test>",
        "To: s@y.test",
        "Subject: Re: Test",
        'Content-Type: text/plain; charset="us-ascii"; format="flowed"',
        "",
        "On 04/02/2012 06:26 PM, Megan One wrote:",
        "> Hi ",
        "Hello",
      ].join("\r\n"),
    );
    expect(hideFlowedParameter(raw).flowed).toBe(true);
    const email = await parseEmail(raw);
    expect(email.text).toBe("On 04/02/2012 06:26 PM, Megan One wrote:\n> Hi\nHello");
    expect(trimQuoted(email.html, email.text)).toEqual({ html: null, text: "Hello", hasQuoted: true });
  });
});
