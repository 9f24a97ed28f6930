/**
 * Customer satisfaction and seeing how the team does, in Chromium against dist/desk: the rating
 * page a customer opens from the CSAT email (score preselected, keyboard usable, no CSP
 * violation, recorded only on submit), the rating on the agent's ticket, the setting that turns
 * CSAT on, the setup checklist (dismissible), global search (Ctrl+K), the reports page (its chart
 * library loaded only there, CSV export) and the audit log with its filters.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  call,
  browserTestsReady,
  eventually,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 45_000;
let desk: RunningDesk;
let browser: Browser;
const contexts: BrowserContext[] = [];
let headers: Record<string, string> = {};
const owner = { name: "Olivia Owner", email: "olivia@csat.test", password: "correct horse battery" };

async function newPage(width = 1360, height = 820): Promise<{ page: Page; cspErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const cspErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  return { page, cspErrors };
}

/** The rating link mailed to `address` (the binary writes system mail to <data dir>/outbox). */
async function ratingLinkTo(address: string): Promise<string> {
  const outbox = join(desk.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    for (const file of existsSync(outbox) ? readdirSync(outbox) : []) {
      const raw = readFileSync(join(outbox, file), "utf8");
      if (!raw.includes(address)) continue;
      const text = (await simpleParser(raw)).text ?? "";
      const link = /(http:\/\/\S+\/csat\/[A-Za-z0-9_-]+)(?=\s)/.exec(text)?.[1];
      if (link) return link;
    }
    await Bun.sleep(100);
  }
  throw new Error(`no rating mail to ${address}`);
}

async function solvedTicket(subject: string, email: string) {
  const created = await call(desk.url, "POST", "/v1/tickets", headers, {
    subject,
    contact: { email, name: "Carla Customer" },
    body_html: "<p>The printer is on fire.</p>",
  });
  expect(created.status).toBe(201);
  expect((await call(desk.url, "PATCH", `/v1/tickets/${created.body.id}`, headers, { status: "solved" })).status).toBe(
    200,
  );
  return created.body as { id: string; number: number };
}

