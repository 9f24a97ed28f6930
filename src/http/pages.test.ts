import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { notFound } from "../lib/errors";
import { createPageRouter, type Page } from "./pages";

// Pages a feature serves outside /v1 (help center, rating page, widget script): the HTTP layer
// routes them and sets each page's own security headers on every answer, errors included.
// (The example script sits at /embed.js: the widget module serves the real /widget.js.)
// The example prefix is `/guide/`: the real help center (src/help-center) already serves `/help/`.
const widgetScript: Page = {
  path: "/embed.js",
  securityHeaders: { "cross-origin-resource-policy": "cross-origin", "cache-control": "public, max-age=300" },
  handle: () => new Response("console.log('widget')", { headers: { "content-type": "text/javascript" } }),
};
const helpCenter: Page = {
  path: "/guide/",
  securityHeaders: {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
  },
  handle(_request, path) {
    if (path === "/guide/" || path === "/guide/getting-started")
      return new Response(`<h1>${path}</h1>`, { headers: { "content-type": "text/html; charset=utf-8" } });
    throw notFound("Article");
  },
};
const desk = await startTestDesk({ start: { http: { pages: [widgetScript, helpCenter] } } });

describe("pages outside /v1", () => {
  test("an exact page answers with its own security headers and the baseline ones", async () => {
    const res = await desk.api("GET", "/embed.js");
    expect(res.status).toBe(200);
    expect(res.text).toBe("console.log('widget')");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a prefix page serves everything under it; its errors carry its headers and SPEC.md's body", async () => {
    const page = await desk.api("GET", "/guide/getting-started");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe("default-src 'self'; frame-ancestors 'none'");
    // The prefix without its slash is the page's too: it decides what `/guide` answers.
    expect((await desk.api("GET", "/guide")).headers.get("x-frame-options")).toBe("DENY");
    const missing = await desk.api("GET", "/guide/no-such-article");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, code: "not_found", detail: expect.any(String) });
    expect(missing.headers.get("x-frame-options")).toBe("DENY");
    const post = await desk.api("POST", "/guide/getting-started", { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(post.headers.get("x-frame-options")).toBe("DENY");
  });

  test("the API is untouched and paths no page declares are not served by pages", async () => {
    expect((await desk.api("GET", "/healthz")).body).toEqual({ ok: true });
    expect((await desk.api("GET", "/guidebook")).status).toBe(404);
    expect((await desk.api("GET", "/embed.js.map")).status).toBe(404);
  });

  test("a page may not take a path the HTTP layer keeps, nor one declared twice", () => {
    for (const path of ["/v1/guide/", "/v1", "/healthz", "/metrics", "/docs", "/assets/x.js", "guide/"])
      expect(() => createPageRouter([{ ...helpCenter, path }])).toThrow();
    expect(() => createPageRouter([widgetScript, widgetScript])).toThrow();
    expect(createPageRouter([{ ...helpCenter, path: "/v1x/" }]).match("/v1x/a")).not.toBeNull();
  });
});
