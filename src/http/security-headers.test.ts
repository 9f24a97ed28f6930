import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { httpDepsOf } from "../compose";
import { DOCS_CSP } from "./docs-page";
import { createHttpHandler } from "./server";
import { webAssetsFrom } from "./web-assets";

// The web app's files and the /docs page carry a CSP without inline script, frame-ancestors,
// referrer and permissions policies, nosniff, and HSTS only when Desk's public address is https.
const desk = await startTestDesk();
const files = new Map<string, Blob>([
  ["/index.html", new Blob(['<!doctype html><script type="module" src="/assets/app.js"></script>'])],
  ["/assets/app.js", new Blob(["console.log(1)"])],
]);
const handlerFor = (baseUrl: string) =>
  createHttpHandler(
    (request) => desk.fetch(request),
    { ...httpDepsOf(desk.deps), baseUrl },
    { webAssets: webAssetsFrom(files) },
  );
const get = (baseUrl: string, path: string) =>
  handlerFor(baseUrl)(new Request(`http://localhost${path}`)).then(async (r) => {
    await r.arrayBuffer();
    return r.headers;
  });

describe("security headers", () => {
  test("the web app's page, its client-side routes and its assets carry them", async () => {
    for (const path of ["/", "/tickets/12", "/assets/app.js"]) {
      const headers = await get("http://desk.test", path);
      const csp = headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(headers.get("permissions-policy")).toContain("camera=()");
      expect(headers.get("strict-transport-security")).toBeNull();
    }
  });

  test("HSTS is sent when DESK_BASE_URL is https, on the app and /docs", async () => {
    for (const path of ["/", "/assets/app.js", "/docs"])
      expect((await get("https://desk.example.com", path)).get("strict-transport-security")).toBe(
        "max-age=31536000; includeSubDomains",
      );
    expect((await get("http://desk.test", "/docs")).get("strict-transport-security")).toBeNull();
  });

  test("/docs allows exactly its own inline style and script, by hash", async () => {
    const res = await desk.api("GET", "/docs");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toBe(DOCS_CSP);
    expect(csp).not.toContain("unsafe-inline");
    const inline = /<script>([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? "";
    const hash = new Bun.CryptoHasher("sha256").update(inline).digest("base64");
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });
});
