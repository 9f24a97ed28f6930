/**
 * The agent app in the member's language, in Chromium against dist/desk: German chosen in the
 * profile (and kept over a reload, with no English shown first), French set through PATCH /v1/me,
 * a right-to-left language mirroring the layout, the workspace's default language for a member
 * whose browser asks for none Desk ships, and the signed-out sign-in page in the browser's language.
 * Translated texts are read from the catalogues, so the test follows their wording.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  browserTestsReady,
  call,
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

const STEP = 60_000;
const WIDTH = 1280;
let desk: RunningDesk;
let browser: Browser;
const contexts: BrowserContext[] = [];
const owner = { name: "Greta Owner", email: "greta@language.test", password: "correct horse battery" };
let headers: Record<string, string> = {};

/** One namespace of a locale's catalogue: the text the app shows for a key. */
const catalogue = (locale: string, namespace: string): Record<string, string> =>
  JSON.parse(readFileSync(join(ROOT, "web", "src", "i18n", locale, `${namespace}.json`), "utf8"));

async function newPage(locale = "en-US"): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 }, locale });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

const htmlAttribute = (page: Page, name: "lang" | "dir") =>
  page.evaluate((n) => document.documentElement.getAttribute(n), name);

const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} has no box`);
  return found;
};

/** A member invited into the workspace, with their own language set through the API before they sign in. */
async function memberWithLocale(name: string, email: string, locale: string | null) {
  const who = { name, email, password: "correct horse battery" };
  const { token } = await memberByInvitation(desk.url, headers, who);
  const patched = await call(desk.url, "PATCH", "/v1/me", { authorization: `Bearer ${token}` }, { locale });
  expect(patched.status).toBe(200);
  expect(patched.body.user.locale).toBe(locale);
  return who;
}

describe.skipIf(!ready.ok)("the agent app in the member's language (Chromium)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Kaffee GmbH"));
    for (const [subject, email] of [
      ["Rechnung fehlt", "kim@kunde.test"],
      ["Lieferung verspätet", "lee@kunde.test"],
    ]) {
      const created = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject,
        channel: "api",
        contact: { email },
        body_html: `<p>${subject}</p>`,
        kind: "reply",
      });
      expect(created.status).toBe(201);
    }
  }, STEP);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close().catch(() => {});
    await desk?.stop();
  });

  test(
    "German chosen in the profile: the shell and the inbox speak German, <html lang=de>, and a reload keeps it without English first",
    async () => {
      const app = catalogue("de", "app");
      const inbox = catalogue("de", "inbox");
      const page = await newPage("en-US");
      await signIn(page, desk.url, owner);
      await shown(page.getByRole("link", { name: "Unassigned" }));
      expect(await htmlAttribute(page, "lang")).toBe("en");
      expect(await htmlAttribute(page, "dir")).toBe("ltr");
      expect((await box(page, "nav.sidebar")).x).toBe(0);

      await page.getByRole("button", { name: owner.name }).click();
      await page.getByRole("menuitem", { name: "Your profile" }).click();
      await page.getByLabel("Language of the app").selectOption({ label: "Deutsch" });
      await page.getByRole("button", { name: "Save language" }).click();
      // The profile itself switches at once, no reload.
      await shown(page.getByRole("heading", { name: app.language, exact: true }));
      expect(await htmlAttribute(page, "lang")).toBe("de");
      expect(await page.getByLabel(app.languageOfTheApp).inputValue()).toBe("de");

      await page.getByRole("link", { name: app.folderUnassigned }).click();
      const nav = page.getByRole("navigation", { name: app.mainNavigation });
      // A folder's link also names its count ("Nicht zugewiesen 2").
      for (const text of [app.folderUnassigned, app.folderMine]) await shown(nav.getByRole("link", { name: text }));
      for (const text of [app.contacts, app.knowledgeBase, app.settings])
        await shown(nav.getByRole("link", { name: text, exact: true }));
      await shown(nav.getByRole("button", { name: app.search }));
      await shown(page.getByRole("button", { name: inbox.newTicket }));
      await shown(page.locator(".ticket-subject", { hasText: "Rechnung fehlt" }));
      // The tab's title too: the waiting count, then the section, in German.
      expect(await page.title()).toBe("(2) Posteingang · Desk");

      // Reloaded: German from the first paint of the app (the member's language is known before it renders).
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { englishSeen: string[] }).englishSeen = seen;
        new MutationObserver(() => {
          const text = document.body?.innerText ?? "";
          for (const english of ["Unassigned", "All tickets", "Knowledge base", "New ticket"])
            if (text.includes(english) && !seen.includes(english)) seen.push(english);
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.reload();
      await shown(page.getByRole("button", { name: inbox.newTicket }));
      await shown(nav.getByRole("link", { name: app.folderAll }));
      expect(await htmlAttribute(page, "lang")).toBe("de");
      expect(await page.evaluate(() => (window as unknown as { englishSeen: string[] }).englishSeen)).toEqual([]);
    },
    STEP,
  );

  test(
    "French set through PATCH /v1/me: <html lang=fr> and French text from sign-in on",
    async () => {
      const app = catalogue("fr", "app");
      const inbox = catalogue("fr", "inbox");
      const faye = await memberWithLocale("Faye Agent", "faye@language.test", "fr");
      const page = await newPage("en-US");
      await signIn(page, desk.url, faye);
      const nav = page.getByRole("navigation", { name: app.mainNavigation });
      await shown(nav.getByRole("link", { name: app.folderUnassigned }));
      // An agent sees Preferences where an admin sees Settings.
      await shown(nav.getByRole("link", { name: app.preferences, exact: true }));
      await shown(page.getByRole("button", { name: inbox.newTicket }));
      expect(await htmlAttribute(page, "lang")).toBe("fr");
      expect(await htmlAttribute(page, "dir")).toBe("ltr");
      await page.getByRole("button", { name: "Faye Agent" }).click();
      await shown(page.getByRole("menuitem", { name: app.signOut, exact: true }));
    },
    STEP,
  );

  test(
    "a right-to-left language: <html dir=rtl>, the navigation at the right edge, the inbox rows reading from the right",
    async () => {
      const amal = await memberWithLocale("Amal Agent", "amal@language.test", "ar");
      const page = await newPage("en-US");
      await signIn(page, desk.url, amal);
      await shown(page.locator(".ticket-row").first());
      // Desk ships no Arabic texts: English, laid out right to left.
      expect(await htmlAttribute(page, "dir")).toBe("rtl");
      expect(await htmlAttribute(page, "lang")).toBe("en");

      const sidebar = await box(page, "nav.sidebar");
      const main = await box(page, "main.main");
      expect(Math.abs(sidebar.x + sidebar.width - WIDTH)).toBeLessThanOrEqual(1);
      expect(sidebar.x).toBeGreaterThan(WIDTH / 2);
      expect(main.x + main.width).toBeLessThanOrEqual(sidebar.x + 1);

      // In a row the checkbox comes first, at the right; the time comes last, at the left.
      const row = page.locator(".ticket-row").first();
      const checkbox = await row.getByRole("checkbox").boundingBox();
      const subject = await row.locator(".ticket-main").boundingBox();
      const time = await row.locator(".ticket-time").boundingBox();
      if (!checkbox || !subject || !time) throw new Error("the row has no boxes");
      expect(checkbox.x).toBeGreaterThan(subject.x);
      expect(subject.x).toBeGreaterThan(time.x);
      expect(time.x).toBeLessThan(main.x + main.width / 2);
      // The heading starts at the right of the page head too.
      const heading = await box(page, "main h1");
      expect(heading.x + heading.width).toBeGreaterThan(main.x + main.width - 60);

      // Edges and popups placed by side follow the direction: the sidebar's rule faces the page (its
      // left side now), and the account menu opens from the right edge inward, inside the window.
      const rule = await page
        .locator("nav.sidebar")
        .evaluate((el) => [getComputedStyle(el).borderLeftWidth, getComputedStyle(el).borderRightWidth]);
      expect(rule).toEqual(["1px", "0px"]);
      const account = await box(page, ".account");
      await page.getByRole("button", { name: "Amal Agent" }).click();
      const menu = await box(page, '[role="menu"]');
      expect(menu.x + menu.width).toBeLessThanOrEqual(WIDTH);
      expect(Math.abs(menu.x + menu.width - (account.x + account.width))).toBeLessThanOrEqual(1);
      // The skip link appears at the top right when focused.
      await page.keyboard.press("Escape");
      await page.goto(`${desk.url}/inbox/unassigned`);
      await shown(page.locator(".ticket-row").first());
      await page.keyboard.press("Tab");
      const skip = await box(page, ".skip-link");
      expect(skip.x).toBeGreaterThan(WIDTH / 2);
    },
    STEP,
  );

  test(
    "the workspace's default language (Settings → Workspace) for a member whose browser asks for none Desk ships",
    async () => {
      const app = catalogue("de", "app");
      const nl = catalogue("nl", "app");
      // Greta is German by now (the first test); she sets the workspace's language to Dutch on its screen.
      const page = await newPage("en-US");
      await signIn(page, desk.url, owner);
      await page.goto(`${desk.url}/settings/workspace`);
      const select = page.getByLabel(app.workspaceLanguage);
      expect(await select.inputValue()).toBe("en");
      await select.selectOption({ label: "Nederlands" });
      await select.evaluate((el) => (el as HTMLSelectElement).form?.requestSubmit());
      let saved = "";
      for (let i = 0; i < 50 && saved !== "nl"; i++) {
        saved = (await call(desk.url, "GET", "/v1/workspace", headers)).body.settings.locale;
        if (saved !== "nl") await Bun.sleep(100);
      }
      expect(saved).toBe("nl");
      // Her own choice still wins over the workspace's.
      expect(await htmlAttribute(page, "lang")).toBe("de");

      const jun = await memberWithLocale("Jun Agent", "jun@language.test", null);
      const japanese = await newPage("ja-JP");
      await signIn(japanese, desk.url, jun);
      await shown(japanese.getByRole("link", { name: nl.folderUnassigned }));
      expect(await htmlAttribute(japanese, "lang")).toBe("nl");
    },
    STEP,
  );

  test(
    "signed out, the sign-in page is in the browser's language",
    async () => {
      const account = catalogue("de", "account");
      const page = await newPage("de-DE");
      await page.goto(`${desk.url}/signin`);
      await shown(page.getByRole("heading", { name: account.signIn, exact: true }));
      await shown(page.getByLabel(account.email, { exact: true }));
      expect(await htmlAttribute(page, "lang")).toBe("de");
      expect(await htmlAttribute(page, "dir")).toBe("ltr");
    },
    STEP,
  );
});
