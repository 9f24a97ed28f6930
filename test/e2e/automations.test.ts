/**
 * The automation builder in a real browser against dist/desk: an admin builds a rule with a text
 * condition, a custom-field condition (its options as the picker) and two actions, sees the API's
 * refusal beside the control it names, saves it; a new ticket is changed by it (the timeline names
 * the automation) and its run count shows; rules reorder, enable and edit from the list.
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

const STEP = 60_000;
let desk: RunningDesk;
let browser: Browser;
let page: Page;
let headers: Record<string, string> = {};
const owner = { name: "Ada Admin", email: "ada@rules.test", password: "correct horse battery" };

type Automation = { id: string; name: string; enabled: boolean; run_count: number; position: number };
const automations = async () =>
  (await call<{ data: Automation[] }>(desk.url, "GET", "/v1/automations", headers)).body.data;

describe.skipIf(!ready.ok)("automation builder (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    headers = (await ownerWithWorkspace(desk.url, owner, "Rules")).headers;
    expect((await call(desk.url, "POST", "/v1/tags", headers, { name: "Billing" })).status).toBe(201);
    const field = await call(desk.url, "POST", "/v1/custom-fields", headers, {
      entity: "ticket",
      name: "Plan",
      key: "plan",
      type: "select",
      options: [{ label: "Gold" }, { label: "Silver" }],
    });
    expect(field.status).toBe(201);
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
    "build a rule with value pickers, see a located error, save it; a new ticket is changed by it",
    async () => {
      await page.goto(`${desk.url}/settings/automations`);
      await shown(page.getByRole("heading", { name: "Automations", level: 1 }));
      await page.getByRole("button", { name: "New automation" }).click();
      const form = page.getByRole("form", { name: "New automation" });
      await form.getByLabel("Name").fill("Gold invoices");
      await form.getByLabel("When").selectOption("ticket_created");
      await form.getByRole("button", { name: "Add condition" }).click();
      const first = form.getByRole("group", { name: "Condition 1" });
      await first.getByLabel("Operator").selectOption("contains");
      await first.getByLabel("Value").fill("invoice");
      await form.getByRole("button", { name: "Add condition" }).click();
      const second = form.getByRole("group", { name: "Condition 2" });
      await second.getByLabel("Field").selectOption("field.plan");
      // A select field's value picker offers its options.
      expect(await second.getByLabel("Value").locator("option").allTextContents()).toEqual([
        "Choose…",
        "Gold",
        "Silver",
      ]);
      await second.getByLabel("Value").selectOption("gold");
      // Action 1 (add a label) is left empty: the API's 422 shows beside that control.
      await form.getByRole("button", { name: "Add action" }).click();
      const raise = form.getByRole("group", { name: "Action 2" });
      await raise.getByLabel("Action").selectOption("set_priority");
      await raise.getByLabel("Value").selectOption("urgent");
      await form.getByRole("button", { name: "Create automation" }).click();
      const labelAction = form.getByRole("group", { name: "Action 1" });
      await shown(labelAction.getByRole("alert"));
      expect(await labelAction.getByRole("alert").textContent()).toContain("label name");
      expect(await automations()).toEqual([]);
      await labelAction.getByLabel("Value").fill("Billing");
      await form.getByRole("button", { name: "Create automation" }).click();
      await shown(page.getByRole("cell", { name: "Gold invoices", exact: true }));
      const [saved] = await automations();
      expect(saved).toMatchObject({ name: "Gold invoices", enabled: true, run_count: 0 });

      const ticket = await call<{ id: string; number: number }>(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Invoice 42 is wrong",
        fields: { plan: "gold" },
      });
      expect(ticket.status).toBe(201);
      const read = async () =>
        (
          await call<{ priority: string; tags: Array<{ name: string }> }>(
            desk.url,
            "GET",
            `/v1/tickets/${ticket.body.id}`,
            headers,
          )
        ).body;
      expect(await eventually(async () => (await read()).priority, "urgent")).toBe("urgent");
      expect((await read()).tags.map((t) => t.name)).toEqual(["Billing"]);
      await page.reload();
      expect(await eventually(() => page.getByLabel("Gold invoices runs").textContent(), "1")).toBe("1");

      // The ticket's timeline names the automation behind the change.
      await page.goto(`${desk.url}/tickets/${ticket.body.number}`);
      await shown(page.getByText("Automation “Gold invoices”").first());
    },
    STEP,
  );

  test(
    "reorder, enable and edit from the list",
    async () => {
      const other = await call<Automation>(desk.url, "POST", "/v1/automations", headers, {
        name: "Spam filter",
        trigger: "ticket_created",
        conditions: [{ field: "subject", op: "contains", value: "lottery" }],
        actions: [{ type: "mark_spam", value: "" }],
      });
      expect(other.status).toBe(201);
      await page.goto(`${desk.url}/settings/automations`);
      await shown(page.getByRole("cell", { name: "Spam filter", exact: true }));
      const names = () => page.locator(".settings-body tbody tr td:nth-child(2)").allTextContents();
      expect(await names()).toEqual(["Gold invoices", "Spam filter"]);
      await page.getByRole("button", { name: "Move Spam filter up" }).click();
      expect(await eventually(async () => (await names()).join(","), "Spam filter,Gold invoices")).toBe(
        "Spam filter,Gold invoices",
      );
      expect((await automations()).map((a) => a.name)).toEqual(["Spam filter", "Gold invoices"]);

      // The switch follows the stored state: it turns off once the change is saved.
      await page.getByRole("checkbox", { name: "Enable Spam filter" }).click();
      expect(
        await eventually(async () => (await automations()).find((a) => a.name === "Spam filter")?.enabled, false),
      ).toBe(false);

      await page.getByRole("button", { name: "Edit Gold invoices" }).click();
      const form = page.getByRole("form", { name: "Edit automation" });
      expect(await form.getByRole("group", { name: "Condition 2" }).getByLabel("Value").inputValue()).toBe("gold");
      await form.getByLabel("Name").fill("Gold plan invoices");
      await form.getByRole("button", { name: "Remove condition 1" }).click();
      await form.getByRole("button", { name: "Save automation" }).click();
      await shown(page.getByRole("cell", { name: "Gold plan invoices", exact: true }));
      const edited = (await automations()).find((a) => a.name === "Gold plan invoices") as Automation & {
        conditions: unknown[];
      };
      expect(edited.conditions).toEqual([{ field: "field.plan", op: "equals", value: "gold" }]);
    },
    STEP,
  );
  test(
    "a rule replying to the customer on an AI decision shows the risk and needs the admin's confirmation",
    async () => {
      await page.goto(`${desk.url}/settings/automations`);
      await page.getByRole("button", { name: "New automation" }).click();
      const form = page.getByRole("form", { name: "New automation" });
      await form.getByLabel("Name").fill("Refund replies");
      await form.getByRole("button", { name: "Add condition" }).click();
      const condition = form.getByRole("group", { name: "Condition 1" });
      await condition.getByLabel("Field").selectOption("ai_decide");
      await condition.getByLabel("Operator").selectOption("gt");
      await condition.getByLabel("Probability").fill("0.8");
      await condition.getByRole("textbox", { name: /^Question/ }).fill("Was the refund approved?");
      const action = form.getByRole("group", { name: "Action 1" });
      await action.getByLabel("Action").selectOption("send_reply");
      await action.getByLabel("Message").fill("Your refund has been approved.");
      const warning = form.getByRole("note");
      await shown(warning.getByText("replies to the customer on an AI decision"));
      await form.getByRole("button", { name: "Create automation" }).click();
      await shown(warning.getByRole("alert"));
      expect(await warning.getByRole("alert").textContent()).toContain("customer");
      expect((await automations()).find((a) => a.name === "Refund replies")).toBeUndefined();
      await warning.getByRole("checkbox", { name: /Reply on an AI decision/ }).check();
      await form.getByRole("button", { name: "Create automation" }).click();
      await shown(page.getByRole("cell", { name: "Refund replies", exact: true }));
      const saved = (await automations()).find((a) => a.name === "Refund replies") as Automation & {
        allow_customer_reply_on_ai_decision: boolean;
      };
      expect(saved.allow_customer_reply_on_ai_decision).toBe(true);
    },
    STEP,
  );
});