describe.skipIf(!ready.ok)("CSAT, reports, audit log, search and the setup checklist (Chromium)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Acme Support"));
  }, STEP);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "the setup checklist shows on a fresh workspace, follows what is done, and stays hidden once dismissed",
    async () => {
      const { page } = await newPage();
      await signIn(page, desk.url, owner);
      const checklist = page.getByRole("region", { name: "Get started with Desk" });
      await shown(checklist);
      expect(await checklist.getByText("0 of 8 done").count()).toBe(1);
      await page.getByRole("link", { name: "Create a label" }).click();
      await page.waitForURL(/\/settings\/labels$/);
      expect((await call(desk.url, "POST", "/v1/tags", headers, { name: "billing" })).status).toBe(201);
      await page.goto(`${desk.url}/inbox/all`);
      await shown(checklist.getByText("1 of 8 done"));
      await checklist.getByRole("button", { name: "Dismiss the setup checklist" }).click();
      await checklist.waitFor({ state: "detached" });
      await page.reload();
      await shown(page.locator(".ticket-list, .state-empty").first());
      expect(await page.getByRole("region", { name: "Get started with Desk" }).count()).toBe(0);
    },
    STEP,
  );

  test(
    "an admin turns CSAT on in settings",
    async () => {
      const { page } = await newPage();
      await signIn(page, desk.url, owner);
      await page.goto(`${desk.url}/settings/workspace`);
      const box = page.getByLabel("Ask customers to rate their support (CSAT)");
      await shown(box);
      expect(await box.isChecked()).toBe(false);
      await box.check();
      await page.getByLabel("Brand color").fill("#0a7d33");
      await page.getByRole("button", { name: "Save" }).click();
      await shown(page.getByRole("button", { name: "Saved" }));
      const workspace = await call(desk.url, "GET", "/v1/workspace", headers);
      expect(workspace.body.settings).toMatchObject({ csat_enabled: true, brand_color: "#0a7d33", auto_close_days: 4 });
    },
    STEP,
  );

  test(
    "the customer rates from the email's link: score preselected, nothing recorded until they send; the agent sees it",
    async () => {
      const ticket = await solvedTicket("Printer on fire", "carla@customer.test");
      const link = await ratingLinkTo("carla@customer.test");
      const { page, cspErrors } = await newPage(390, 844);
      await page.goto(`${link}?score=4`);
      await shown(page.getByRole("heading", { name: "How did we do?" }));
      const good = page.getByRole("radio", { name: "4 Good" });
      expect(await good.isChecked()).toBe(true);
      // DESK_SCREENSHOTS=1 refreshes the README's picture of the rating page.
      if (process.env.DESK_SCREENSHOTS === "1")
        await page.screenshot({ path: join(import.meta.dir, "..", "..", "docs", "screenshots", "csat-rating.png") });
      // Opening the page (what a link scanner does) records nothing.
      expect((await call(desk.url, "GET", `/v1/tickets/${ticket.id}`, headers)).body.csat).toBeNull();
      // Keyboard: arrows move the choice within the radio group.
      await good.focus();
      await page.keyboard.press("ArrowLeft");
      expect(await page.getByRole("radio", { name: "5 Excellent" }).isChecked()).toBe(true);
      await page.getByLabel("Comment (optional)").fill("Fixed within the hour, thanks!");
      await page.getByRole("button", { name: "Send rating" }).click();
      await shown(page.getByRole("status").getByText("Thank you! We recorded your rating: 5 (Excellent)."));
      expect((await call(desk.url, "GET", `/v1/tickets/${ticket.id}`, headers)).body.csat).toEqual({
        score: 5,
        comment: "Fixed within the hour, thanks!",
      });
      // The brand colour themes the page through its stylesheet (no inline style, no CSP violation).
      const fill = await page
        .locator(".scores input:checked + label")
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(fill).toBe("rgb(10, 125, 51)");
      expect(cspErrors).toEqual([]);

      const agent = await newPage();
      await signIn(agent.page, desk.url, owner);
      await agent.page.goto(`${desk.url}/tickets/${ticket.number}`);
      const card = agent.page.getByRole("region", { name: "Satisfaction" });
      await shown(card);
      expect(await card.textContent()).toContain("5/5");
      expect(await card.textContent()).toContain("Fixed within the hour, thanks!");
      await shown(agent.page.getByText("The customer rated the support 5 out of 5"));

      // An unknown link is a plain 404 page.
      await page.goto(`${desk.url}/csat/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`);
      await shown(page.getByRole("heading", { name: "This rating link does not work" }));
    },
    STEP,
  );

  test(
    "reports: figures, the chart library loaded only on this page, and a CSV export",
    async () => {
      const { page, cspErrors } = await newPage();
      await signIn(page, desk.url, owner);
      await page.goto(`${desk.url}/inbox/all`);
      await page.waitForLoadState("networkidle");
      const loadedChart = () =>
        page.evaluate(() =>
          performance.getEntriesByType("resource").some((r) => /\/assets\/DayChart-[^/]+\.js$/.test(r.name)),
        );
      expect(await loadedChart()).toBe(false);
      await page.getByRole("link", { name: "Reports" }).click();
      await page.waitForURL(/\/reports$/);
      await shown(page.getByRole("heading", { name: "Reports" }));
      const kpi = (label: string) =>
        page.locator(".kpi", { has: page.locator("dt", { hasText: label }) }).locator("dd");
      await shown(kpi("CSAT"));
      expect(await kpi("CSAT").textContent()).toBe("5.00 / 5 (1)");
      expect(await kpi("Solved").textContent()).toBe("1");
      await shown(page.locator("[data-testid=day-chart] canvas"));
      expect(await loadedChart()).toBe(true);
      expect(await page.getByRole("img", { name: /Tickets created and solved per day/ }).count()).toBe(1);
      const channel = page.getByRole("region", { name: "By channel" });
      expect(await channel.getByRole("row", { name: /api/ }).textContent()).toContain("1");

      // This Chromium build never raises playwright's download event, so the page's own download
      // link is caught as it is clicked, with the blob it points at (the CSP keeps fetch off blob: URLs).
      await page.evaluate(() => {
        const seen = window as unknown as {
          blobs: Map<string, Blob>;
          lastDownload?: Promise<{ name: string; text: string }>;
        };
        seen.blobs = new Map();
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (blob: Blob) => {
          const url = create(blob);
          seen.blobs.set(url, blob);
          return url;
        };
        HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
          const name = this.download;
          seen.lastDownload = seen.blobs
            .get(this.href)!
            .text()
            .then((text) => ({ name, text }));
        };
      });
      await page.getByRole("button", { name: "Export CSV" }).click();
      const file = await page.evaluate(
        () => (window as unknown as { lastDownload: Promise<{ name: string; text: string }> }).lastDownload,
      );
      expect(file.name).toMatch(/^desk-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = file.text;
      expect(csv).toContain("csat_avg,5\r\n");
      expect(csv).toContain("csat_count,1\r\n");
      expect(csv).toContain("date,created,solved\r\n");

      // A range that ends before it starts is refused in the page.
      await page.getByLabel("From", { exact: true }).fill("2030-01-10");
      await page.getByLabel("To", { exact: true }).fill("2030-01-01");
      await shown(page.getByRole("alert").getByText("The start date must be on or before the end date."));
      await page.getByRole("button", { name: "Last 7 days" }).click();
      await shown(kpi("Created"));
      expect(cspErrors).toEqual([]);
    },
    STEP,
  );

  test(
    "the audit log lists settings changes and filters by action, entity, actor and date",
    async () => {
      // Two audited changes: the workspace settings (above) and the triage settings.
      expect((await call(desk.url, "PATCH", "/v1/triage", headers, { threshold: 0.8 })).status).toBe(200);
      const { page } = await newPage();
      await signIn(page, desk.url, owner);
      await page.getByRole("link", { name: "Audit log" }).click();
      await page.waitForURL(/\/audit-log$/);
      const rows = page.locator(".audit-log tbody tr");
      await shown(rows.first());
      expect(await page.getByRole("cell", { name: "triage.updated" }).count()).toBe(1);
      await page.getByLabel("Entity").selectOption("triage");
      await eventually(() => rows.count(), 1);
      expect(await rows.first().textContent()).toContain("Olivia Owner");
      expect(await rows.first().textContent()).toContain('"threshold":0.8');
      await page.getByLabel("Entity").selectOption("");
      await page.getByLabel("Action").fill("no.such.action");
      await shown(page.getByText("Nothing recorded matches these filters."));
      await page.getByLabel("Action").fill("");
      await page.getByLabel("Actor").selectOption({ label: "Olivia Owner" });
      await shown(rows.first());
      await page.getByLabel("From", { exact: true }).fill("2001-01-01");
      await page.getByLabel("To", { exact: true }).fill("2001-01-02");
      await shown(page.getByText("Nothing recorded matches these filters."));
    },
    STEP,
  );

  test(
    "global search opens with Ctrl+K and finds tickets, contacts and companies; Enter opens the chosen one",
    async () => {
      expect((await call(desk.url, "POST", "/v1/companies", headers, { name: "Printworks Ltd" })).status).toBe(201);
      const { page } = await newPage();
      await signIn(page, desk.url, owner);
      await page.keyboard.press("Control+k");
      const dialog = page.getByRole("dialog", { name: "Search" });
      await shown(dialog);
      const box = dialog.getByRole("combobox", { name: "Search tickets, contacts and companies" });
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      await box.fill("print");
      await shown(dialog.getByRole("option", { name: /#\d+ Printer on fire/ }));
      await shown(dialog.getByRole("option", { name: /Printworks Ltd/ }));
      await box.fill("carla");
      await shown(dialog.getByRole("option", { name: /Carla Customer/ }));
      await box.fill("printworks");
      await shown(dialog.getByRole("option", { name: /Printworks Ltd/ }));
      await box.press("Enter");
      await page.waitForURL(/\/companies\/[0-9a-f-]+$/);
      expect(await dialog.count()).toBe(0);
      // Esc closes it without going anywhere; the sidebar button opens it too.
      await page.getByRole("button", { name: "Search" }).click();
      await shown(dialog);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    },
    STEP,
  );
});
