/**
 * The web app under its Content-Security-Policy in a real browser: first-run setup, the inbox, a
 * ticket with an HTML message, settings, the profile and /docs run without a single CSP violation,
 * and the pre-paint theme script (a file, not inline) still applies the saved theme.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { call, browserTestsReady, launchChromium, ROOT, type RunningDesk, shown, startDeskBinary } from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const owner = { name: "Cora Policy", email: "cora@example.test", password: "correct horse battery" };
let desk: RunningDesk;
let browser: Browser;
let page: Page;
/** Everything the browser reported as blocked by the policy, or any uncaught page error. */
const violations: string[] = [];

describe.skipIf(!ready.ok)("the web app under its CSP (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    const context = await browser.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(8000);
    page.on("console", (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("pageerror", (error) => violations.push(String(error)));
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test("the built index.html has no inline script", () => {
    const html = readFileSync(join(ROOT, "web", "dist", "index.html"), "utf8");
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain("src=");
  });

  test(
    "setup, inbox, a ticket, settings, reports, the audit log, profile and /docs run without a CSP violation",
    async () => {
      const home = await fetch(desk.url);
      expect(home.headers.get("content-security-policy")).toContain("script-src 'self'");
      await home.arrayBuffer();

      await page.goto(desk.url);
      await page.waitForURL(/\/setup$/);
      await page.getByLabel("Your name").fill(owner.name);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill(owner.password);
      await page.getByLabel("Workspace name").fill("Policy Desk");
      await page.getByRole("button", { name: "Create account and workspace" }).click();
      await page.waitForURL(/\/inbox\/unassigned/);
      await shown(page.getByRole("heading", { name: "Unassigned" }));

      const signIn = await call<{ access_token: string }>(
        desk.url,
        "POST",
        "/v1/auth/login",
        {},
        {
          email: owner.email,
          password: owner.password,
        },
      );
      const token = signIn.body.access_token;
      const me = await call<{ workspaces: Array<{ id: string }> }>(desk.url, "GET", "/v1/me", {
        authorization: `Bearer ${token}`,
      });
      const headers = { authorization: `Bearer ${token}`, "desk-workspace": me.body.workspaces[0]!.id };
      const created = await call<{ number: number }>(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Styled mail",
        contact: { email: "sam@customer.test", name: "Sam" },
        body_html: '<p><b>Bold</b> and <font color="red">red</font></p>',
      });
      expect(created.status).toBe(201);
      await page.goto(`${desk.url}/tickets/${created.body.number}`);
      await shown(page.getByText("Bold"));

      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("link", { name: "API keys" }).click();
      await shown(page.getByRole("button", { name: "Create key" }));

      // The saved theme is applied by /theme.js before the app runs.
      await page.evaluate(() => localStorage.setItem("desk.theme", "dark"));
      await page.reload();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");

      // The reports page draws its chart with uPlot (styles set through the CSSOM, no inline <style>).
      await page.goto(`${desk.url}/reports`);
      await shown(page.locator("[data-testid=day-chart] canvas"));
      await page.goto(`${desk.url}/audit-log`);
      await shown(page.getByRole("heading", { name: "Audit log" }));

      await page.goto(`${desk.url}/docs`);
      await shown(page.locator(".op").first());

      expect(violations).toEqual([]);
    },
    STEP,
  );

  test(
    "the knowledge base editor and the public help center pages run without a CSP violation, styled from their file",
    async () => {
      const signIn = await call<{ access_token: string }>(
        desk.url,
        "POST",
        "/v1/auth/login",
        {},
        { email: owner.email, password: owner.password },
      );
      const token = signIn.body.access_token;
      const me = await call<{ workspaces: Array<{ id: string; slug: string }> }>(desk.url, "GET", "/v1/me", {
        authorization: `Bearer ${token}`,
      });
      const headers = { authorization: `Bearer ${token}`, "desk-workspace": me.body.workspaces[0]!.id };
      const slug = me.body.workspaces[0]!.slug;
      await call(desk.url, "PATCH", "/v1/workspace", headers, {
        settings: { help_center_enabled: true, brand_color: "#0b7285" },
      });
      const collection = await call<{ id: string }>(desk.url, "POST", "/v1/kb/collections", headers, {
        name: "Guides",
      });
      const article = await call<{ id: string }>(desk.url, "POST", "/v1/kb/articles", headers, {
        collection_id: collection.body.id,
        title: "Styled guide",
        status: "published",
        body_html: '<p style="color:red" onmouseover="alert(1)"><b>Bold</b> text</p><script>alert(1)</script>',
      });
      await page.goto(`${desk.url}/kb/articles/${article.body.id}`);
      await shown(page.getByRole("textbox", { name: "Article body" }));
      for (const path of [`/help/${slug}`, `/help/${slug}/articles/styled-guide`, `/help/${slug}/search?q=guide`]) {
        const response = await page.goto(`${desk.url}${path}`);
        expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
        await shown(page.locator("main h1"));
        // The header's colour comes from the stylesheet file: it loaded under the policy.
        expect(
          await page.evaluate(() => getComputedStyle(document.querySelector("header.site")!).backgroundColor),
        ).toBe("rgb(11, 114, 133)");
      }
      expect(violations).toEqual([]);
    },
    STEP,
  );
});
