import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";

const desk: TestDesk = await startTestDesk();
const base = () => desk.deps.config.baseUrl;
const page = (path: string) => desk.api("GET", path);

/** An English workspace whose help center speaks English, German and French; its article is translated into German (published) and French (a draft). */
async function seed() {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  await desk.api("PATCH", "/v1/workspace", {
    headers: owner.headers,
    body: { settings: { help_center_enabled: true, locale: "en", locales: ["en", "de", "fr"] } },
  });
  const collection = await desk.api("POST", "/v1/kb/collections", {
    headers: owner.headers,
    body: { name: "Billing" },
  });
  const article = await desk.api("POST", "/v1/kb/articles", {
    headers: owner.headers,
    body: {
      collection_id: collection.body.id,
      title: "Get a refund",
      status: "published",
      body_html: "<p>Ask us within thirty days.</p>",
    },
  });
  const translations = `/v1/kb/articles/${article.body.id}/translations`;
  const german = await desk.api("PUT", `${translations}/de`, {
    headers: owner.headers,
    body: {
      title: "Eine Rückerstattung erhalten",
      body_html: "<p>Fragen Sie innerhalb von dreißig Tagen.</p>",
      status: "published",
    },
  });
  expect(german.status).toBe(201);
  const french = await desk.api("PUT", `${translations}/fr`, {
    headers: owner.headers,
    body: { title: "Obtenir un remboursement (brouillon)", body_html: "<p>Brouillon.</p>" },
  });
  expect(french.status).toBe(201);
  return { owner, slug: workspace.slug as string, article: article.body, translations };
}

describe("help center: article translations", () => {
  test("a page in a language with a published translation shows it, lang on the article; hreflang only where it exists", async () => {
    const { slug } = await seed();
    const german = await page(`/help/${slug}/de/articles/get-a-refund`);
    expect(german.status).toBe(200);
    expect(german.text).toContain(`<html lang="de">`);
    expect(german.text).toContain(`<article class="body" lang="de" aria-labelledby="article-title">`);
    expect(german.text).toContain(`<h1 id="article-title">Eine Rückerstattung erhalten</h1>`);
    expect(german.text).toContain("<p>Fragen Sie innerhalb von dreißig Tagen.</p>");
    expect(german.text).not.toContain("thirty days");
    for (const l of ["en", "de"])
      expect(german.text).toContain(
        `<link rel="alternate" hreflang="${l}" href="${base()}/help/${slug}/${l}/articles/get-a-refund">`,
      );
    expect(german.text).not.toContain(`hreflang="fr" href=`);
    // The switcher still offers French: the page's frame is in French there.
    expect(german.text).toContain(`hreflang="fr" lang="fr">Français</a>`);
  });

  test("without a published translation the page shows the article in its own language, marked with its lang", async () => {
    const { slug } = await seed();
    const french = await page(`/help/${slug}/fr/articles/get-a-refund`);
    expect(french.status).toBe(200);
    expect(french.text).toContain(`<html lang="fr">`);
    expect(french.text).toContain(`<article class="body" lang="en" aria-labelledby="article-title">`);
    expect(french.text).toContain(`<h1 id="article-title">Get a refund</h1>`);
    expect(french.text).not.toContain("brouillon");
    const english = await page(`/help/${slug}/en/articles/get-a-refund`);
    expect(english.text).toContain(`<article class="body" lang="en"`);
    expect(english.text).toContain("Ask us within thirty days.");
  });

  test("lists and search: the translation's title and excerpt in its language, else the article's with its lang", async () => {
    const { slug } = await seed();
    const home = await page(`/help/${slug}/de`);
    expect(home.text).toContain(`>Eine Rückerstattung erhalten</a>`);
    const collection = await page(`/help/${slug}/de/collections/billing`);
    expect(collection.text).toContain(
      `>Eine Rückerstattung erhalten</a><p>Fragen Sie innerhalb von dreißig Tagen.</p>`,
    );
    const frenchHome = await page(`/help/${slug}/fr`);
    expect(frenchHome.text).toContain(
      `<li lang="en"><a href="${base()}/help/${slug}/fr/articles/get-a-refund">Get a refund</a>`,
    );
    const found = await page(`/help/${slug}/de/search?q=${encodeURIComponent("rückerstattung")}`);
    expect(found.text).toContain(`>Eine Rückerstattung erhalten</a>`);
    // A word of the article's own text finds it too, shown in the page's language.
    const byOwn = await page(`/help/${slug}/de/search?q=refund`);
    expect(byOwn.text).toContain(`>Eine Rückerstattung erhalten</a>`);
    const frenchSearch = await page(`/help/${slug}/fr/search?q=refund`);
    expect(frenchSearch.text).toContain(
      `<li lang="en"><a href="${base()}/help/${slug}/fr/articles/get-a-refund">Get a refund</a>`,
    );
    expect((await page(`/help/${slug}/fr/search?q=brouillon`)).text).not.toContain("get-a-refund");
  });

  test("the sitemap lists an article in the languages it exists in; deleting the translation or the article takes it off", async () => {
    const { owner, slug, article, translations } = await seed();
    const sitemap = (await page(`/help/${slug}/sitemap.xml`)).text;
    expect(sitemap).toContain(`<loc>${base()}/help/${slug}/en/articles/get-a-refund</loc>`);
    expect(sitemap).toContain(`<loc>${base()}/help/${slug}/de/articles/get-a-refund</loc>`);
    expect(sitemap).not.toContain(`<loc>${base()}/help/${slug}/fr/articles/get-a-refund</loc>`);
    expect((await desk.api("DELETE", `${translations}/de`, { headers: owner.headers })).status).toBe(204);
    expect((await page(`/help/${slug}/sitemap.xml`)).text).not.toContain(`/de/articles/get-a-refund`);
    expect((await page(`/help/${slug}/de/articles/get-a-refund`)).text).toContain(`<article class="body" lang="en"`);
    expect((await desk.api("DELETE", `/v1/kb/articles/${article.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await page(`/help/${slug}/de/articles/get-a-refund`)).status).toBe(404);
  });
});

describe("widget: article search in the widget's language", () => {
  test("a widget in German finds the German translation; without a locale, the help center's own language", async () => {
    const { owner, slug } = await seed();
    const workspace = (await desk.api("GET", "/v1/workspace", { headers: owner.headers })).body;
    const key = workspace.widget_key as string;
    const german = await desk.api("GET", `/v1/widget/articles?key=${key}&q=refund&locale=de-AT`);
    expect(german.status).toBe(200);
    expect(german.body.data).toEqual([
      {
        title: "Eine Rückerstattung erhalten",
        excerpt: "Fragen Sie innerhalb von dreißig Tagen.",
        url: `${base()}/help/${slug}/de/articles/get-a-refund`,
      },
    ]);
    const plain = await desk.api("GET", `/v1/widget/articles?key=${key}&q=refund`);
    expect(plain.body.data[0].title).toBe("Get a refund");
    const bad = await desk.api("GET", `/v1/widget/articles?key=${key}&q=refund&locale=${"x".repeat(40)}`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("query.locale");
  });
});
