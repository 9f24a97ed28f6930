/**
 * The portal and the contact form in the customer's language, in Chromium against dist/desk: a
 * German and a French browser (their Accept-Language) get the pages in their language with `lang`
 * set, the French contact form sends (its proof-of-work solved by the page) and teaches the contact
 * French; an agent sees that language on the contact page and changes it, and the portal follows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import {
  browserTestsReady,
  call,
  eventually,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();
const STEP = 60_000;
const owner = { name: "Lou Owner", email: "lou@portal-language.test", password: "correct horse battery" };

let desk: RunningDesk;
let browser: Browser;
let headers: Record<string, string> = {};
let slug = "";

const contactLocale = async (email: string): Promise<string | null | undefined> => {
  const list = await call(desk.url, "GET", `/v1/contacts?q=${encodeURIComponent(email)}`, headers);
  return (list.body.data as Array<{ email: string; locale: string | null }>).find((c) => c.email === email)?.locale;
};

describe.skipIf(!ready.ok)("the portal and contact form in the customer's language (Chromium)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Sprachen GmbH"));
    slug = (await call(desk.url, "GET", "/v1/workspace", headers)).body.slug;
    const patched = await call(desk.url, "PATCH", "/v1/workspace", headers, {
      settings: { help_center_enabled: true, locale: "en", locales: ["en", "de", "fr"] },
    });
    expect(patched.status).toBe(200);
    expect(
      (await call(desk.url, "POST", "/v1/mailboxes", headers, { name: "Hilfe", email: "hilfe@sprachen.test" })).status,
    ).toBe(201);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  test(
    "a German browser gets the portal and the contact form in German",
    async () => {
      const context = await browser.newContext({ locale: "de-DE", viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      try {
        await page.goto(`${desk.url}/portal/${slug}`);
        await shown(page.getByRole("heading", { name: "Ihre Anfragen" }));
        expect(await page.getAttribute("html", "lang")).toBe("de");
        await shown(page.getByRole("button", { name: "Anmeldelink senden" }));
        await shown(page.getByRole("link", { name: "Zum Inhalt springen" }));
        await page.goto(`${desk.url}/help/${slug}/contact`);
        await shown(page.getByRole("heading", { name: "Kontakt" }));
        expect(await page.getAttribute("html", "lang")).toBe("de");
        await shown(page.getByLabel("Ihr Name"));
        await shown(page.getByLabel("Wie können wir Ihnen helfen?"));
        await shown(page.getByRole("button", { name: "Nachricht senden" }));
      } finally {
        await context.close();
      }
    },
    STEP,
  );

  test(
    "a French browser sends the contact form in French; the contact becomes French",
    async () => {
      const context = await browser.newContext({ locale: "fr-FR", viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      try {
        await page.goto(`${desk.url}/help/${slug}/contact`);
        await shown(page.getByRole("heading", { name: "Nous contacter" }));
        expect(await page.getAttribute("html", "lang")).toBe("fr");
        await page.getByLabel("Votre nom").fill("Chloé");
        await page.getByLabel("Adresse e-mail").fill("chloe@client.test");
        await page.getByLabel("Objet").fill("Commande introuvable");
        await page.getByLabel("Comment pouvons-nous vous aider ?").fill("Ma commande n’est pas arrivée.");
        await page.getByRole("button", { name: "Envoyer le message" }).click();
        await shown(page.getByRole("heading", { name: "Merci" }));
        expect(await page.getAttribute("html", "lang")).toBe("fr");
        expect(await eventually(() => contactLocale("chloe@client.test"), "fr")).toBe("fr");
        await page.goto(`${desk.url}/portal/${slug}`);
        await shown(page.getByRole("heading", { name: "Vos demandes" }));
        await shown(page.getByRole("button", { name: "M’envoyer un lien de connexion" }));
      } finally {
        await context.close();
      }
    },
    STEP,
  );

  test(
    "the contact page shows the contact's language and changes it",
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      try {
        const list = await call(desk.url, "GET", "/v1/contacts?q=chloe", headers);
        const contact = (list.body.data as Array<{ id: string; email: string }>).find(
          (c) => c.email === "chloe@client.test",
        )!;
        await signIn(page, desk.url, owner);
        await page.goto(`${desk.url}/contacts/${contact.id}`);
        const select = page.getByLabel("Language", { exact: true });
        await shown(select);
        expect(await select.inputValue()).toBe("fr");
        expect(await select.locator("option:checked").textContent()).toBe("Français");
        expect(await select.locator("option").first().textContent()).toBe("Not set");
        await select.selectOption("de");
        expect(await eventually(() => contactLocale("chloe@client.test"), "de")).toBe("de");
        await page.reload();
        await shown(page.getByLabel("Language", { exact: true }));
        expect(await page.getByLabel("Language", { exact: true }).inputValue()).toBe("de");
        await select.selectOption("");
        expect(await eventually(() => contactLocale("chloe@client.test"), null)).toBeNull();
      } finally {
        await context.close();
      }
    },
    STEP,
  );
});
