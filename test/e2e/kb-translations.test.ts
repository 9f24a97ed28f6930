/**
 * Article translations in a real browser against the real executable: an agent writes the German
 * version of a published English article in the editor's languages panel and publishes it; the
 * help center's German page shows it, marked `lang="de"`, while its French page shows the English
 * article marked `lang="en"`; editing the article afterwards marks the German translation outdated.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  browserTestsReady,
  call,
  launchChromium,
  memberByInvitation,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const owner = { name: "Olga Owner", email: "olga@kb-translations.test", password: "owner password 1" };
const agent = { name: "Arne Agent", email: "arne@kb-translations.test", password: "agent password 1" };
let desk: RunningDesk;
let browser: Browser;
let headers: Record<string, string>;
let slug = "";
let articleId = "";

describe.skipIf(!ready.ok)("knowledge base translations (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Initech"));
    await memberByInvitation(desk.url, headers, agent);
    const workspace = await call(desk.url, "PATCH", "/v1/workspace", headers, {
      settings: { help_center_enabled: true, locale: "en", locales: ["en", "de", "fr"] },
    });
    slug = workspace.body.slug;
    const collection = await call(desk.url, "POST", "/v1/kb/collections", headers, { name: "Billing" });
    const article = await call(desk.url, "POST", "/v1/kb/articles", headers, {
      collection_id: collection.body.id,
      title: "Get a refund",
      status: "published",
      body_html: "<p>Write to us within thirty days.</p>",
    });
    articleId = article.body.id;
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "an agent publishes a German translation; the German page shows it with lang=de; an article edit marks it outdated",
    async () => {
      const page: Page = await browser.newPage();
      page.setDefaultTimeout(8000);
      await signIn(page, desk.url, agent);
      await page.goto(`${desk.url}/kb/articles/${articleId}`);
      const languages = page.getByRole("region", { name: "Languages" });
      const german = languages.getByTestId("translation-de");
      await shown(german.getByText("Missing"));
      await shown(languages.getByTestId("translation-fr").getByText("Missing"));
      await german.getByRole("button", { name: "Translate into German" }).click();

      const dialog = page.getByRole("dialog", { name: "German translation" });
      await dialog.getByLabel("Title").fill("Eine Rückerstattung erhalten");
      const body = dialog.getByRole("textbox", { name: "German body" });
      expect(await body.getAttribute("lang")).toBe("de");
      await body.click();
      await page.keyboard.type("Schreiben Sie uns innerhalb von dreißig Tagen.");
      await dialog.getByRole("button", { name: "Publish" }).click();
      await dialog.waitFor({ state: "detached" });
      await shown(german.getByText("Published"));

      const stored = (await call(desk.url, "GET", `/v1/kb/articles/${articleId}/translations/de`, headers)).body;
      expect(stored).toMatchObject({ locale: "de", title: "Eine Rückerstattung erhalten", status: "published" });
      expect(stored.body_text).toBe("Schreiben Sie uns innerhalb von dreißig Tagen.");

      // A customer's browser, JavaScript off: the German page is German, the French one honestly English.
      const customer = await browser.newContext({ javaScriptEnabled: false });
      const reader = await customer.newPage();
      reader.setDefaultTimeout(8000);
      await reader.goto(`${desk.url}/help/${slug}/de/articles/get-a-refund`);
      const heading = reader.getByRole("heading", { level: 1, name: "Eine Rückerstattung erhalten" });
      await shown(heading);
      expect(await reader.locator("article.body").getAttribute("lang")).toBe("de");
      await shown(reader.getByText("Schreiben Sie uns innerhalb von dreißig Tagen."));
      await reader.goto(`${desk.url}/help/${slug}/fr/articles/get-a-refund`);
      await shown(reader.getByRole("heading", { level: 1, name: "Get a refund" }));
      expect(await reader.locator("html").getAttribute("lang")).toBe("fr");
      expect(await reader.locator("article.body").getAttribute("lang")).toBe("en");
      await customer.close();

      // The English article changes: its German translation is now outdated.
      const articleBody = page.getByRole("textbox", { name: "Article body" });
      await articleBody.click();
      await page.keyboard.press("End");
      await page.keyboard.type(" Keep your receipt.");
      await page.getByRole("button", { name: "Save and update" }).click();
      await shown(page.getByRole("button", { name: "Saved" }));
      await shown(german.getByText("Outdated"));
      const list = (await call(desk.url, "GET", `/v1/kb/articles/${articleId}/translations`, headers)).body.data;
      expect(list).toEqual([expect.objectContaining({ locale: "de", outdated: true, status: "published" })]);
      await page.close();
    },
    STEP * 2,
  );
});
