/**
 * SLA in a real browser against dist/desk: an admin sets business hours (week grid, holiday, time
 * zone; a bad range is refused at its place) and SLA policies (created, reordered, disabled), a
 * ticket shows its SLA clock (due, then overdue once the browser's clock passes the deadline), and
 * the inbox sorts by the nearest deadline.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
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
let page: Page;
let headers: Record<string, string> = {};
const owner = { name: "Olivia Owner", email: "olivia@sla.test", password: "correct horse battery" };

const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  const res = await call<T>(desk.url, method, path, headers, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

describe.skipIf(!ready.ok)("SLA policies, business hours and the SLA clock (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    headers = (await ownerWithWorkspace(desk.url, owner, "SLA")).headers;
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "business hours: week grid, holiday and time zone are saved; a bad range answers at its place",
    async () => {
      await page.goto(`${desk.url}/settings/business-hours`);
      await shown(page.getByRole("heading", { name: "Business hours" }));
      await page.getByLabel("Use business hours for SLA policies that count them").check();
      await page.getByLabel("Time zone").selectOption("Europe/Paris");
      // Saturday morning, and a second range on Monday that overlaps the first.
      await page.getByRole("button", { name: "Add hours on Saturday" }).click();
      await page.getByLabel("Saturday range 1 opens").selectOption("10:00");
      await page.getByLabel("Saturday range 1 closes").selectOption("12:30");
      await page.getByRole("button", { name: "Add hours on Monday" }).click();
      await page.getByLabel("Monday range 2 opens").selectOption("16:00");
      await page.getByLabel("Monday range 2 closes").selectOption("24:00");
      await page.getByRole("button", { name: "Add holiday" }).click();
      const holiday = page.locator(".bh-holiday").first();
      await holiday.getByLabel("Date").fill("2026-12-25");
      await holiday.getByLabel("Name").fill("Christmas");
      await page.getByRole("button", { name: "Save business hours" }).click();
      await shown(page.locator(".bh-range .field-error", { hasText: "ranges of a day may not overlap" }));
      expect((await api("GET", "/v1/business-hours")).enabled).toBe(false);

      await page.getByLabel("Monday range 2 opens").selectOption("17:00");
      await page.getByRole("button", { name: "Save business hours" }).click();
      await shown(page.getByRole("status").filter({ hasText: "Saved." }));
      const stored = await api("GET", "/v1/business-hours");
      expect(stored).toMatchObject({
        enabled: true,
        timezone: "Europe/Paris",
        holidays: [{ date: "2026-12-25", name: "Christmas" }],
      });
      expect(stored.schedule.mon).toEqual([
        { start: "09:00", end: "17:00" },
        { start: "17:00", end: "24:00" },
      ]);
      expect(stored.schedule.sat).toEqual([{ start: "10:00", end: "12:30" }]);
      // A reload shows what is stored.
      await page.reload();
      await shown(page.getByLabel("Saturday range 1 closes"));
      expect(await page.getByLabel("Saturday range 1 closes").inputValue()).toBe("12:30");
      expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Paris");
    },
    STEP,
  );

  test(
    "SLA policies: created, refused at the field, reordered and disabled",
    async () => {
      await page.goto(`${desk.url}/settings/sla`);
      await shown(page.getByRole("heading", { name: "SLA policies" }));
      const form = page.getByRole("form", { name: "New SLA policy" });
      await form.getByLabel("Name").fill("Everything");
      await form.getByLabel("First response within (minutes)").fill("0");
      await form.getByLabel("Resolution within (minutes)").fill("1440");
      await shown(form.getByText("1 d", { exact: true }));
      await form.getByRole("button", { name: "Add policy" }).click();
      await shown(form.locator(".field-invalid", { hasText: "First response" }));

      await form.getByLabel("First response within (minutes)").fill("240");
      await form.getByRole("button", { name: "Add policy" }).click();
      const table = page.getByRole("table", { name: "SLA policies" });
      await shown(table.getByRole("cell", { name: "Everything", exact: true }));
      await form.getByLabel("Name").fill("Urgent");
      await form.getByLabel("Priority").selectOption("urgent");
      await form.getByLabel("First response within (minutes)").fill("30");
      await form.getByLabel("Resolution within (minutes)").fill("240");
      await form.getByRole("button", { name: "Add policy" }).click();
      await shown(table.locator("tbody tr").nth(1));

      // Urgent goes first, so it wins over the catch-all.
      await page.getByRole("button", { name: "Move Urgent up" }).click();
      const names = () => table.locator("tbody tr td:nth-child(2)").allTextContents();
      expect(await eventually(async () => (await names()).join(), "Urgent,Everything")).toBe("Urgent,Everything");
      const stored = (await api("GET", "/v1/sla-policies")).data;
      expect(stored.map((p: { name: string; position: number }) => [p.name, p.position])).toEqual([
        ["Urgent", 0],
        ["Everything", 1],
      ]);
      await page.getByLabel("Enable Everything").click();
      expect(await eventually(async () => (await api("GET", "/v1/sla-policies")).data[1].enabled, false)).toBe(false);
      expect(await eventually(() => page.getByLabel("Enable Everything").isChecked(), false)).toBe(false);
      await page.getByLabel("Enable Everything").click();
      expect(await eventually(async () => (await api("GET", "/v1/sla-policies")).data[1].enabled, true)).toBe(true);
    },
    STEP,
  );

  test(
    "a ticket shows its SLA clock, overdue once its deadline passes; the inbox sorts by due",
    async () => {
      const calm = await api("POST", "/v1/tickets", { subject: "Question about invoices", priority: "low" });
      const urgent = await api("POST", "/v1/tickets", { subject: "Site is down", priority: "urgent" });
      // The SLA clock is set just after creation (a reaction to the stored event).
      const due = await eventually(
        async () => ((await api("GET", `/v1/tickets/${urgent.id}`)).sla?.first_response_due_at ? "set" : "unset"),
        "set",
      );
      expect(due).toBe("set");
      const sla = (await api("GET", `/v1/tickets/${urgent.id}`)).sla;
      expect(new Date(sla.first_response_due_at).getTime() - new Date(urgent.created_at).getTime()).toBe(30 * 60_000);

      await page.goto(`${desk.url}/tickets/${urgent.number}`);
      const clock = page.getByRole("region", { name: "SLA" });
      await shown(clock);
      expect(await clock.locator(".sla-target", { hasText: "First response" }).textContent()).toMatch(
        /Due in (29|30) min/,
      );
      expect(await clock.getByText("Breached").count()).toBe(0);

      // The browser's clock an hour on: the first response is overdue.
      await page.clock.install({ time: new Date(Date.now() + 60 * 60_000) });
      await page.reload();
      await shown(page.getByRole("region", { name: "SLA" }));
      await shown(
        page.getByRole("region", { name: "SLA" }).locator(".sla-overdue", { hasText: /Overdue by (29|30|31) min/ }),
      );

      // The inbox sorted by due: the ticket with the nearest deadline first, marked overdue.
      await page.goto(`${desk.url}/inbox/all`);
      await page.getByLabel("Sort").selectOption("due:asc");
      await shown(page.locator(".ticket-row").first());
      const subjects = () => page.locator(".ticket-row .ticket-subject").allTextContents();
      expect(await eventually(async () => (await subjects())[0], "Site is down")).toBe("Site is down");
      expect((await subjects()).includes(calm.subject)).toBe(true);
      await shown(page.locator(".ticket-row", { hasText: "Site is down" }).getByText("Overdue"));
    },
    STEP,
  );
});
