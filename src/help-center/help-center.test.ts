import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { kbArticles } from "../kb/kb.table";
import { helpCenterUrlOf } from "./help-center.public";
import { contrast, themeOf } from "./help-center.theme";

const desk: TestDesk = await startTestDesk();
const base = () => desk.deps.config.baseUrl;

type Kb = Awaited<ReturnType<typeof seed>>;

async function seed(settings: Record<string, unknown> = { help_center_enabled: true }) {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const patched = await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings } });
  expect(patched.status).toBe(200);
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await desk.api("POST", path, { headers: owner.headers, body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const billing = await post("/v1/kb/collections", { name: "Billing", description: "Invoices & payments" });
  const empty = await post("/v1/kb/collections", { name: "Empty" });
  const drafts = await post("/v1/kb/collections", { name: "Only drafts" });
  const refund = await post("/v1/kb/articles", {
    collection_id: billing.id,
    title: "Get a refund",
    status: "published",
    body_html:
      '<p>Ask for a refund within 30 days.</p><script>alert(1)</script><a href="javascript:alert(1)" onclick="x()">here</a>',
  });
  const invoice = await post("/v1/kb/articles", {
    collection_id: billing.id,
    title: "Download an invoice",
    status: "published",
    body_html: "<p>Invoices are under Billing. A refund shows as a credit note.</p>",
  });
  const draft = await post("/v1/kb/articles", {
    collection_id: billing.id,
    title: "Secret refund policy",
    body_html: "<p>Internal draft about refunds</p>",
  });
  const hidden = await post("/v1/kb/articles", { collection_id: drafts.id, title: "Unreleased feature" });
  return { workspace, owner, billing, empty, drafts, refund, invoice, draft, hidden };
}

const page = (path: string, headers: Record<string, string> = {}) => desk.api("GET", path, { headers });

describe("public help center JSON", () => {
  test("home, collection, article and search answer published content only", async () => {
    const kb = await seed({ help_center_enabled: true, help_center_title: "Acme Answers", brand_color: "#ff0000" });
    const slug = kb.workspace.slug;
    const home = await page(`/v1/public/help/${slug}`);
    expect(home.status).toBe(200);
    expect(home.body).toMatchObject({
      title: "Acme Answers",
      url: `${base()}/help/${slug}`,
      brand_color: "#ff0000",
      logo_url: null,
    });
    // Only collections holding a published article; counts leave drafts out.
    expect(home.body.collections).toEqual([
      {
        id: kb.billing.id,
        name: "Billing",
        slug: "billing",
        description: "Invoices & payments",
        article_count: 2,
        url: `${base()}/help/${slug}/collections/billing`,
      },
    ]);
    expect(home.body.featured.map((a: { title: string }) => a.title).sort()).toEqual([
      "Download an invoice",
      "Get a refund",
    ]);
    const collection = await page(`/v1/public/help/${slug}/collections/billing`);
    expect(collection.body.articles.map((a: { slug: string }) => a.slug)).toEqual([
      "get-a-refund",
      "download-an-invoice",
    ]);
    expect(collection.body.articles[0].excerpt).toBe("Ask for a refund within 30 days.\nhere");
    const article = await page(`/v1/public/help/${slug}/articles/get-a-refund`);
    expect(article.status).toBe(200);
    expect(article.body).toMatchObject({
      id: kb.refund.id,
      title: "Get a refund",
      collection: { id: kb.billing.id, name: "Billing", slug: "billing" },
      url: `${base()}/help/${slug}/articles/get-a-refund`,
    });
    expect(article.body.body_html).not.toContain("script");
    expect(article.body.body_html).not.toContain("javascript:");
    expect(article.body.body_html).not.toContain("onclick");
    expect(article.body).not.toHaveProperty("views");
    // Search: published only, ranked (title match first), prefix on the last word.
    const search = await page(`/v1/public/help/${slug}/search?q=refun`);
    expect(search.body.data.map((a: { title: string }) => a.title)).toEqual(["Get a refund", "Download an invoice"]);
    expect((await page(`/v1/public/help/${slug}/search?q=`)).body.data).toEqual([]);
    expect((await page(`/v1/public/help/${slug}/search?q=internal`)).body.data).toEqual([]);
    expect((await page(`/v1/public/help/${slug}/search?q=${encodeURIComponent('" OR *')}`)).status).toBe(200);
  });

  test("a view is counted per article read, JSON or HTML, and never changes updated_at", async () => {
    const kb = await seed();
    const slug = kb.workspace.slug;
    await page(`/v1/public/help/${slug}/articles/get-a-refund`);
    await page(`/v1/public/help/${slug}/articles/get-a-refund`);
    await page(`/help/${slug}/articles/get-a-refund`);
    await desk.api("HEAD", `/help/${slug}/articles/get-a-refund`);
    const stored = first(await desk.deps.db.select().from(kbArticles).where(eq(kbArticles.id, kb.refund.id)).limit(1));
    expect(stored?.views).toBe(3);
    expect(stored?.updatedAt).toBe(kb.refund.updated_at);
    const agentView = await desk.api("GET", `/v1/kb/articles/${kb.refund.id}`, { headers: kb.owner.headers });
    expect(agentView.body.views).toBe(3);
    // The most read article leads the featured list.
    const home = await page(`/v1/public/help/${slug}`);
    expect(home.body.featured[0].title).toBe("Get a refund");
  });

  test("404 for unknown workspaces and slugs, drafts, empty collections, and every route when the help center is off", async () => {
    const kb = await seed();
    const slug = kb.workspace.slug;
    for (const path of [
      `/v1/public/help/no-such-workspace`,
      `/v1/public/help/${slug}/articles/no-such-article`,
      `/v1/public/help/${slug}/articles/${kb.draft.slug}`,
      `/v1/public/help/${slug}/articles/${kb.hidden.slug}`,
      `/v1/public/help/${slug}/collections/empty`,
      `/v1/public/help/${slug}/collections/only-drafts`,
      `/v1/public/help/${slug}/collections/nope`,
    ]) {
      const res = await page(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toMatchObject({ status: 404, code: expect.any(String), detail: expect.any(String) });
    }
    // Unpublishing takes an article off at once.
    await desk.api("PATCH", `/v1/kb/articles/${kb.invoice.id}`, {
      headers: kb.owner.headers,
      body: { status: "draft" },
    });
    expect((await page(`/v1/public/help/${slug}/articles/download-an-invoice`)).status).toBe(404);
    expect((await page(`/v1/public/help/${slug}/search?q=invoice`)).body.data).toEqual([]);
    for (const settings of [{}, { help_center_enabled: false }]) {
      const off = await seed(settings);
      for (const path of [
        `/v1/public/help/${off.workspace.slug}`,
        `/v1/public/help/${off.workspace.slug}/collections/billing`,
        `/v1/public/help/${off.workspace.slug}/articles/get-a-refund`,
        `/v1/public/help/${off.workspace.slug}/search?q=refund`,
      ])
        expect({ path, status: (await page(path)).status }).toEqual({ path, status: 404 });
    }
    // A view of a help center that is off is not counted.
    const off = await seed({ help_center_enabled: false });
    await page(`/v1/public/help/${off.workspace.slug}/articles/get-a-refund`);
    expect(
      first(await desk.deps.db.select().from(kbArticles).where(eq(kbArticles.id, off.refund.id)).limit(1))?.views,
    ).toBe(0);
  });
});

describe("public help center pages", () => {
  let kb: Kb;
  let owner: Member;
  test("home page: themed, indexable, no script, landmarks", async () => {
    kb = await seed({
      help_center_enabled: true,
      help_center_title: "Acme <Answers>".replace(/[<>]/g, ""),
      brand_color: "#ffd400",
    });
    owner = kb.owner;
    const slug = kb.workspace.slug;
    const res = await page(`/help/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    const html = res.text;
    expect(html).toContain("<title>Acme Answers</title>");
    expect(html).toContain(`<link rel="canonical" href="${base()}/help/${slug}">`);
    expect(html).toMatch(/<meta name="description" content="[^"]+">/);
    expect(html).toContain('<meta property="og:title" content="Acme Answers">');
    expect(html).not.toMatch(/<script|<style|style=/i);
    for (const landmark of ["<header", "<main", "<footer", 'role="search"', '<label class="visually-hidden" for="q">'])
      expect(html).toContain(landmark);
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toContain(`href="${base()}/help/${slug}/collections/billing"`);
    expect(html).not.toContain("Only drafts");
    expect(html).not.toContain("Secret refund policy");
    // The stylesheet carries the brand and readable colours beside it.
    const cssHref = /<link rel="stylesheet" href="([^"]+)">/.exec(html)![1]!;
    const css = await page(cssHref.replace(base(), ""));
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toContain("immutable");
    expect(css.text).toContain("--brand:#ffd400");
    const theme = themeOf("#ffd400");
    expect(contrast(theme.brand, theme.onBrand)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(theme.link, "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });

  test("article page: sanitized body, breadcrumbs, Open Graph, ETag and Last-Modified with 304", async () => {
    const slug = kb.workspace.slug;
    const path = `/help/${slug}/articles/get-a-refund`;
    const res = await page(path);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain("<title>Get a refund | Acme Answers</title>");
    expect(html).toContain(`<link rel="canonical" href="${base()}${path}">`);
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toContain('<meta name="description" content="Ask for a refund within 30 days. here">');
    expect(html).toContain('<nav class="crumbs" aria-label="Breadcrumb">');
    expect(html).toContain("<p>Ask for a refund within 30 days.</p>");
    expect(html).not.toMatch(/<script|javascript:|onclick/i);
    const etag = res.headers.get("etag")!;
    const lastModified = res.headers.get("last-modified")!;
    expect(etag).toMatch(/^W\/"/);
    expect(lastModified).toMatch(/GMT$/);
    const again = await page(path, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await page(path, { "if-modified-since": lastModified })).status).toBe(304);
    expect((await page(path, { "if-none-match": '"other"' })).status).toBe(200);
    // An edit changes the page: the old ETag no longer matches.
    await desk.api("PATCH", `/v1/kb/articles/${kb.refund.id}`, {
      headers: owner.headers,
      body: { body_html: "<p>Refunds take 5 days.</p>" },
    });
    const edited = await page(path, { "if-none-match": etag });
    expect(edited.status).toBe(200);
    expect(edited.text).toContain("Refunds take 5 days.");
  });

  test("collection, search and sitemap pages", async () => {
    const slug = kb.workspace.slug;
    const collection = await page(`/help/${slug}/collections/billing`);
    expect(collection.status).toBe(200);
    expect(collection.text).toContain("<h1>Billing</h1>");
    expect(collection.text).toContain(`href="${base()}/help/${slug}/articles/download-an-invoice"`);
    const search = await page(`/help/${slug}/search?q=${encodeURIComponent("invoice <b>")}`);
    expect(search.status).toBe(200);
    expect(search.text).toContain("Search results for “invoice &lt;b&gt;”");
    expect(search.text).toContain('value="invoice &lt;b&gt;"');
    expect(search.text).toContain('<meta name="robots" content="noindex">');
    const hits = await page(`/help/${slug}/search?q=invoice`);
    expect(hits.text).toContain("Download an invoice");
    expect(hits.text).not.toContain("Secret refund policy");
    const map = await page(`/help/${slug}/sitemap.xml`);
    expect(map.status).toBe(200);
    expect(map.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(map.text).toContain(`<loc>${base()}/help/${slug}/articles/get-a-refund</loc>`);
    expect(map.text).toContain(`<loc>${base()}/help/${slug}/collections/billing</loc>`);
    expect(map.text).not.toContain("secret-refund-policy");
    expect(map.text).not.toContain("only-drafts");
  });

  test("a plain 404 page for unknown slugs, drafts, and every page of a help center that is off", async () => {
    const slug = kb.workspace.slug;
    const off = await seed({ help_center_enabled: false });
    for (const path of [
      `/help/${slug}/articles/no-such-article`,
      `/help/${slug}/articles/secret-refund-policy`,
      `/help/${slug}/collections/only-drafts`,
      `/help/${slug}/collections/empty`,
      `/help/${slug}/unknown`,
      `/help/${slug}/articles/get-a-refund/extra`,
      `/help/no-such-workspace`,
      `/help/%E0%A4%A`,
      `/help`,
      `/help/${off.workspace.slug}`,
      `/help/${off.workspace.slug}/articles/get-a-refund`,
      `/help/${off.workspace.slug}/collections/billing`,
      `/help/${off.workspace.slug}/search?q=refund`,
      `/help/${off.workspace.slug}/sitemap.xml`,
      `/help/${off.workspace.slug}/style.css`,
    ]) {
      const res = await page(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.text).toContain("<h1>Page not found</h1>");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    }
    expect((await page(`/help/${off.workspace.slug}`)).text).not.toContain(off.workspace.name);
    expect((await page("/help/-/style.css")).status).toBe(200);
    expect((await desk.api("POST", `/help/${slug}`)).status).toBe(405);
  });
});

test("helpCenterUrlOf: the address when the help center is on, else null (the widget config's help_center_url)", async () => {
  const on = await seed({ help_center_enabled: true });
  const url = helpCenterUrlOf(base(), { slug: on.workspace.slug, settings: { help_center_enabled: true } });
  expect(url).toBe(`${base()}/help/${on.workspace.slug}`);
  expect((await page(new URL(url!).pathname)).status).toBe(200);
  expect(helpCenterUrlOf(base(), { slug: "x", settings: {} })).toBeNull();
  expect(helpCenterUrlOf(base(), { slug: "x", settings: null })).toBeNull();
});

test("the search page allows 60 searches a minute per address, then 429 with Retry-After", async () => {
  const kb = await seed();
  const url = `${desk.url}/help/${kb.workspace.slug}/search?q=refund`;
  for (let i = 0; i < 60; i++) expect((await fetch(url)).status).toBe(200);
  const refused = await fetch(url);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  // Reading articles is not limited by it.
  expect((await fetch(`${desk.url}/help/${kb.workspace.slug}/articles/get-a-refund`)).status).toBe(200);
});

test("every brand colour keeps AA contrast: header text on the brand, links on white", () => {
  const steps = ["00", "33", "66", "80", "99", "cc", "ff"];
  for (const r of steps)
    for (const g of steps)
      for (const b of steps) {
        const theme = themeOf(`#${r}${g}${b}`);
        expect(contrast(theme.brand, theme.onBrand)).toBeGreaterThanOrEqual(4.5);
        expect(contrast(theme.link, "#ffffff")).toBeGreaterThanOrEqual(4.5);
      }
  expect(themeOf("not a colour").brand).toBe("#1f6feb");
  expect(themeOf("#ABC").brand).toBe("#aabbcc");
});

test("the help center logo and icon head every page, with Open Graph's image", async () => {
  const kb = await seed({ help_center_enabled: true });
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
  for (const slot of ["help_center_logo", "help_center_favicon"]) {
    const form = new FormData();
    form.append("file", new File([png], "logo.png", { type: "image/png" }));
    expect(
      (await desk.api("PUT", `/v1/workspace/images/${slot}`, { headers: kb.owner.headers, raw: form })).status,
    ).toBe(200);
  }
  const images = (await desk.api("GET", "/v1/workspace", { headers: kb.owner.headers })).body.images;
  expect(images.help_center_logo).toMatch(/^https?:\/\/.*\/v1\/images\//);
  const html = (await page(`/help/${kb.workspace.slug}/articles/get-a-refund`)).text;
  expect(html).toContain(`<img class="logo" src="${images.help_center_logo}" alt="">`);
  expect(html).toContain(`<link rel="icon" href="${images.help_center_favicon}">`);
  expect(html).toContain(`<meta property="og:image" content="${images.help_center_logo}">`);
  const home = await page(`/v1/public/help/${kb.workspace.slug}`);
  expect(home.body.logo_url).toBe(`${images.help_center_logo}`);
});

describe("POST /v1/help-center/preview", () => {
  test("the article page as the help center would show it, sanitized and themed, while the help center is off; nothing stored", async () => {
    const kb = await seed({ help_center_title: "Acme Answers", brand_color: "#aa3300" });
    const articlesBefore = (await desk.deps.db.select().from(kbArticles)).length;
    const res = await desk.api("POST", "/v1/help-center/preview", {
      headers: kb.owner.headers,
      body: {
        title: "How refunds work <b>now</b>",
        body_html: '<p>Unsaved words</p><script>alert(1)</script><img src="x" onerror="alert(2)">',
        collection_id: kb.billing.id,
      },
    });
    expect(res.status).toBe(200);
    const html: string = res.body.html;
    expect(html).toStartWith("<!doctype html>");
    expect(html).toContain("How refunds work &lt;b&gt;now&lt;/b&gt;");
    expect(html).toContain("<p>Unsaved words</p>");
    expect(html).toContain("Acme Answers");
    expect(html).toContain("Billing");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("onerror");
    expect((await desk.deps.db.select().from(kbArticles)).length).toBe(articlesBefore);
    // Its one stylesheet is the shared one themed with the brand colour, served though the help center is off.
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(css).toContain("/help/-/style.css?v=");
    expect(css).toContain("brand=%23aa3300");
    const sheet = await fetch(css!.replace(base(), desk.url));
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get("content-type")).toStartWith("text/css");
    expect(await sheet.text()).toContain("--brand:#aa3300");
    // A brand that is no colour themes nothing.
    const odd = await fetch(`${desk.url}/help/-/style.css?brand=red;}body{display:none`);
    expect(await odd.text()).toContain(`--brand:${themeOf(null).brand}`);
  });

  test("writers only; another workspace's collection is 404 and bad input 422, nothing stored", async () => {
    const kb = await seed();
    const other = await seed();
    const body = { title: "Draft", body_html: "<p>x</p>" };
    expect((await desk.api("POST", "/v1/help-center/preview", { body })).status).toBe(401);
    const viewer = await addMember(desk, kb.workspace.id, "viewer");
    expect((await desk.api("POST", "/v1/help-center/preview", { headers: viewer.headers, body })).status).toBe(403);
    const reader = await createKey(desk, kb.owner, ["kb:read"]);
    expect((await desk.api("POST", "/v1/help-center/preview", { headers: reader.headers, body })).status).toBe(403);
    const writer = await createKey(desk, kb.owner, ["kb:write"]);
    expect((await desk.api("POST", "/v1/help-center/preview", { headers: writer.headers, body })).status).toBe(200);
    const foreign = await desk.api("POST", "/v1/help-center/preview", {
      headers: kb.owner.headers,
      body: { ...body, collection_id: other.billing.id },
    });
    expect([foreign.status, foreign.body.code]).toEqual([404, "not_found"]);
    for (const bad of [{ body_html: "<p>x</p>" }, { ...body, title: "" }, { ...body, extra: 1 }]) {
      const res = await desk.api("POST", "/v1/help-center/preview", { headers: kb.owner.headers, body: bad });
      expect([res.status, res.body.code]).toEqual([422, "validation_failed"]);
    }
  });
});

describe("a way from self-service to a person", () => {
  const contactOf = (html: string) => /<a class="contact" href="([^"]*)"( data-desk-chat)?>Contact us<\/a>/.exec(html);

  test("every page has Contact us: the widget once installed, else the contact form once a mailbox answers, else none", async () => {
    const kb = await seed();
    const slug = kb.workspace.slug;
    const pages = [
      `/help/${slug}`,
      `/help/${slug}/collections/billing`,
      `/help/${slug}/articles/get-a-refund`,
      `/help/${slug}/search?q=refund`,
      `/help/${slug}/articles/no-such-article`,
    ];
    // Neither a mailbox nor an installed widget: nothing to offer, and still no script.
    for (const path of pages) {
      const html = (await page(path)).text;
      expect({ path, contact: contactOf(html) }).toEqual({ path, contact: null });
      expect(html).not.toContain("<script");
    }
    const first = await desk.api("POST", "/v1/mailboxes", {
      headers: kb.owner.headers,
      body: { name: "Support", email: `support-${slug}@help.test` },
    });
    expect(first.status).toBe(201);
    await desk.api("POST", "/v1/mailboxes", {
      headers: kb.owner.headers,
      body: { name: "Sales", email: `sales-${slug}@help.test` },
    });
    for (const path of pages) {
      const link = contactOf((await page(path)).text);
      expect({ path, href: link?.[1], chat: link?.[2] }).toEqual({
        path,
        href: `${base()}/help/${slug}/contact`,
        chat: undefined,
      });
    }
    // The widget, once a visitor has used it, is where "Contact us" leads; the page loads it.
    const visitor = await desk.api("POST", "/v1/widget/session", { body: { key: kb.workspace.widgetKey } });
    expect(visitor.status).toBe(200);
    for (const path of pages) {
      const res = await page(path);
      const link = contactOf(res.text);
      expect({ path, href: link?.[1], chat: link?.[2] }).toEqual({
        path,
        href: `${base()}/help/${slug}#chat`,
        chat: " data-desk-chat",
      });
      expect(res.text).toContain(
        `<script src="${base()}/widget.js" data-key="${kb.workspace.widgetKey}" data-locale="en" async></script>`,
      );
      expect(res.headers.get("content-security-policy")).toContain(
        `script-src ${new URL(base()).origin}/widget.js ${new URL(base()).origin}/widget/`,
      );
    }
    // A widget kept to other sites cannot run here: back to the form.
    const kept = await desk.api("PATCH", "/v1/widget/settings", {
      headers: kb.owner.headers,
      body: { allowed_origins: ["https://shop.example"] },
    });
    expect(kept.status).toBe(200);
    expect(contactOf((await page(`/help/${slug}`)).text)?.[1]).toBe(`${base()}/help/${slug}/contact`);
  });

  test("the widget searches published articles for any visitor; empty while the help center is off; 404 for a bad key", async () => {
    const kb = await seed();
    const found = await page(`/v1/widget/articles?key=${kb.workspace.widgetKey}&q=refund`);
    expect(found.status).toBe(200);
    expect(found.body.data.map((a: { title: string }) => a.title).sort()).toEqual([
      "Download an invoice",
      "Get a refund",
    ]);
    expect(found.body.data.find((a: { title: string }) => a.title === "Get a refund").url).toBe(
      `${base()}/help/${kb.workspace.slug}/articles/get-a-refund`,
    );
    const off = await seed({ help_center_enabled: false });
    expect((await page(`/v1/widget/articles?key=${off.workspace.widgetKey}&q=refund`)).body).toEqual({ data: [] });
    expect((await page("/v1/widget/articles?key=nope&q=refund")).status).toBe(404);
    const long = await page(`/v1/widget/articles?key=${kb.workspace.widgetKey}&q=${"a".repeat(201)}`);
    expect(long.status).toBe(422);
    expect(long.body.errors[0].location).toBe("query.q");
  });
});
