/**
 * Time rules in a real browser against dist/desk: an admin builds a time rule in the automation
 * builder (the time trigger offers hours and SLA conditions, no AI ones), sees the API's refusal of
 * a negative number beside its control, saves it; then the scheduled pass (every minute) acts on a
 * ticket and the run log shows the time run with the condition's value.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
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
let desk: RunningDesk;
let browser: Browser;
let page: Page;
let headers: Record<string, string> = {};
const owner = { name: "Tia Time", email: "tia@time-rules.test", password: "correct horse battery" };

type Automation = {
  id: string;
  name: string;
  trigger: string;
  conditions: Array<{ field: string; op: string; value: unknown }>;
  run_count: number;
};
const automations = async () =>
  (await call<{ data: Automation[] }>(desk.url, "GET", "/v1/automations", headers)).body.data;

describe.skipIf(!ready.ok)("time rules (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    headers = (await ownerWithWorkspace(desk.url, owner, "Time")).headers;
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "build a time rule: hours and SLA conditions, a located error for a negative number, saved as numbers",
    async () => {
      await page.goto(`${desk.url}/settings/automations`);
      await shown(page.getByRole("heading", { name: "Automations", level: 1 }));
      await page.getByRole("button", { name: "New automation" }).click();
      const form = page.getByRole("form", { name: "New automation" });
      await form.getByLabel("Name").fill("Pending reminder");
      await form.getByLabel("When").selectOption("time");
      await shown(form.getByText("Checked every minute."));
      await form.getByRole("button", { name: "Add condition" }).click();
      const first = form.getByRole("group", { name: "Condition 1" });
      const offered = await first
        .getByLabel("Field")
        .locator("option")
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      expect(offered).toContain("hours_since_agent_message");
      expect(offered).toContain("sla");
      expect(offered).not.toContain("ai_decide");
      await first.getByLabel("Field").selectOption("hours_since_status_changed");
      expect(await first.getByLabel("Operator").locator("option").allTextContents()).toEqual([
        "greater than",
        "less than",
      ]);
      await first.getByRole("spinbutton", { name: "Hours" }).fill("-3");
      await form.getByRole("button", { name: "Add condition" }).click();
      const second = form.getByRole("group", { name: "Condition 2" });
      await second.getByLabel("Field").selectOption("status");
      await second.getByLabel("Value").selectOption("pending");
      await form.getByRole("button", { name: "Add condition" }).click();
      const third = form.getByRole("group", { name: "Condition 3" });
      await third.getByLabel("Field").selectOption("sla");
      await third.getByRole("spinbutton", { name: "Minutes" }).fill("30");
      await third.getByLabel("Operator").selectOption("breached");
      expect(await third.getByRole("spinbutton", { name: "Minutes" }).count()).toBe(0);
      await form.getByRole("group", { name: "Action 1" }).getByLabel("Value").fill("reminded");
      await form.getByRole("button", { name: "Create automation" }).click();
      await shown(first.getByRole("alert"));
      expect(await first.getByRole("alert").textContent()).toContain("number of hours");
      expect(await automations()).toEqual([]);
      await first.getByRole("spinbutton", { name: "Hours" }).fill("72");
      await form.getByRole("button", { name: "Create automation" }).click();
      await shown(page.getByRole("cell", { name: "Pending reminder", exact: true }));
      const [saved] = await automations();
      expect(saved).toMatchObject({
        trigger: "time",
        conditions: [
          { field: "hours_since_status_changed", op: "gt", value: 72 },
          { field: "status", op: "equals", value: "pending" },
          { field: "sla", op: "breached", value: "" },
        ],
      });
    },
    STEP,
  );

  test("the scheduled pass acts on a ticket and the run log shows the time run and why", async () => {
    const rule = await call<Automation>(desk.url, "POST", "/v1/automations", headers, {
      name: "Brand new",
      trigger: "time",
      conditions: [{ field: "hours_since_created", op: "lt", value: 1 }],
      actions: [{ type: "add_tag", value: "fresh" }],
    });
    expect(rule.status).toBe(201);
    const ticket = await call<{ id: string; number: number }>(desk.url, "POST", "/v1/tickets", headers, {
      subject: "Just in",
    });
    expect(ticket.status).toBe(201);
    // The pass runs every minute: the rule acts within one.
    const tags = async () =>
      (
        await call<{ tags: Array<{ name: string }> }>(desk.url, "GET", `/v1/tickets/${ticket.body.id}`, headers)
      ).body.tags
        .map((t) => t.name)
        .join(",");
    expect(await eventually(tags, "fresh", 70_000)).toBe("fresh");
    await page.goto(`${desk.url}/settings/automations`);
    await page.getByRole("button", { name: "Runs of Brand new" }).click();
    const dialog = page.getByRole("dialog", { name: "Runs of Brand new" });
    await shown(dialog.getByText("Time rule"));
    expect(await dialog.getByText(/Hours since created: [\d.]+ h \(less than 1\)/).count()).toBe(1);
    expect(await dialog.getByRole("link", { name: `#${ticket.body.number}` }).count()).toBe(1);
    expect(await dialog.getByText("Add label: applied").count()).toBe(1);
  }, 90_000);
});
