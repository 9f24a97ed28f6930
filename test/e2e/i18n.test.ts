/**
 * Desk in the customer's language, in Chromium against dist/desk: the help center under
 * /help/{slug}/{locale}/ in German and French (lang attribute, translated text, the language
 * switcher), the chat widget following its tag's data-locale, else the browser's language, and the
 * CSAT rating page in German.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  browserTestsReady,
  call,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 60_000;
let desk: RunningDesk;
let browser: Browser;
let site: ReturnType<typeof Bun.serve>;
const contexts: BrowserContext[] = [];
const owner = { name: "Greta Owner", email: "greta@i18n.test", password: "correct horse battery" };
let headers: Record<string, string> = {};
let widgetKey = "";
let slug = "";

/** A page on another origin embedding the widget; `?locale=` becomes the tag's data-locale. */
function customerSite(): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => {
      const locale = new URL(request.url).searchParams.get("locale");
      const attribute = locale ? ` data-locale="${locale.replace(/[^A-Za-z-]/g, "")}"` : "";
      return new Response(
        `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main>
<script src="${desk.url}/widget.js" data-key="${widgetKey}"${attribute} async></script></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    },
  });
}

async function newPage(locale = "en-US"): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

describe.skipIf(!ready.ok)("customer-facing pages in the customer's language (Chromium)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Kaffee GmbH"));
    const workspace = await call(desk.url, "GET", "/v1/workspace", headers);
    widgetKey = workspace.body.widget_key;
    slug = workspace.body.slug;
    const patched = await call(desk.url, "PATCH", "/v1/workspace", headers, {
      settings: { help_center_enabled: true, csat_enabled: true, locale: "de", locales: ["de", "fr"] },
    });
    expect(patched.status).toBe(200);
    const collection = await call(desk.url, "POST", "/v1/kb/collections", headers, { name: "Rechnungen" });
    const article = await call(desk.url, "POST", "/v1/kb/articles", headers, {
      collection_id: collection.body.id,
      title: "Rechnung herunterladen",
      status: "published",
      body_html: "<p>Unter Abrechnung.</p>",
    });
    expect(article.status).toBe(201);
    site = customerSite();
  }, STEP);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close().catch(() => {});
    site?.stop(true);
    await desk?.stop();
  });

  test(
    "the help center in German and French: lang, translated text, switcher, Accept-Language",
    async () => {
      const page = await newPage();
      await page.goto(`${desk.url}/help/${slug}/de`);
      expect(await page.locator("html").getAttribute("lang")).toBe("de");
      await shown(page.getByRole("heading", { name: "Sammlungen" }));
      expect(await page.getByRole("searchbox", { name: "Artikel durchsuchen" }).count()).toBe(1);
      expect(await page.locator(`link[rel=alternate][hreflang=fr]`).getAttribute("href")).toBe(
        `${desk.url}/help/${slug}/fr`,
      );
      await page.getByRole("navigation", { name: "Sprache" }).getByRole("link", { name: "Français" }).click();
      await page.waitForURL(`${desk.url}/help/${slug}/fr`);
      expect(await page.locator("html").getAttribute("lang")).toBe("fr");
      await shown(page.getByRole("heading", { name: "Collections" }));
      await page.getByRole("link", { name: "Rechnung herunterladen" }).click();
      await page.waitForURL(`${desk.url}/help/${slug}/fr/articles/rechnung-herunterladen`);
      await shown(page.getByText(/Mis à jour le/));
      expect(await page.getByRole("navigation", { name: "Fil d’Ariane" }).count()).toBe(1);

      // No language in the address: the browser's languages choose among the help center's.
      const french = await newPage("fr-FR");
      await french.goto(`${desk.url}/help/${slug}`);
      expect(await french.locator("html").getAttribute("lang")).toBe("fr");
      const other = await newPage("ja-JP");
      await other.goto(`${desk.url}/help/${slug}`);
      expect(await other.locator("html").getAttribute("lang")).toBe("de");
    },
    STEP,
  );

  test(
    "the widget follows data-locale on its tag, else the browser's language",
    async () => {
      const german = await newPage("en-US");
      await german.goto(`http://127.0.0.1:${site.port}/?locale=de`);
      const launcher = german.getByRole("button", { name: "Chat öffnen" });
      await shown(launcher);
      expect(await german.locator("[data-desk-widget]").getAttribute("lang")).toBe("de");
      await launcher.click();
      await shown(german.getByRole("dialog", { name: "Chat mit Kaffee GmbH" }));
      await shown(german.getByText("Hallo! Wie können wir Ihnen helfen?").first());
      await shown(german.getByRole("textbox", { name: "Nachricht" }));
      await shown(german.getByRole("button", { name: "Chat schließen" }));

      const french = await newPage("fr-FR");
      await french.goto(`http://127.0.0.1:${site.port}/`);
      const ouvrir = french.getByRole("button", { name: "Ouvrir le chat" });
      await shown(ouvrir);
      expect(await french.locator("[data-desk-widget]").getAttribute("lang")).toBe("fr");
      await ouvrir.click();
      await shown(french.getByRole("textbox", { name: "Message" }));
      expect(await french.getByPlaceholder("Écrivez un message…").count()).toBe(1);
    },
    STEP,
  );

  test(
    "the CSAT rating page in German",
    async () => {
      const created = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Kaffeemaschine defekt",
        contact: { email: "kunde@kunde.test", name: "Karl Kunde" },
        body_html: "<p>Sie tropft.</p>",
      });
      expect(created.status).toBe(201);
      expect(
        (await call(desk.url, "PATCH", `/v1/tickets/${created.body.id}`, headers, { status: "solved" })).status,
      ).toBe(200);
      // The binary writes system mail to <data dir>/outbox.
      let link = "";
      const outbox = join(desk.dataDir, "outbox");
      for (let i = 0; i < 150 && !link; i++) {
        for (const file of existsSync(outbox) ? readdirSync(outbox) : []) {
          const raw = readFileSync(join(outbox, file), "utf8");
          if (raw.includes("kunde@kunde.test"))
            link = /(http:\/\/\S+\/csat\/[A-Za-z0-9_-]+)(?=\s)/.exec((await simpleParser(raw)).text ?? "")?.[1] ?? "";
        }
        if (!link) await Bun.sleep(100);
      }
      expect(link).not.toBe("");
      const page = await newPage("de-DE");
      await page.goto(`${link}?score=4`);
      expect(await page.locator("html").getAttribute("lang")).toBe("de");
      await shown(page.getByRole("heading", { name: "Wie war unser Support?" }));
      expect(await page.getByRole("radio", { name: "4 Gut" }).isChecked()).toBe(true);
      await page.getByLabel("Kommentar (optional)").fill("Schnell und freundlich");
      await page.getByRole("button", { name: "Bewertung senden" }).click();
      await shown(
        page.getByRole("status").filter({ hasText: "Vielen Dank! Wir haben Ihre Bewertung gespeichert: 4 (Gut)." }),
      );
      await shown(page.getByRole("button", { name: "Bewertung ändern" }));
    },
    STEP,
  );
});
