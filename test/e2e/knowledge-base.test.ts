/**
 * The knowledge base in a real browser against the real executable: an admin turns the help center
 * on in Settings; an agent (joined through an invitation) adds a collection, writes an article in the
 * rich-text editor and publishes it; the article then reads on the public help center and is found
 * by its search, in a browser with JavaScript switched off (the pages need none). A draft never shows.
 * DESK_SCREENSHOTS=1 also writes docs/screenshots/kb-editor-light.png, kb-preview-light.png and
 * help-center-article.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  call,
  browserTestsReady,
  eventually,
  launchChromium,
  memberByInvitation,
  ownerWithWorkspace,
  ROOT,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const owner = { name: "Olga Owner", email: "olga@kb.test", password: "owner password 1" };
const agent = { name: "Arne Agent", email: "arne@kb.test", password: "agent password 1" };
let desk: RunningDesk;
let browser: Browser;
let headers: Record<string, string>;
let slug = "";

const shots = process.env.DESK_SCREENSHOTS === "1";
async function screenshot(page: Page, name: string) {
  if (!shots) return;
  const dir = join(ROOT, "docs", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

async function signedIn(who: { email: string; password: string }): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(8000);
  await signIn(page, desk.url, who);
  return page;
}

describe.skipIf(!ready.ok)("knowledge base and help center (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Globex"));
    slug = (await call(desk.url, "GET", "/v1/workspace", headers)).body.slug;
    await memberByInvitation(desk.url, headers, agent);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "an admin turns the help center on and titles it",
    async () => {
      const page = await signedIn(owner);
      await page.goto(`${desk.url}/settings/help-center`);
      expect((await fetch(`${desk.url}/help/${slug}`)).status).toBe(404);
      await page.getByLabel("Publish the help center").check();
      await page.getByLabel("Title").fill("Globex Answers");
      await page.getByRole("button", { name: "Save" }).click();
      const preview = page.getByRole("link", { name: "Preview the help center" });
      await shown(preview);
      expect(await preview.getAttribute("href")).toBe(`${desk.url}/help/${slug}`);
      const settings = (await call(desk.url, "GET", "/v1/workspace", headers)).body.settings;
      expect(settings).toMatchObject({ help_center_enabled: true, help_center_title: "Globex Answers" });
      await page.close();
    },
    STEP,
  );

  test(
    "an agent writes and publishes an article; it reads on the help center and its search finds it, without JavaScript",
    async () => {
      const page = await signedIn(agent);
      await page.getByRole("link", { name: "Knowledge base" }).click();
      await page.waitForURL(/\/kb/);
      await page.getByLabel("New collection").fill("Account help");
      await page.getByRole("button", { name: "Add collection" }).click();
      await shown(page.getByRole("heading", { name: "Account help" }));
      await page.getByText("Edit collection").click();
      await page.getByLabel("Collection description").fill("Sign-in, passwords and profiles");
      await page.getByRole("button", { name: "Save collection" }).click();
      await shown(page.locator(".kb-articles p.muted", { hasText: "Sign-in, passwords and profiles" }));

      // A draft that must never reach the public pages.
      await page.getByLabel("New article title").fill("Unreleased plans");
      await page.getByRole("button", { name: "New article" }).click();
      await page.waitForURL(/\/kb\/articles\//);
      await shown(page.getByTestId("article-status"));
      await page.locator(".page-head").getByRole("link", { name: "Knowledge base" }).click();
      await page.waitForURL(/\/kb\?collection=/);

      await page.getByLabel("New article title").fill("Change your password");
      await page.getByRole("button", { name: "New article" }).click();
      await page.waitForURL(/\/kb\/articles\//);
      expect(await page.getByTestId("article-status").textContent()).toBe("Draft");
      const body = page.getByRole("textbox", { name: "Article body" });
      await body.click();
      await page.keyboard.type("Open your profile and choose a new passphrase.");
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Bulleted list" }).click();
      await page.keyboard.type("Use at least twelve characters");
      await page.getByRole("button", { name: "Publish" }).click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="article-status"]')?.textContent === "Published",
      );
      const view = page.getByRole("link", { name: "View on the help center" });
      await shown(view);
      await screenshot(page, "kb-editor-light");
      const href = (await view.getAttribute("href")) ?? "";
      expect(href).toBe(`${desk.url}/help/${slug}/articles/change-your-password`);

      const stored = (await call(desk.url, "GET", "/v1/kb/articles?q=passphrase", headers)).body.data;
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ title: "Change your password", status: "published" });
      expect(stored[0].body_html).toContain("<li>Use at least twelve characters</li>");

      // A customer's browser, JavaScript off: the pages read and search without it.
      const customer = await browser.newContext({ javaScriptEnabled: false });
      const reader = await customer.newPage();
      reader.setDefaultTimeout(8000);
      await reader.goto(`${desk.url}/help/${slug}`);
      expect(await reader.title()).toBe("Globex Answers");
      await shown(reader.getByRole("heading", { level: 1, name: "Globex Answers" }));
      await reader.getByRole("link", { name: "Account help" }).click();
      await shown(reader.getByRole("heading", { level: 1, name: "Account help" }));
      expect(await reader.getByRole("link", { name: "Unreleased plans" }).count()).toBe(0);
      await reader.getByRole("link", { name: "Change your password" }).click();
      await shown(reader.getByRole("heading", { level: 1, name: "Change your password" }));
      expect(reader.url()).toBe(href);
      await shown(reader.getByText("Open your profile and choose a new passphrase."));
      await shown(reader.getByRole("listitem").filter({ hasText: "Use at least twelve characters" }));
      await screenshot(reader, "help-center-article");

      await reader.getByRole("searchbox", { name: "Search articles" }).fill("passphr");
      await reader.getByRole("button", { name: "Search" }).click();
      await reader.waitForURL(/\/search\?q=passphr/);
      await shown(reader.getByRole("heading", { level: 1, name: "Search results for “passphr”" }));
      await shown(reader.getByRole("link", { name: "Change your password" }));
      await reader.getByRole("searchbox", { name: "Search articles" }).fill("unreleased");
      await reader.getByRole("button", { name: "Search" }).click();
      await shown(reader.getByText("No articles match."));
      const draft = await reader.goto(`${desk.url}/help/${slug}/articles/unreleased-plans`);
      expect(draft?.status()).toBe(404);
      await shown(reader.getByRole("heading", { level: 1, name: "Page not found" }));
      await customer.close();

      // Unpublishing takes it off the help center at once.
      await page.getByRole("button", { name: "Unpublish" }).click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="article-status"]')?.textContent === "Draft",
      );
      expect((await fetch(href)).status).toBe(404);

      // Ordering within the collection: the list moves an article up.
      await page.locator(".page-head").getByRole("link", { name: "Knowledge base" }).click();
      await page.getByRole("button", { name: "Move Change your password up" }).click();
      const order = async () =>
        (await call(desk.url, "GET", "/v1/kb/articles", headers)).body.data
          .map((a: { title: string }) => a.title)
          .join();
      expect(await eventually(order, "Change your password,Unreleased plans")).toBe(
        "Change your password,Unreleased plans",
      );
      await page.close();
    },
    STEP * 2,
  );

  test(
    "the editor previews a draft with unsaved changes as the help center page, themed; nothing is saved",
    async () => {
      const draft = (await call(desk.url, "GET", "/v1/kb/articles?q=unreleased", headers)).body.data[0];
      const page = await signedIn(agent);
      await page.goto(`${desk.url}/kb/articles/${draft.id}`);
      await shown(page.getByTestId("article-status"));
      const body = page.getByRole("textbox", { name: "Article body" });
      await body.click();
      await page.keyboard.type("Coming next spring: dark mode.");
      await page.getByRole("button", { name: "Preview" }).click();
      const dialog = page.getByRole("dialog", { name: "Preview on the help center" });
      await shown(dialog);
      await shown(dialog.getByText("Unsaved changes included."));
      const frame = page.frameLocator('iframe[title="Article preview"]');
      await shown(frame.getByRole("heading", { level: 1, name: "Unreleased plans" }));
      await shown(frame.getByText("Coming next spring: dark mode."));
      await shown(frame.getByRole("banner").getByRole("link", { name: "Globex Answers" }));
      // The help center's stylesheet applies inside the web app's frame: the header wears the brand.
      const header = frame.locator("header.site");
      expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(31, 111, 235)");
      await screenshot(page, "kb-preview-light");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      const stored = (await call(desk.url, "GET", `/v1/kb/articles/${draft.id}`, headers)).body;
      expect(stored).toMatchObject({ status: "draft" });
      expect(stored.body_html).not.toContain("dark mode");
      expect((await fetch(`${desk.url}/help/${slug}/articles/unreleased-plans`)).status).toBe(404);
      await page.close();
    },
    STEP,
  );
});
