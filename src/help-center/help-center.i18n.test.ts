import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";

const desk: TestDesk = await startTestDesk();
const base = () => desk.deps.config.baseUrl;

async function seed(settings: Record<string, unknown>) {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const patched = await desk.api("PATCH", "/v1/workspace", {
    headers: owner.headers,
    body: { settings: { help_center_enabled: true, ...settings } },
  });
  expect(patched.status).toBe(200);
  const collection = await desk.api("POST", "/v1/kb/collections", {
    headers: owner.headers,
    body: { name: "Billing" },
  });
  const article = await desk.api("POST", "/v1/kb/articles", {
    headers: owner.headers,
    body: { collection_id: collection.body.id, title: "Get a refund", status: "published", body_html: "<p>Ask.</p>" },
  });
  expect(article.status).toBe(201);
  return { workspace, owner, slug: workspace.slug as string, article: article.body };
}

const page = (path: string, headers: Record<string, string> = {}) => desk.api("GET", path, { headers });

describe("help center languages", () => {
  test("/help/{slug}/{locale}/… in each offered language: lang, translated text, hreflang alternates, switcher", async () => {
    const { slug, workspace, owner, article } = await seed({ locale: "de", locales: ["de", "fr", "en"] });
    // The article exists in German (its own) and English (a published translation), not in French.
    const english = await desk.api("PUT", `/v1/kb/articles/${article.id}/translations/en`, {
      headers: owner.headers,
      body: { title: "Get a refund", body_html: "<p>Ask.</p>", status: "published" },
    });
    expect(english.status).toBe(201);
    const res = await page(`/help/${slug}/fr/articles/get-a-refund`);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain(`<html lang="fr">`);
    expect(html).toContain(`<title>Get a refund | Centre d’aide ${workspace.name}</title>`);
    expect(html).toContain(`<link rel="canonical" href="${base()}/help/${slug}/fr/articles/get-a-refund">`);
    expect(html).not.toContain(`hreflang="fr" href=`);
    for (const l of ["de", "en"])
      expect(html).toContain(
        `<link rel="alternate" hreflang="${l}" href="${base()}/help/${slug}/${l}/articles/get-a-refund">`,
      );
    expect(html).toContain(
      `<link rel="alternate" hreflang="x-default" href="${base()}/help/${slug}/articles/get-a-refund">`,
    );
    expect(html).toContain(`<nav class="languages" aria-label="Langue">`);
    expect(html).toContain(`hreflang="de" lang="de">Deutsch</a>`);
    expect(html).toContain(`aria-current="true">Français</a>`);
    expect(html).toContain(`placeholder="Rechercher dans les articles"`);
    expect(html).toMatch(/Mis à jour le <time datetime="[^"]+">\d+ \S+ \d{4}<\/time>/);
    expect(res.headers.get("vary")).toBeNull();

    const german = await page(`/help/${slug}/de`);
    expect(german.text).toContain(`<html lang="de">`);
    expect(german.text).toContain("<h2>Sammlungen</h2>");
    expect(german.text).toContain("1 Artikel");
    expect(german.text).toContain(`href="${base()}/help/${slug}/de/collections/billing"`);
    const search = await page(`/help/${slug}/de/search?q=nichts`);
    expect(search.text).toContain("Suchergebnisse für „nichts“");
  });

  test("without a locale, Accept-Language picks among the help center's languages, else the workspace's", async () => {
    const { slug } = await seed({ locale: "de", locales: ["de", "fr", "en"] });
    const french = await page(`/help/${slug}`, { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" });
    expect(french.status).toBe(200);
    expect(french.text).toContain(`<html lang="fr">`);
    expect(french.headers.get("vary")).toContain("Accept-Language");
    const dutch = await page(`/help/${slug}/articles/get-a-refund`, { "accept-language": "nl, ja;q=0.8" });
    expect(dutch.text).toContain(`<html lang="de">`);
    expect((await page(`/help/${slug}`)).text).toContain(`<html lang="de">`);
    expect((await page(`/help/${slug}`, { "accept-language": "en-GB" })).text).toContain(`<html lang="en">`);
  });

  test("a shipped language the help center does not offer answers 404; one language keeps language-free links", async () => {
    const { slug } = await seed({ locale: "nl" });
    expect((await page(`/help/${slug}/fr`)).status).toBe(404);
    const dutch = await page(`/help/${slug}/nl/articles/get-a-refund`);
    expect(dutch.status).toBe(200);
    expect(dutch.text).toContain(`<html lang="nl">`);
    expect(dutch.text).toContain(`<link rel="canonical" href="${base()}/help/${slug}/articles/get-a-refund">`);
    expect(dutch.text).not.toContain("hreflang");
    expect(dutch.text).toContain("Artikelen doorzoeken");
    expect((await page(`/help/${slug}`, { "accept-language": "fr" })).text).toContain(`<html lang="nl">`);
  });

  test("locale and locales are validated against the shipped languages (422 with location)", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const cases: Array<[unknown, string]> = [
      [{ locale: "ja" }, "body.settings.locale"],
      [{ locale: "de-DE" }, "body.settings.locale"],
      [{ locales: [] }, "body.settings.locales"],
      [{ locales: ["de", "xx"] }, "body.settings.locales.1"],
      [{ locales: ["de", "de"] }, "body.settings.locales"],
    ];
    for (const [settings, location] of cases) {
      const res = await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings } });
      expect(res.status, JSON.stringify(settings)).toBe(422);
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    const ok = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { locale: "pt-BR", locales: ["pt-BR", "es"] } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toMatchObject({ locale: "pt-BR", locales: ["pt-BR", "es"] });
  });
});
