import { describe, expect, test } from "bun:test";
import { htmlToText, sanitizeHtmlBody } from "./sanitize";

/** No executable markup survives: no script element, no handler attribute, no javascript: URL (escaped text may say anything). */
function expectInert(html: string): void {
  const tags = html.match(/<\/?[a-z][^>]*>/gi) ?? [];
  for (const tag of tags) {
    expect(tag).not.toMatch(/^<\/?(script|svg|math|iframe|object|embed|style)\b/i);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
    expect(tag).not.toMatch(/javascript:/i);
  }
}

describe("sanitizeHtmlBody: unclosed elements whose content is dropped", () => {
  test("an unclosed <svg> keeps the text after it and its handler goes", () => {
    const out = sanitizeHtmlBody("<p>before</p><svg onload=alert(1)><p>after</p>");
    expect(out).toBe("<p>before</p><p>after</p>");
  });

  test.each([
    "svg",
    "math",
    "noscript",
    "iframe",
    "object",
    "template",
    "textarea",
    "title",
    "option",
    "head",
    "style",
    "script",
  ])("an unclosed <%s> loses no text after it", (tag) => {
    const out = sanitizeHtmlBody(`<p>before</p><${tag}><p>after <b>bold</b></p><img src=x onerror=alert(1)>`);
    expect(out).toContain("<p>before</p>");
    expect(out).toContain("<p>after <b>bold</b></p>");
    expectInert(out);
  });

  test("an unclosed element inside another is reopened too; a raw-text element's content is kept as text, escaped", () => {
    const out = sanitizeHtmlBody('<div><svg><math><p>deep</p></div><p>next</p><script>alert("x")<p>tail</p>');
    expect(out).toContain("<p>deep</p>");
    expect(out).toContain("<p>next</p>");
    expect(out).toContain("<p>tail</p>");
    expect(out).toContain('alert("x")');
    expectInert(out);
  });

  test("closed elements are still dropped with their content", () => {
    expect(
      sanitizeHtmlBody("<p>a</p><svg><text>logo</text></svg><style>p{}</style><script>alert(1)</script><p>b</p>"),
    ).toBe("<p>a</p><p>b</p>");
    // Foreign-content tricks that rely on <style> parsing differently inside <svg> stay inert.
    expectInert(sanitizeHtmlBody("<svg><style><img src=x onerror=alert(1)></style></svg><p>x</p>"));
    expectInert(sanitizeHtmlBody("<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>"));
    expectInert(sanitizeHtmlBody("<svg><p><style><img src=x onerror=alert(1)></style></p>"));
  });

  test("a full HTML mail whose <head> is never closed keeps its body and drops its styles", () => {
    const out = sanitizeHtmlBody(
      "<html><head><title>T</title><style>p{color:red}</style><body><p>Hello there</p></body></html>",
    );
    expect(out).toBe("<p>Hello there</p>");
  });

  test("many stray start tags end quickly and keep every word", () => {
    const html = Array.from({ length: 200 }, (_, i) => `<svg><noscript><p>w${i}</p>`).join("");
    const started = performance.now();
    const out = sanitizeHtmlBody(html);
    expect(performance.now() - started).toBeLessThan(2000);
    for (let i = 0; i < 200; i++) expect(out).toContain(`w${i}`);
    expectInert(out);
  });

  test("raw-text start tags nested past the pass limit keep their text, escaped", () => {
    const out = sanitizeHtmlBody(`${"<script>".repeat(60)}<p>kept</p><img src=x onerror=alert(1)>`);
    expect(out).toContain("kept");
    expectInert(out);
  });
});

describe("htmlToText: unclosed elements", () => {
  test("an unclosed <title> or <template> keeps the words after it", () => {
    expect(htmlToText("<p>before</p><title><p>after</p>")).toBe("before\nafter");
    expect(htmlToText("<p>before</p><template><p>after</p>")).toBe("before\nafter");
    expect(htmlToText("<p>a</p><style>p{}</style><p>b</p>")).toBe("a\nb");
  });
});
