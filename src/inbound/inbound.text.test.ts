import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sanitizeHtmlBody, textToHtml } from "../lib/sanitize";
import { textToSanitizedHtml } from "./inbound.text";

const tricky = [
  "",
  "hello",
  "a 'b' \"c\" & <d> &amp; &#39; &lt; &nbsp; &unknown; &#x1F600; &#0;",
  "line1\nline2\n\npara2\n\n\n\npara3",
  "\n\nleading paras\n\n",
  "cr\r\nlf\rlone cr",
  "nul\u0000x ctrl\u0001\u0008\u000b\u000c\u001f\u007f tab\t",
  "é ü 中文 😀 \ud800 lone \udc00 \u2028 \u2029 \ufeff \u00a0",
  "<script>alert(1)</script><img src=x onerror=alert(1)> <!-- c --> <![CDATA[x]]>",
  "a>b<c <p>para</p> </p> <br> <br/>",
];

/** Random strings over the characters that matter to HTML, whitespace and non-ASCII. */
function randomTexts(count: number): string[] {
  const alphabet = [
    "a",
    "Z",
    " ",
    "\n",
    "\n\n",
    "\r",
    "\t",
    "&",
    "<",
    ">",
    '"',
    "'",
    ";",
    "#",
    "/",
    "!",
    "-",
    "=",
    "é",
    "😀",
    "\u0000",
    "\u00a0",
    "&amp;",
    "<p>",
    "</p>",
    "<b>",
  ];
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 60) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""),
  );
}

describe("textToSanitizedHtml", () => {
  test("equals sanitizeHtmlBody(textToHtml(text)) for tricky, random and corpus texts", () => {
    const corpusDir = join(import.meta.dir, "../../test/mail-corpus");
    const corpus = readdirSync(corpusDir).map((name) => readFileSync(join(corpusDir, name), "utf8"));
    expect(corpus.length).toBeGreaterThan(10);
    for (const text of [...tricky, ...randomTexts(2000), ...corpus]) {
      expect(textToSanitizedHtml(text)).toBe(sanitizeHtmlBody(textToHtml(text)));
    }
  });
});
