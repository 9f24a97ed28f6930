/**
 * The agent web app in a real browser against the real executable: first-run setup, creating and
 * answering a ticket, a ticket created through the API appearing live, labelling it, setting a
 * custom field, solving it, inviting and managing a member, several accounts, the two-factor
 * step, multi-value and custom-field inbox filters saved as a view, contacts, and label reordering.
 * DESK_SCREENSHOTS=1 also writes docs/screenshots/*.png (light and dark).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as OTPAuth from "otpauth";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  call,
  browserTestsReady,
  eventually,
  launchChromium,
  memberByInvitation,
  ROOT,
  type RunningDesk,
  shown,
  startDeskBinary,
} from "./browser";

// Only a machine without Chromium skips (loudly); a broken build is a failure, never a skip.
const ready = browserTestsReady();

let desk: RunningDesk;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let key = "";
const owner = { name: "Olivia Owner", email: "olivia@example.test", password: "correct horse battery" };
const auth = () => ({ authorization: `Bearer ${key}` });

const STEP = 30_000;
const shots = process.env.DESK_SCREENSHOTS === "1";
async function screenshot(name: string) {
  if (!shots) return;
  const dir = join(ROOT, "docs", "screenshots");
  mkdirSync(dir, { recursive: true });
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    await page.waitForTimeout(50);
    await page.screenshot({ path: join(dir, `${name}-${theme}.png`) });
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "light";
  });
}

describe.skipIf(!ready.ok)("agent web app (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
    page = await context.newPage();
    page.setDefaultTimeout(8000);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "a fresh instance opens on setup; the owner and first workspace are created",
    async () => {
      expect((await call(desk.url, "GET", "/v1/auth/status", {})).body).toEqual({
        signup_open: true,
        has_users: false,
      });
      await page.goto(desk.url);
      await page.waitForURL(/\/setup$/);
      await page.getByLabel("Your name").fill(owner.name);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill("short");
      await page.getByLabel("Workspace name").fill("Acme Support");
      await page.getByRole("button", { name: "Create account and workspace" }).click();
      // The API's field error shows beside the password field and nothing typed is lost.
      await shown(page.locator(".field-invalid .field-error").first());
      expect(await page.getByLabel("Email").inputValue()).toBe(owner.email);
      await page.getByLabel("Password").fill(owner.password);
      await page.getByRole("button", { name: "Create account and workspace" }).click();
      await page.waitForURL(/\/inbox\/unassigned/);
      await shown(page.getByRole("heading", { name: "Unassigned" }));
      // Reload: the refresh cookie restores the session silently.
      await page.reload();
      await shown(page.getByRole("heading", { name: "Unassigned" }));
      expect((await call(desk.url, "GET", "/v1/auth/status", {})).body).toEqual({
        signup_open: false,
        has_users: true,
      });
    },
    STEP,
  );

  test(
    "an admin creates an API key; the secret is shown once",
    async () => {
      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("link", { name: "API keys" }).click();
      await page.getByLabel("Name").fill("e2e");
      // Every scope: later steps invite an agent with this key, which needs the agent role's whole reach.
      for (const scope of [
        "tickets:read",
        "tickets:write",
        "contacts:read",
        "contacts:write",
        "kb:read",
        "kb:write",
        "settings:read",
        "settings:write",
        "realtime",
      ]) {
        await page.getByLabel(scope, { exact: true }).check();
      }
      await page.getByRole("button", { name: "Create key" }).click();
      key = (await page.getByTestId("api-key-secret").textContent()) ?? "";
      expect(key).toStartWith("desk_live_");
      await shown(page.getByRole("cell", { name: "e2e", exact: true }));
      const me = await call(desk.url, "GET", "/v1/workspace", auth());
      expect(me.status).toBe(200);
      expect(me.body.name).toBe("Acme Support");
    },
    STEP,
  );

  test(
    "an agent creates a ticket and answers it",
    async () => {
      await page.getByRole("link", { name: "All tickets" }).click();
      await page.getByRole("button", { name: "New ticket" }).click();
      await page.getByLabel("Customer email").fill("carla@customer.test");
      await page.getByLabel("Customer name").fill("Carla Customer");
      await page.getByLabel("Subject").fill("Cannot export invoices");
      await page.getByLabel("First message").fill("Customer called: the export button spins forever.");
      await page.getByRole("button", { name: "Create ticket" }).click();
      await page.waitForURL(/\/tickets\/\d+/);
      await shown(page.getByRole("heading", { name: /Cannot export invoices/ }));
      await page.keyboard.press("r");
      await page.getByLabel("Reply", { exact: true }).fill("Hi Carla, we are on it. A fix ships today.");
      await page.getByRole("button", { name: "Send reply" }).click();
      await shown(page.locator(".msg-body", { hasText: "A fix ships today." }));
      expect(await eventually(() => page.getByLabel("Reply", { exact: true }).inputValue(), "")).toBe("");
      const number = page.url().split("/").pop();
      const messages = await call(desk.url, "GET", `/v1/tickets/${number}/messages`, auth());
      const list = Array.isArray(messages.body) ? messages.body : messages.body.data;
      expect(
        list.some(
          (m: { kind: string; body_text: string }) => m.kind === "reply" && m.body_text.includes("A fix ships today."),
        ),
      ).toBe(true);
    },
    STEP,
  );

  test(
    "a ticket created through the API appears live; label, field and solve it",
    async () => {
      await page.getByRole("link", { name: "All tickets" }).click();
      await shown(page.locator(".ticket-row").first());
      await shown(page.locator("[data-testid=live][data-state=live]"), 10_000);
      const field = await call(desk.url, "POST", "/v1/custom-fields", auth(), {
        entity: "ticket",
        name: "Plan",
        type: "select",
        options: [{ label: "Free" }, { label: "Pro" }],
      });
      expect(field.status).toBe(201);
      const created = await call(desk.url, "POST", "/v1/tickets", auth(), {
        subject: "Refund for order 1042",
        contact: { email: "dan@customer.test", name: "Dan Doe" },
        body_html: "<p>Please refund order 1042.</p>",
        kind: "reply",
      });
      expect(created.status).toBe(201);
      // No reload: the row arrives through the realtime gateway.
      const row = page.locator(".ticket-row", { hasText: "Refund for order 1042" });
      await shown(row, 8000);

      await row.locator(".ticket-main").click();
      await shown(page.getByRole("heading", { name: /Refund for order 1042/ }));

      await page.getByRole("button", { name: "+ Label" }).click();
      await page.getByLabel("Label name").fill("refunds");
      await page.keyboard.press("Enter");
      await shown(page.locator(".ticket-side .chip", { hasText: "refunds" }));
      await page.getByLabel("Plan").selectOption({ label: "Pro" });
      expect(
        await eventually(
          async () => (await call(desk.url, "GET", `/v1/tickets/${created.body.id}`, auth())).body.fields?.plan,
          "pro",
        ),
      ).toBe("pro");
      await page.getByRole("button", { name: /Solve/ }).click();
      await shown(page.locator(".ticket-head .pill-solved"));
      const after = await call(desk.url, "GET", `/v1/tickets/${created.body.id}`, auth());
      expect(after.body.status).toBe("solved");
      expect(after.body.tags.map((t: { name: string }) => t.name)).toContain("refunds");
    },
    STEP,
  );

  test(
    "an admin invites a member, who joins; the admin changes their role",
    async () => {
      await page.goto(`${desk.url}/settings/members`);
      await page.getByLabel("Email").fill("ada@acme.test");
      await page.getByRole("button", { name: "Send invitation" }).click();
      const link = (await page.locator(".secret code").textContent()) ?? "";
      expect(link).toContain("/invite/");
      await shown(page.getByRole("cell", { name: "ada@acme.test", exact: true }));

      const guest = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const invitee = await guest.newPage();
      await invitee.goto(`${desk.url}${new URL(link).pathname}`);
      await shown(invitee.getByRole("heading", { name: /Join/ }));
      await invitee.getByLabel("Your name").fill("Ada Agent");
      await invitee.getByLabel("Choose a password").fill("another good password");
      await invitee.getByRole("button", { name: "Accept invitation" }).click();
      await invitee.waitForURL(/\/inbox\//);
      await guest.close();

      await page.reload();
      const member = page.locator("tr[data-member='ada@acme.test']");
      await shown(member);
      await member.getByLabel("Role of ada@acme.test").selectOption("viewer");
      const roleOf = async () => {
        const list = (await call(desk.url, "GET", "/v1/members", auth())).body;
        return (Array.isArray(list) ? list : list.data).find(
          (m: { user: { email: string } }) => m.user.email === "ada@acme.test",
        )?.role;
      };
      expect(await eventually(roleOf, "viewer")).toBe("viewer");
    },
    STEP,
  );

  test(
    "two accounts in one browser: add, switch, sign out",
    async () => {
      await page.goto(`${desk.url}/inbox/unassigned`);
      await page.locator(".account-btn").click();
      await page.getByRole("menuitem", { name: "Add another account" }).click();
      await shown(page.getByRole("heading", { name: "Add another account" }));
      await page.getByLabel("Email").fill("ada@acme.test");
      await page.getByLabel("Password").fill("another good password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(/\/inbox\//);
      expect(await page.locator(".account-name").textContent()).toBe("Ada Agent");
      await page.locator(".account-btn").click();
      await page.getByRole("menuitem", { name: `Switch to ${owner.email}` }).click();
      expect(await eventually(() => page.locator(".account-name").textContent(), owner.name)).toBe(owner.name);
      await page.locator(".account-btn").click();
      await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
      // Ada's account is still signed in on this browser, so Desk continues as her.
      expect(await eventually(() => page.locator(".account-name").textContent(), "Ada Agent")).toBe("Ada Agent");
      await page.locator(".account-btn").click();
      await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
      await page.waitForURL(/\/signin/);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill(owner.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(/\/inbox\//);
    },
    STEP,
  );

  test(
    "two-factor sign-in: password, then a code from the authenticator",
    async () => {
      // A member joins through an invitation and turns two-factor on through the API.
      const joined = await memberByInvitation(desk.url, auth(), {
        name: "Mo Factor",
        email: "mo@acme.test",
        password: "mo's long password",
      });
      const asMo = { authorization: `Bearer ${joined.token}` };
      const setup = await call(desk.url, "POST", "/v1/me/mfa/setup", asMo, {});
      expect(setup.status).toBe(200);
      const totp = new OTPAuth.TOTP({
        secret: OTPAuth.Secret.fromBase32(setup.body.secret),
        digits: 6,
        period: 30,
        algorithm: "SHA1",
      });
      const enabled = await call(desk.url, "POST", "/v1/me/mfa/enable", asMo, { code: totp.generate() });
      expect(enabled.status).toBe(200);

      const other = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const tab = await other.newPage();
      tab.setDefaultTimeout(8000);
      await tab.goto(desk.url);
      await tab.waitForURL(/\/signin/);
      await tab.getByLabel("Email").fill("mo@acme.test");
      await tab.getByLabel("Password").fill("mo's long password");
      await tab.getByRole("button", { name: "Sign in", exact: true }).click();
      await shown(tab.getByRole("heading", { name: "Two-factor code" }));
      // A wrong code is refused where the person can see it, and they stay on the code step.
      await tab.getByLabel("Code from your authenticator app").fill("000000");
      await tab.getByRole("button", { name: "Verify" }).click();
      await shown(tab.locator(".form-error"));
      expect(await tab.locator(".form-error").textContent()).toMatch(/code/i);
      // The enrolment code's time step is spent; the next step's code is within the allowed drift.
      await tab.getByLabel("Code from your authenticator app").fill(totp.generate({ timestamp: Date.now() + 30_000 }));
      await tab.getByRole("button", { name: "Verify" }).click();
      await tab.waitForURL(/\/inbox\//);
      expect(await tab.locator(".account-name").textContent()).toBe("Mo Factor");
      await other.close();
    },
    STEP,
  );

  test(
    "after three wrong passwords, signing in solves the challenge in the browser and goes through",
    async () => {
      const other = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const tab = await other.newPage();
      tab.setDefaultTimeout(8000);
      await tab.goto(`${desk.url}/signin`);
      await tab.getByLabel("Email").fill("ada@acme.test");
      for (let i = 0; i < 3; i++) {
        await tab.getByLabel("Password").fill(`wrong guess ${i}`);
        await tab.getByRole("button", { name: "Sign in", exact: true }).click();
        await shown(tab.locator(".form-error"));
        await tab.locator(".form-error").filter({ hasText: /wrong/i }).waitFor();
      }
      // The API now asks for a solved challenge; the page solves one and signs in.
      expect(
        (
          await call(
            desk.url,
            "POST",
            "/v1/auth/login",
            {},
            { email: "ada@acme.test", password: "another good password" },
          )
        ).body.code,
      ).toBe("challenge_required");
      await tab.getByLabel("Password").fill("another good password");
      await tab.getByRole("button", { name: "Sign in", exact: true }).click();
      await tab.waitForURL(/\/inbox\//);
      expect(await tab.locator(".account-name").textContent()).toBe("Ada Agent");
      await other.close();
    },
    STEP,
  );

  test(
    "inbox filters take several values and custom-field conditions; they save as a view",
    async () => {
      const fields = [
        { entity: "ticket", name: "Seats", type: "number" },
        {
          entity: "ticket",
          name: "Modules",
          type: "multi_select",
          options: [{ label: "Mail" }, { label: "Chat" }, { label: "KB" }],
        },
      ];
      for (const field of fields)
        expect((await call(desk.url, "POST", "/v1/custom-fields", auth(), field)).status).toBe(201);
      const seeds = [
        {
          subject: "Password reset link expired",
          contact: { email: "erin@customer.test", name: "Erin Park" },
          priority: "high",
          tags: ["login"],
          fields: { seats: 12, modules: ["mail"] },
        },
        {
          subject: "Invoice shows the wrong VAT number",
          contact: { email: "finn@bigco.test", name: "Finn Weber" },
          priority: "normal",
          tags: ["billing"],
          fields: { seats: 3 },
        },
        {
          subject: "API returns 502 on /orders",
          contact: { email: "gia@devshop.test", name: "Gia Rossi" },
          priority: "urgent",
          severity: "sev2",
          tags: ["bug", "api"],
          fields: { seats: 40, modules: ["chat", "kb"] },
        },
        {
          subject: "How do I add a second mailbox?",
          contact: { email: "hal@smallbiz.test", name: "Hal Kim" },
          priority: "low",
        },
        {
          subject: "Feature request: dark mode in the widget",
          contact: { email: "ivy@studio.test", name: "Ivy Chen" },
          priority: "normal",
          tags: ["feature"],
        },
      ];
      for (const seed of seeds) {
        const created = await call(desk.url, "POST", "/v1/tickets", auth(), {
          ...seed,
          body_html: `<p>${seed.subject}. Can you help?</p>`,
          kind: "reply",
        });
        expect(created.status).toBe(201);
      }
      await page.goto(`${desk.url}/inbox/all`);
      await shown(page.locator(".ticket-row", { hasText: "Feature request" }));
      const subjects = async () => (await page.locator(".ticket-row .ticket-subject").allTextContents()).sort();

      // Priority: urgent and high together (one request with priority=urgent,high).
      await page.getByRole("button", { name: "Priority filter" }).click();
      await page.getByRole("group", { name: "Priority" }).getByLabel("Urgent").check();
      await page.getByRole("group", { name: "Priority" }).getByLabel("High").check();
      await page.keyboard.press("Escape");
      expect(
        await eventually(
          async () => (await subjects()).join("|"),
          "API returns 502 on /orders|Password reset link expired",
        ),
      ).toBe("API returns 502 on /orders|Password reset link expired");

      // Seats between 10 and 20: only the 12-seat ticket is left.
      await page.getByRole("button", { name: "+ Field filter" }).click();
      await page.getByLabel("Field", { exact: true }).selectOption({ label: "Seats" });
      await page.getByLabel("Operator").selectOption({ label: "is between" });
      await page.getByLabel("From", { exact: true }).fill("10");
      await page.getByLabel("To", { exact: true }).fill("20");
      await page.getByRole("button", { name: "Add filter" }).click();
      expect(await eventually(async () => (await subjects()).join("|"), "Password reset link expired")).toBe(
        "Password reset link expired",
      );
      expect(await page.getByTestId("field-condition").allTextContents()).toEqual(["Seats ≥ 10×", "Seats ≤ 20×"]);

      // Replace the range with a multi_select "has none of Mail": the urgent API ticket.
      await page.getByRole("button", { name: "Remove filter seats gte" }).click();
      await page.getByRole("button", { name: "Remove filter seats lte" }).click();
      await page.getByRole("button", { name: "+ Field filter" }).click();
      await page.getByLabel("Field", { exact: true }).selectOption({ label: "Modules" });
      await page.getByLabel("Operator").selectOption({ label: "is none of" });
      await page.getByRole("group", { name: "Values" }).getByLabel("Mail").check();
      await page.getByRole("button", { name: "Add filter" }).click();
      expect(await eventually(async () => (await subjects()).join("|"), "API returns 502 on /orders")).toBe(
        "API returns 502 on /orders",
      );
      await screenshot("filters");

      await page.getByRole("button", { name: "Save as view" }).click();
      await page.getByLabel("View name").fill("Hot, no mail module");
      // Shared, so the workspace (and the API key reading it below) sees it; private views are their maker's.
      await page.getByLabel("Shared with the workspace").check();
      await page.getByRole("button", { name: "Save view" }).click();
      await page.waitForURL(/\/views\//);
      await shown(page.getByRole("heading", { name: "Hot, no mail module" }));
      await shown(page.getByRole("link", { name: /Hot, no mail module/ }));
      const views = (await call(desk.url, "GET", "/v1/views", auth())).body;
      const view = (Array.isArray(views) ? views : views.data).find(
        (v: { name: string }) => v.name === "Hot, no mail module",
      );
      expect(view.shared).toBe(true);
      expect(view.filters.priority.sort()).toEqual(["high", "urgent"]);
      expect(view.filters.fields).toEqual([{ key: "modules", op: "none", value: "mail" }]);
      const viewTickets = (await call(desk.url, "GET", `/v1/tickets?view_id=${view.id}`, auth())).body.data.map(
        (t: { subject: string }) => t.subject,
      );
      expect(viewTickets).toEqual(["API returns 502 on /orders"]);
    },
    STEP,
  );

  test(
    "contacts: create, edit, label, find in the list, and see their tickets",
    async () => {
      await page.goto(`${desk.url}/contacts`);
      await shown(page.getByRole("cell", { name: "carla@customer.test" }));
      await page.getByRole("button", { name: "New contact" }).click();
      const dialog = page.getByRole("dialog", { name: "New contact" });
      await dialog.getByLabel("Name").fill("Jo Jansen");
      await dialog.getByLabel("Email").fill("jo@jansen.test");
      await dialog.getByRole("button", { name: "Create" }).click();
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/);
      await shown(page.getByRole("heading", { name: "Jo Jansen" }));
      const id = page.url().split("/").pop();

      await page.getByLabel("Phone").fill("+49 30 1234567");
      await page.getByLabel("Notes").fill("Prefers email.");
      await page.getByRole("button", { name: "Save" }).click();
      expect(
        await eventually(
          async () => (await call(desk.url, "GET", `/v1/contacts/${id}`, auth())).body.phone,
          "+49 30 1234567",
        ),
      ).toBe("+49 30 1234567");
      await page.getByRole("button", { name: "+ Label" }).click();
      await page.getByLabel("Label name").fill("partner");
      await page.keyboard.press("Enter");
      await shown(page.locator(".record-editor .chip", { hasText: "partner" }));
      const stored = (await call(desk.url, "GET", `/v1/contacts/${id}`, auth())).body;
      expect(stored).toMatchObject({ name: "Jo Jansen", email: "jo@jansen.test", notes: "Prefers email." });
      expect(stored.tags.map((t: { name: string }) => t.name)).toEqual(["partner"]);

      // The list: search narrows it; the label filter finds Jo.
      await page.getByRole("link", { name: "Contacts", exact: true }).first().click();
      // The API's q matches the start of a name or an email.
      await page.getByLabel("Search contacts").fill("jo@jans");
      await shown(page.getByRole("cell", { name: "jo@jansen.test" }));
      expect(await page.locator("tbody tr").count()).toBe(1);
      await page.getByLabel("Search contacts").fill("");
      await page.getByLabel("Label filter").selectOption("partner");
      await shown(page.getByRole("cell", { name: "jo@jansen.test" }));
      expect(await page.locator("tbody tr").count()).toBe(1);

      // A contact who wrote in: the detail lists their ticket.
      await page.getByLabel("Label filter").selectOption("");
      await page.getByRole("link", { name: "Carla Customer" }).click();
      await shown(page.getByRole("heading", { name: "Carla Customer" }));
      await shown(page.locator(".mini-list a", { hasText: "Cannot export invoices" }));
    },
    STEP,
  );

  test(
    "labels: dragging one onto another reorders them, and the order persists",
    async () => {
      for (const name of ["alpha", "bravo", "charlie"])
        expect((await call(desk.url, "POST", "/v1/tags", auth(), { name })).status).toBe(201);
      await page.goto(`${desk.url}/settings/labels`);
      const ungrouped = page.locator(".card", { hasText: "Ungrouped" }).locator("ul.sortable > li");
      const order = async () =>
        (await ungrouped.locator(".chip").allTextContents()).filter((n) => ["alpha", "bravo", "charlie"].includes(n));
      expect(await eventually(async () => (await order()).join(","), "alpha,bravo,charlie")).toBe(
        "alpha,bravo,charlie",
      );
      await ungrouped.filter({ hasText: "charlie" }).dragTo(ungrouped.filter({ hasText: "alpha" }));
      expect(await eventually(async () => (await order()).join(","), "charlie,alpha,bravo")).toBe(
        "charlie,alpha,bravo",
      );
      const stored = async () => {
        const list = (await call(desk.url, "GET", "/v1/tags", auth())).body;
        return (Array.isArray(list) ? list : list.data)
          .map((t: { name: string }) => t.name)
          .filter((n: string) => ["alpha", "bravo", "charlie"].includes(n))
          .join(",");
      };
      expect(await eventually(stored, "charlie,alpha,bravo")).toBe("charlie,alpha,bravo");
      await page.reload();
      expect(await eventually(async () => (await order()).join(","), "charlie,alpha,bravo")).toBe(
        "charlie,alpha,bravo",
      );
    },
    STEP,
  );

  test(
    "screens render: inbox, ticket, contacts, settings",
    async () => {
      await page.goto(`${desk.url}/inbox/all`);
      await shown(page.getByRole("heading", { name: "All tickets" }));
      await shown(page.locator(".ticket-row", { hasText: "Feature request" }));
      await screenshot("inbox");
      await page.locator(".ticket-row", { hasText: "Cannot export invoices" }).locator(".ticket-main").click();
      await shown(page.locator(".msg").first());
      await screenshot("ticket");
      await page.goto(`${desk.url}/contacts`);
      await shown(page.getByRole("heading", { name: "Contacts" }));
      await shown(page.getByRole("cell", { name: "carla@customer.test" }));
      await screenshot("contacts");
      await page.getByRole("link", { name: "Jo Jansen" }).click();
      await shown(page.getByRole("heading", { name: "Jo Jansen" }));
      await screenshot("contact");
      await page.goto(`${desk.url}/settings/labels`);
      await shown(page.getByRole("heading", { name: "Labels", exact: true }));
      await screenshot("settings");
    },
    STEP,
  );
});
