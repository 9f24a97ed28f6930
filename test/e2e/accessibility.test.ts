/**
 * Accessibility of the agent web app in Chromium against dist/desk: axe-core (WCAG 2.0/2.1/2.2
 * A and AA rules) runs inside the page on every screen, at desktop (1280×800) and phone (390×844)
 * size, in the light and the dark theme, and must find no critical or serious violation. Keyboard
 * tests: the skip link, dialogs taking, keeping and returning focus, Enter acting only on the
 * focused control in the inbox, and the composer's tabs.
 * DESK_A11Y_SHOTS=<dir> also writes a screenshot of every screen, size and theme there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AxeResults } from "axe-core";
import { simpleParser } from "mailparser";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type FakeAi, fakeAiEnv, startFakeAi } from "../peers/fake-ai";
import { call, browserTestsReady, launchChromium, ROOT, type RunningDesk, shown, startDeskBinary } from "./browser";

const ready = browserTestsReady();

const STEP = 60_000;
const AXE_SOURCE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];
const THEMES = ["light", "dark"] as const;
const SHOTS = process.env.DESK_A11Y_SHOTS;

const INBOUND_SECRET = "accessibility-inbound-secret";
const owner = { name: "Olivia Owner", email: "olivia@example.test", password: "correct horse battery" };
let desk: RunningDesk;
// AI on (a local fake provider), so the composer's AI tools, the ticket's AI panel and the AI settings are audited too.
let fake: FakeAi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let headers: Record<string, string> = {};
const seeded = { contactId: "", companyId: "", inviteUrl: "", ticketNumber: 0, longNumber: 0, mailNumber: 0 };

/** The few fields of API answers the seeding reads. */
type Rec = { id: string; number: number; url: string; user: Rec; data: Rec[]; workspaces: Rec[]; access_token: string };
const api = async <T = Rec>(method: string, path: string, body?: unknown): Promise<T> => {
  const res = await call<T>(desk.url, method, path, headers, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Runs axe in the page as it is now; answers one line per critical or serious violation. */
async function axeNow(label: string): Promise<string[]> {
  // Evaluated through the DevTools protocol: an injected <script> tag would be (rightly) refused by the app's CSP.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(c: Document, o: object): Promise<unknown> } }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      }),
    TAGS,
  )) as AxeResults;
  return results.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .flatMap((v) =>
      v.nodes.map((n) => {
        const related = [...n.any, ...n.all, ...n.none].flatMap(
          (c) => c.relatedNodes?.map((r) => r.target.join(" ")) ?? [],
        );
        return `${label}: [${v.impact}] ${v.id} (${v.help}) at ${n.target.join(" ")}\n      ${(n.failureSummary ?? "").replace(/\n/g, "\n      ")}${related.length ? `\n      related: ${related.join(", ")}` : ""}`;
      }),
    );
}

/** Audits the current screen at both sizes in both themes; `settle` re-checks the screen after each resize. */
async function audit(screen: string, settle: () => Promise<void> = async () => {}): Promise<string[]> {
  const found: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const theme of THEMES) {
      await page.evaluate((t) => {
        document.documentElement.dataset.theme = t;
      }, theme);
      await settle();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({
          path: join(SHOTS, `${screen.replace(/[^a-z0-9]+/gi, "-")}-${size.name}-${theme}.png`),
        });
      }
      found.push(...(await axeNow(`${screen} @ ${size.name}/${theme}`)));
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  if (found.length) console.error(`\naxe violations on ${screen}:\n  ${found.join("\n  ")}\n`);
  return found;
}

async function visit(path: string, until: string) {
  await page.goto(`${desk.url}${path}`);
  await shown(page.locator(until).first());
}

/** Runs `work` with `page` in a fresh browser context that has no session. */
async function signedOut<T>(work: () => Promise<T>): Promise<T> {
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const signedIn = page;
  page = await other.newPage();
  try {
    return await work();
  } finally {
    await other.close();
    page = signedIn;
  }
}

/** Focus is inside the open dialog. */
const focusInDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));

describe.skipIf(!ready.ok)("accessibility (axe-core and keyboard, Chromium against dist/desk)", () => {
  beforeAll(async () => {
    fake = await startFakeAi();
    desk = await startDeskBinary({
      DESK_INBOUND_SECRET: INBOUND_SECRET,
      ...fakeAiEnv(fake),
      // A single sign-on provider, so the sign-in page shows its button (never contacted here).
      DESK_SSO_PROVIDERS: "corp",
      DESK_SSO_CORP_ISSUER: "https://id.example.test",
      DESK_SSO_CORP_CLIENT_ID: "desk",
      DESK_SSO_CORP_NAME: "Corp ID",
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    await fake?.stop();
  }, STEP);

  test(
    "setup and sign-in screens",
    async () => {
      await page.goto(desk.url);
      await page.waitForURL(/\/setup$/);
      const found = await audit("setup");
      await page.getByLabel("Your name").fill(owner.name);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill(owner.password);
      await page.getByLabel("Workspace name").fill("Acme Support");
      await page.getByRole("button", { name: "Create account and workspace" }).click();
      await page.waitForURL(/\/inbox\//);

      found.push(
        ...(await signedOut(async () => {
          await page.goto(`${desk.url}/signin`);
          await shown(page.getByRole("heading", { name: "Sign in" }));
          await shown(page.getByRole("link", { name: "Sign in with Corp ID" }));
          const signIn = await audit("sign-in");
          await page.goto(`${desk.url}/signin?sso_error=no_account`);
          await shown(page.getByRole("alert").filter({ hasText: "no Desk account" }));
          return [...signIn, ...(await audit("sign-in with a single sign-on error"))];
        })),
      );
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "seed a workspace through the API",
    async () => {
      const login = await call<Rec>(
        desk.url,
        "POST",
        "/v1/auth/login",
        {},
        { email: owner.email, password: owner.password },
      );
      const workspaceId = (
        await call<Rec>(desk.url, "GET", "/v1/me", { authorization: `Bearer ${login.body.access_token}` })
      ).body.workspaces[0].id;
      headers = { authorization: `Bearer ${login.body.access_token}`, "desk-workspace": workspaceId };
      const me = (await api("GET", "/v1/me")).user;

      await api("POST", "/v1/mailboxes", { name: "Support", email: "support@acme.test" });
      const group = await api("POST", "/v1/tag-groups", { name: "Type", exclusive: true });
      for (const [name, color] of [
        ["billing", "amber"],
        ["bug", "red"],
        ["vip", "yellow"],
        ["question", "cyan"],
        ["partner", "lime"],
      ]) {
        await api("POST", "/v1/tags", {
          name,
          color,
          ...(name === "bug" || name === "question" ? { group_id: group.id } : {}),
        });
      }
      await api("POST", "/v1/custom-fields", {
        entity: "ticket",
        name: "Plan",
        type: "select",
        options: [{ label: "Free" }, { label: "Pro" }],
      });
      await api("POST", "/v1/custom-fields", {
        entity: "ticket",
        name: "Order number",
        type: "text",
        required_on_solve: true,
      });
      // Tickets created below get an SLA clock, shown on the ticket page and in the list.
      await api("POST", "/v1/sla-policies", {
        name: "Everything",
        first_response_minutes: 60,
        resolution_minutes: 1440,
      });
      const team = await api("POST", "/v1/teams", { name: "Billing", member_ids: [me.id] });
      const company = await api("POST", "/v1/companies", { name: "Globex Corporation", domain: "globex.test" });
      seeded.companyId = company.id;
      const contact = await api("POST", "/v1/contacts", {
        name: "Dan Doe",
        email: "dan@globex.test",
        company_id: company.id,
        phone: "+1 555 0100",
        tags: ["vip"],
      });
      seeded.contactId = contact.id;
      await api("POST", "/v1/contacts", { name: "Erin Example", email: "erin@customer.test" });
      // A likely duplicate of Dan (same name, same domain): the contact page suggests merging it.
      await api("POST", "/v1/contacts", { name: "Dan Doe", emails: ["d.doe@globex.test", "dan@home.test"] });

      const seeds = [
        {
          subject: "Refund for order 1042",
          contact: { email: "dan@globex.test" },
          priority: "urgent",
          severity: "sev1",
          tags: ["billing", "vip"],
          assignee_id: me.id,
          team_id: team.id,
        },
        {
          subject: "Export spins forever",
          contact: { email: "erin@customer.test", name: "Erin Example" },
          priority: "high",
          severity: "sev2",
          tags: ["bug"],
          status: "pending",
        },
        {
          subject: "How do I invite my team?",
          contact: { email: "fay@customer.test", name: "Fay" },
          priority: "low",
          tags: ["question"],
          status: "on_hold",
        },
        {
          subject: "Invoice address change",
          contact: { email: "gus@customer.test" },
          tags: ["partner"],
          status: "solved",
          assignee_id: me.id,
          fields: { order_number: "1042" },
        },
        { subject: "Password reset link expired", contact: { email: "hal@customer.test", name: "Hal" } },
      ];
      for (const seed of seeds)
        await api("POST", "/v1/tickets", {
          ...seed,
          channel: "api",
          body_html: `<p>${seed.subject}. Can you help? See <a href="https://example.test/help">our help page</a> for details.</p>`,
          kind: "reply",
        });
      const first = (await api("GET", "/v1/tickets?q=Refund")).data[0];
      // A conversation longer than the screen, with no link or button in its text: the timeline must take focus itself.
      const long = await api("POST", "/v1/tickets", {
        subject: "Nightly export is slow",
        channel: "api",
        contact: { email: "erin@customer.test" },
        body_html: "<p>The nightly export takes hours.</p>",
        kind: "reply",
      });
      seeded.longNumber = long.number;
      for (let i = 1; i <= 8; i++)
        await api("POST", `/v1/tickets/${long.id}/messages`, {
          kind: "note",
          body_html: `<p>${"Still looking into the export queue and its workers. ".repeat(8)} (${i})</p>`,
        });
      seeded.ticketNumber = first.number;
      await api("POST", `/v1/tickets/${first.id}/messages`, { kind: "reply", body_html: "<p>We are on it, Dan.</p>" });
      await api("POST", `/v1/tickets/${first.id}/messages`, {
        kind: "note",
        body_html: "<p>Check the payment provider first.</p>",
      });
      // Customer mail through the inbound route: an inbound message, then a reply with quoted history.
      const mail = (id: string, body: string, inReplyTo?: string) =>
        fetch(`${desk.url}/v1/inbound/email?to=support%40acme.test`, {
          method: "POST",
          headers: { "content-type": "message/rfc822", "desk-inbound-secret": INBOUND_SECRET },
          body: [
            `From: Carla <carla@customer.test>`,
            "To: support@acme.test",
            `Subject: ${inReplyTo ? "Re: " : ""}Printer offline`,
            `Message-ID: <${id}@customer.test>`,
            ...(inReplyTo ? [`In-Reply-To: <${inReplyTo}@customer.test>`] : []),
            "Content-Type: text/plain; charset=utf-8",
            "",
            body,
            "",
          ].join("\r\n"),
        });
      expect((await mail("a1", "The printer says offline.")).status).toBe(202);
      expect(
        (
          await mail(
            "a2",
            "Still offline.\r\n\r\nOn Mon, Nov 23, 2026 at 9:00 AM, Acme <support@acme.test> wrote:\r\n> Please restart it.",
            "a1",
          )
        ).status,
      ).toBe(202);
      seeded.mailNumber = (await api("GET", "/v1/tickets?q=Printer")).data[0].number;
      await api("POST", "/v1/saved-replies", {
        title: "Thanks",
        shortcut: "thx",
        body_html: "<p>Thanks for writing in!</p>",
      });
      await api("POST", "/v1/views", { name: "Urgent billing", shared: true, filters: { priority: ["urgent"] } });
      await api("POST", "/v1/api-keys", { name: "CRM sync", scopes: ["tickets:read"] });
      // An address literal: the test machine has no DNS, and this event never fires here.
      await api("POST", "/v1/webhooks", { url: "https://93.184.215.14/desk", events: ["ticket.deleted"] });
      const invitation = await api("POST", "/v1/invitations", { email: "ivy@acme.test", role: "agent" });
      seeded.inviteUrl = invitation.url;
      // A teammate (for @mention suggestions) who assigns the owner a ticket (a notification to list).
      const teammate = await api("POST", "/v1/invitations", { email: "nia@acme.test", role: "agent" });
      const accepted = await call<Rec>(
        desk.url,
        "POST",
        "/v1/invitations/accept",
        {},
        { token: teammate.url.split("/").pop(), name: "Nia Agent", password: "correct horse battery" },
      );
      const unassigned = (await api("GET", "/v1/tickets?q=Export")).data[0]!;
      await call(
        desk.url,
        "PATCH",
        `/v1/tickets/${unassigned.id}`,
        { authorization: `Bearer ${accepted.body.access_token}`, "desk-workspace": workspaceId },
        { assignee_id: me.id },
      );
    },
    STEP,
  );

  test(
    "inbox, with a selection and an open filter",
    async () => {
      await visit("/inbox/all", ".ticket-row");
      const found = await audit("inbox");
      await page
        .getByRole("checkbox", { name: /Select ticket/ })
        .first()
        .check();
      await shown(page.getByRole("toolbar", { name: "Bulk actions" }));
      await page.getByRole("button", { name: /Status filter/ }).click();
      found.push(...(await audit("inbox with selection and status filter open")));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: owner.name }).click();
      await shown(page.getByRole("menu"));
      found.push(...(await audit("account menu")));
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "ticket and composer",
    async () => {
      // The composer's macro menu and the sidebar's followers panel with a follower.
      await api("POST", "/v1/macros", { name: "Close politely", actions: [{ type: "set_status", value: "pending" }] });
      await api("PUT", `/v1/tickets/${seeded.ticketNumber}/followers/me`);
      await visit(`/tickets/${seeded.ticketNumber}`, ".msg");
      await shown(page.getByLabel("Apply macro"));
      await shown(page.getByRole("region", { name: "Followers" }).getByRole("button", { name: "Unfollow" }));
      const found = await audit("ticket");
      fake.answer = (request) => {
        const name = request.response_format?.json_schema?.name;
        if (name === "ticket_summary")
          return { json: { summary: "A refund was asked for.", key_points: ["order 12"], sentiment: "neutral" } };
        if (name === "triage")
          return {
            json: {
              priority: "high",
              severity: "none",
              category: "billing",
              sentiment: "neutral",
              language: "en",
              spam_probability: 0.9,
              needs_human: false,
              sla_risk: 0.2,
              summary: "Refund.",
            },
          };
        return { text: "The customer asks for a refund." };
      };
      const panel = page.getByRole("region", { name: "AI" });
      await panel.getByRole("button", { name: "Summarize" }).click();
      await shown(panel.getByText("A refund was asked for."));
      await panel.getByLabel("Ask AI about this ticket").fill("What happened?");
      await panel.getByRole("button", { name: "Ask" }).click();
      await shown(panel.getByText("The customer asks for a refund."));
      await panel.getByRole("button", { name: "Triage with AI" }).click();
      await shown(panel.getByRole("list", { name: "AI suggestions" }));
      found.push(...(await audit("ticket with AI summary, answer and suggestions")));
      await page.getByRole("textbox", { name: "Reply" }).fill("Thanks, we refunded it.");
      await page.getByRole("button", { name: "+ Label" }).click();
      found.push(...(await audit("ticket with composer draft and label picker")));
      await page.getByRole("button", { name: "+ Label" }).click();
      await page.getByRole("tab", { name: /Note/ }).click();
      found.push(...(await audit("ticket with note composer")));
      await page.getByRole("textbox", { name: "Internal note" }).fill("Please look @Ni");
      await shown(page.getByRole("listbox", { name: "Mention a teammate" }));
      found.push(...(await audit("note composer with mention suggestions")));
      await page.getByRole("textbox", { name: "Internal note" }).fill("");
      await visit(`/tickets/${seeded.longNumber}`, ".msg");
      found.push(...(await audit("ticket with a long conversation")));
      await visit(`/tickets/${seeded.mailNumber}`, ".msg");
      await page.getByRole("button", { name: "Show quoted text" }).click();
      await shown(page.locator(".quoted-full"));
      found.push(...(await audit("ticket from email with quoted text shown")));
      await page.getByRole("button", { name: "Cc/Bcc" }).click();
      await shown(page.getByRole("combobox", { name: "Bcc" }));
      found.push(...(await audit("reply composer with Cc and Bcc")));
      await page.getByRole("tab", { name: "Forward" }).click();
      await page.getByRole("combobox", { name: "To" }).fill("carl");
      await shown(page.getByRole("listbox", { name: "To suggestions" }));
      found.push(...(await audit("forward composer with contact suggestions")));
      await page.getByRole("combobox", { name: "To" }).fill("");
      await page.getByRole("tab", { name: "Reply" }).click();
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "dialogs",
    async () => {
      await visit("/inbox/all", ".ticket-row");
      await page.getByRole("button", { name: "New ticket" }).click();
      const found = await audit("new ticket dialog");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: /Priority filter/ }).click();
      await page.getByRole("checkbox", { name: "Urgent" }).check();
      await page.getByRole("button", { name: "Save as view" }).click();
      found.push(...(await audit("save view dialog")));
      await page.keyboard.press("Escape");
      await page.locator("body").press("?");
      found.push(...(await audit("keyboard shortcuts dialog")));
      await page.keyboard.press("Escape");
      await visit(`/tickets/${seeded.ticketNumber}`, ".msg");
      await page.getByRole("button", { name: "Merge…" }).click();
      found.push(...(await audit("merge dialog")));
      await page.getByRole("button", { name: "Cancel" }).click();
      await visit("/contacts", ".table");
      await page.getByRole("button", { name: "New contact" }).click();
      found.push(...(await audit("new contact dialog")));
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "contacts and companies",
    async () => {
      await visit("/contacts", ".table");
      const found = await audit("contacts");
      await visit(`/contacts/${seeded.contactId}`, ".detail-grid .mini-list");
      await shown(page.getByRole("heading", { name: "Possible duplicates" }));
      found.push(...(await audit("contact")));
      await page.getByRole("button", { name: "Merge… d.doe@globex.test into this contact" }).click();
      await shown(page.getByRole("dialog", { name: "Merge contacts" }));
      found.push(...(await audit("merge contacts dialog")));
      await page.getByRole("button", { name: "Cancel" }).click();
      await visit("/companies", ".table");
      found.push(...(await audit("companies")));
      await visit(`/companies/${seeded.companyId}`, ".detail-grid");
      found.push(...(await audit("company")));
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "settings pages",
    async () => {
      const found: string[] = [];
      for (const [sub, until] of [
        ["workspace", "h1"],
        ["members", "table"],
        ["teams", "h1"],
        ["assignment", "h1"],
        ["labels", ".sortable"],
        ["fields", "h1"],
        ["views", "h1"],
        ["saved-replies", "h1"],
        ["macros", "h1"],
        ["sla", "table"],
        ["business-hours", ".bh-week"],
        ["triage", "h1"],
        ["mailboxes", ".card-head"],
        ["api-keys", "table"],
        ["webhooks", ".card-head"],
        ["system", "h2"],
        ["import", "h1"],
        ["widget", "[data-testid=widget-snippet]"],
        ["help-center", "h1"],
        ["ai", "form"],
        ["ai-usage", "h1"],
        // Last: the automation builder below opens on this page.
        ["automations", "h1"],
      ]) {
        await visit(`/settings/${sub}`, `.settings-body ${until}`);
        await page.waitForLoadState("networkidle");
        found.push(...(await audit(`settings/${sub}`)));
      }
      // The automation builder with a condition and an action of each picker kind open.
      await page.getByRole("button", { name: "New automation" }).click();
      await page.getByRole("button", { name: "Add condition" }).click();
      await page.getByRole("button", { name: "Add condition" }).click();
      await page.getByRole("group", { name: "Condition 2" }).getByLabel("Field").selectOption("ai_decide");
      await page.getByRole("button", { name: "Add action" }).click();
      await page.getByRole("group", { name: "Action 2" }).getByLabel("Action").selectOption("send_reply");
      await page.getByRole("button", { name: "Create automation" }).click();
      await shown(page.locator(".automation-builder .field-error").first());
      found.push(...(await audit("settings/automations builder with errors")));
      // A time rule in the builder (hours and SLA pickers), then an automation's run log (a dialog).
      await page.getByLabel("When").first().selectOption("time");
      await page
        .getByRole("group", { name: "Condition 1" })
        .getByLabel("Field")
        .selectOption("hours_since_status_changed");
      await page.getByRole("group", { name: "Condition 2" }).getByLabel("Field").selectOption("sla");
      found.push(...(await audit("settings/automations time rule builder")));
      await api("POST", "/v1/automations", {
        name: "Stale pending",
        trigger: "time",
        conditions: [{ field: "hours_since_status_changed", op: "gt", value: 72 }],
        actions: [{ type: "add_tag", value: "stale" }],
      });
      await visit("/settings/automations", ".settings-body table");
      await page.getByRole("button", { name: "Runs of Stale pending" }).click();
      await shown(page.getByRole("dialog", { name: "Runs of Stale pending" }));
      found.push(...(await audit("settings/automations run log")));
      // The mailbox edit form: server settings, the signature and auto-reply editors.
      await visit("/settings/mailboxes", ".settings-body .card-head");
      await page.getByRole("button", { name: "Edit", exact: true }).first().click();
      const mailboxForm = page.getByRole("form", { name: /^Edit mailbox/ });
      await shown(mailboxForm);
      await mailboxForm.getByLabel("Send mail with").selectOption("smtp");
      await shown(mailboxForm.getByRole("group", { name: "SMTP" }));
      found.push(...(await audit("settings/mailboxes edit form")));
      // The saved reply editor (a dialog).
      await visit("/settings/saved-replies", ".settings-body table");
      await page
        .getByRole("button", { name: /^Edit / })
        .first()
        .click();
      await shown(page.getByRole("dialog", { name: "Edit saved reply" }));
      found.push(...(await audit("settings/saved-replies edit dialog")));
      await page.keyboard.press("Escape");
      // The macro builder (the automation builder's action rows) with a located error.
      await visit("/settings/macros", ".settings-body h1");
      await page.getByRole("button", { name: "New macro" }).click();
      await page.getByRole("button", { name: "Add action" }).click();
      await page.getByRole("group", { name: "Action 2" }).getByLabel("Action").selectOption("send_reply");
      await page.getByRole("button", { name: "Create macro" }).click();
      await shown(page.locator(".automation-builder .field-error").first());
      found.push(...(await audit("settings/macros builder with errors")));
      expect(found).toEqual([]);
    },
    // Twenty-odd pages and builders, each audited four times (two sizes, two themes).
    STEP * 3,
  );

  test(
    "CSV import: the column mapping step with a required field missing, and the dry run",
    async () => {
      await visit("/settings/import", ".settings-body h1");
      await page.getByLabel("Source").selectOption("csv-contacts");
      await page.locator('input[name="file"]').setInputFiles({
        name: "people.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("E-mail,Full name,Organisation\nok@example.test,Ok,Initech\nnot-an-email,Bad,\n"),
      });
      await page.getByRole("button", { name: "Read columns", exact: true }).click();
      const mapping = page.getByRole("group", { name: "Column mapping" });
      await mapping.getByLabel("Email (required)").selectOption("");
      await page.getByRole("button", { name: "Dry run", exact: true }).click();
      await shown(mapping.getByText("Pick the column that holds email."));
      const found = await audit("settings/import CSV mapping with a missing field");
      await mapping.getByLabel("Email (required)").selectOption("E-mail");
      await page.getByRole("button", { name: "Dry run", exact: true }).click();
      await shown(page.getByTestId("csv-dry-run"));
      found.push(...(await audit("settings/import CSV dry run")));
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "knowledge base, the article editor and the public help center",
    async () => {
      // A light brand colour: the help center must still keep its text readable.
      await api("PATCH", "/v1/workspace", {
        settings: { help_center_enabled: true, help_center_title: "Acme Answers", brand_color: "#f5c518" },
      });
      const slug = (await api<{ slug: string }>("GET", "/v1/workspace")).slug;
      const collection = await api("POST", "/v1/kb/collections", {
        name: "Billing",
        description: "Invoices and cards",
      });
      const article = await api("POST", "/v1/kb/articles", {
        collection_id: collection.id,
        title: "Download an invoice",
        status: "published",
        body_html:
          '<h2>Steps</h2><p>Open <a href="https://example.com/billing">Billing</a> and choose an invoice.</p><ul><li>PDF</li><li>CSV</li></ul><blockquote>Invoices stay for 7 years.</blockquote>',
      });
      await api("POST", "/v1/kb/articles", { collection_id: collection.id, title: "Draft about refunds" });
      await visit("/kb", ".kb-articles table");
      await page.getByText("Edit collection").click();
      const found = await audit("knowledge base with the collection form open");
      await visit(`/kb/articles/${article.id}`, ".rte-area");
      found.push(...(await audit("article editor")));
      // Two languages: the pages carry the language switcher, and the German ones are audited too.
      await api("PATCH", "/v1/workspace", { settings: { locales: ["en", "de"] } });
      // The editor's languages panel, and a translation's dialog open on it.
      await visit(`/kb/articles/${article.id}`, ".kb-languages table");
      found.push(...(await audit("article editor with its languages panel")));
      await page.getByRole("button", { name: "Translate into German" }).click();
      await shown(page.getByRole("dialog", { name: "German translation" }));
      found.push(...(await audit("article translation dialog")));
      for (const [path, screen] of [
        [`/help/${slug}/de`, "help center home in German"],
        [`/help/${slug}/de/articles/download-an-invoice`, "help center article in German"],
        [`/help/${slug}/de/search?q=invoice`, "help center search in German"],
        [`/help/${slug}`, "help center home"],
        [`/help/${slug}/collections/billing`, "help center collection"],
        [`/help/${slug}/articles/download-an-invoice`, "help center article"],
        [`/help/${slug}/search?q=invoice`, "help center search"],
        [`/help/${slug}/articles/no-such-article`, "help center 404"],
      ]) {
        await visit(path, "main h1");
        found.push(...(await audit(screen)));
      }
      expect(found).toEqual([]);
    },
    STEP * 2,
  );

  test(
    "customer portal and contact form",
    async () => {
      // A light brand colour: the portal's buttons and header must keep their contrast.
      await api("PATCH", "/v1/workspace", {
        settings: { help_center_enabled: true, brand_color: "#f5c518", locales: ["en", "de"] },
      });
      const slug = (await api<{ slug: string }>("GET", "/v1/workspace")).slug;
      const email = "portal.customer@customer.test";
      const ticket = await api("POST", "/v1/tickets", {
        subject: "Where is my parcel?",
        contact: { email },
        body_html: "<p>It has been a week.</p>",
      });
      await api("POST", `/v1/tickets/${ticket.id}/messages`, { kind: "reply", body_html: "<p>It ships today.</p>" });
      const outbox = join(desk.dataDir, "outbox");
      const mailed = () => (existsSync(outbox) ? readdirSync(outbox).length : 0);
      const found = await signedOut(async () => {
        // The German portal and contact form: Accept-Language picks German among the workspace's languages.
        await page.setExtraHTTPHeaders({ "accept-language": "de" });
        await page.goto(`${desk.url}/portal/${slug}`);
        await shown(page.getByRole("heading", { name: "Ihre Anfragen" }));
        const out = await audit("portal sign-in in German");
        await page.goto(`${desk.url}/help/${slug}/contact`);
        await shown(page.getByRole("heading", { name: "Kontakt" }));
        out.push(...(await audit("contact form in German")));
        await page.setExtraHTTPHeaders({});
        await page.goto(`${desk.url}/help/${slug}/contact`);
        await shown(page.getByRole("heading", { name: "Contact us" }));
        out.push(...(await audit("contact form")));
        await page.locator("form[data-solved]").waitFor({ state: "attached" });
        // Fields the browser accepts and the server does not (a blank subject): the form's own error list.
        await page.getByLabel("Your name").fill("Casey");
        await page.getByLabel("Email address").fill("casey@customer.test");
        await page.getByLabel("Subject").fill("   ");
        await page.getByLabel("How can we help?").fill("Hello");
        await page.getByRole("button", { name: "Send message" }).click();
        await shown(page.getByRole("alert"));
        out.push(...(await audit("contact form with errors")));
        await page.goto(`${desk.url}/help/${slug}/contact?sent=1`);
        await shown(page.getByRole("heading", { name: "Thank you" }));
        out.push(...(await audit("contact form sent")));
        await page.goto(`${desk.url}/portal/${slug}`);
        await shown(page.getByRole("heading", { name: "Your requests" }));
        out.push(...(await audit("portal sign-in")));
        const before = mailed();
        await page.getByLabel("Email address").fill(email);
        await page.getByRole("button", { name: "Email me a sign-in link" }).click();
        await shown(page.getByRole("heading", { name: "Check your email" }));
        out.push(...(await audit("portal link sent")));
        let link = "";
        for (let i = 0; i < 100 && !link; i++) {
          for (const file of existsSync(outbox) ? readdirSync(outbox).sort().slice(before) : []) {
            const raw = readFileSync(join(outbox, file), "utf8");
            if (raw.includes(email))
              link =
                /(http:\/\/\S+\/portal\/\S+\/sign-in\/[A-Za-z0-9_-]+)/.exec(
                  (await simpleParser(raw)).text ?? "",
                )?.[1] ?? "";
          }
          if (!link) await Bun.sleep(100);
        }
        expect(link).not.toBe("");
        await page.goto(link);
        await shown(page.getByRole("button", { name: "Continue" }));
        out.push(...(await audit("portal sign-in link")));
        await page.getByRole("button", { name: "Continue" }).click();
        await shown(page.getByRole("link", { name: "Where is my parcel?" }));
        out.push(...(await audit("portal requests")));
        await page.getByRole("link", { name: "Where is my parcel?" }).click();
        await shown(page.getByText("It ships today."));
        out.push(...(await audit("portal request")));
        await page.getByRole("button", { name: "Send reply" }).click();
        await shown(page.getByRole("alert"));
        out.push(...(await audit("portal request with errors")));
        await page.goto(`${desk.url}/portal/${slug}/new`);
        await shown(page.getByRole("heading", { name: "New request" }));
        out.push(...(await audit("portal new request")));
        await page.goto(`${desk.url}/portal/${slug}/tickets/99999`);
        await shown(page.getByRole("heading", { name: "Not found" }));
        out.push(...(await audit("portal 404")));
        return out;
      });
      expect(found).toEqual([]);
    },
    STEP * 2,
  );

  test(
    "invitation page",
    async () => {
      const found = await signedOut(async () => {
        await page.goto(`${desk.url}${new URL(seeded.inviteUrl).pathname}`);
        await shown(page.locator(".auth-card"));
        await page.waitForLoadState("networkidle");
        return audit("invitation");
      });
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "profile, snoozed folder and the phone navigation drawer",
    async () => {
      await visit("/profile", "#profile-sessions");
      await shown(page.getByRole("table", { name: "Sign-in providers" }));
      const found = await audit("profile");
      await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
      await shown(page.getByRole("img", { name: "QR code for your authenticator app" }));
      found.push(...(await audit("profile with two-factor setup")));
      await page.getByRole("button", { name: "Add a passkey" }).click();
      await shown(page.getByLabel("Passkey name"));
      found.push(...(await audit("profile adding a passkey")));
      await visit("/inbox/snoozed", "main");
      found.push(...(await audit("snoozed folder")));
      await visit("/inbox/following", "main");
      found.push(...(await audit("following folder")));
      await visit("/notifications", ".notification-list");
      await page.waitForLoadState("networkidle");
      found.push(...(await audit("notifications")));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole("button", { name: "Menu" }).click();
      await shown(page.locator(".shell.nav-open .sidebar"));
      // Only the phone size: the drawer exists there alone.
      for (const theme of ["light", "dark"]) {
        await page.evaluate((t) => {
          document.documentElement.dataset.theme = t;
        }, theme);
        found.push(...(await axeNow(`navigation drawer @ phone/${theme}`)));
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "reports, audit log, global search, the setup checklist and the CSAT rating page",
    async () => {
      await visit("/reports", ".kpis");
      await shown(page.locator("[data-testid=day-chart] canvas"));
      const found = await audit("reports");
      await visit("/audit-log", ".audit-log h1");
      await page.waitForLoadState("networkidle");
      found.push(...(await audit("audit log")));
      await visit("/inbox/all", ".ticket-row");
      await shown(page.getByRole("region", { name: "Get started with Desk" }));
      found.push(...(await audit("setup checklist")));
      await page.keyboard.press("Control+k");
      await page.getByRole("combobox", { name: "Search tickets, contacts and companies" }).fill("refund");
      await shown(page.getByRole("dialog", { name: "Search" }).getByRole("option").first());
      found.push(...(await audit("global search")));
      await page.keyboard.press("Escape");

      // A light brand colour: the rating page must keep its contrast whatever colour a workspace picks.
      await api("PATCH", "/v1/workspace", { settings: { csat_enabled: true, brand_color: "#f5d90a" } });
      const rated = await api("POST", "/v1/tickets", {
        subject: "Rate me",
        contact: { email: "rater@customer.test" },
        body_html: "<p>Hello</p>",
      });
      await api("PATCH", `/v1/tickets/${rated.id}`, { status: "solved", fields: { order_number: "7" } });
      let link = "";
      const outbox = join(desk.dataDir, "outbox");
      for (let i = 0; i < 100 && !link; i++) {
        for (const file of existsSync(outbox) ? readdirSync(outbox) : []) {
          const raw = readFileSync(join(outbox, file), "utf8");
          if (raw.includes("rater@customer.test"))
            link = /(http:\/\/\S+\/csat\/[A-Za-z0-9_-]+)(?=\s)/.exec((await simpleParser(raw)).text ?? "")?.[1] ?? "";
        }
        if (!link) await Bun.sleep(100);
      }
      expect(link).not.toBe("");
      found.push(
        ...(await signedOut(async () => {
          await page.goto(`${link}?score=3`);
          await shown(page.getByRole("heading", { name: "How did we do?" }));
          const out = await audit("rating page");
          await page.emulateMedia({ colorScheme: "dark" });
          out.push(...(await axeNow("rating page @ desktop/prefers-dark")));
          await page.getByRole("button", { name: "Send rating" }).click();
          await shown(page.getByRole("status"));
          out.push(...(await audit("rating page, rated")));
          return out;
        })),
      );
      expect(found).toEqual([]);
    },
    STEP * 2,
  );

  test(
    "forgot-password and reset pages",
    async () => {
      const found = await signedOut(async () => {
        await page.goto(`${desk.url}/forgot-password`);
        await shown(page.getByRole("heading", { name: "Reset your password" }));
        const out = await audit("forgot password");
        await page.goto(`${desk.url}/reset-password#not-a-real-token`);
        await shown(page.getByRole("heading", { name: "Choose a new password" }));
        out.push(...(await audit("reset password")));
        await page.goto(`${desk.url}/sso/confirm#not-a-real-token`);
        await shown(page.getByRole("heading", { name: "Link a sign-in account" }));
        out.push(...(await audit("single sign-on link confirmation")));
        return out;
      });
      expect(found).toEqual([]);
    },
    STEP,
  );

  test(
    "the first Tab reaches a skip link that moves focus to the main content",
    async () => {
      await visit("/inbox/all", ".ticket-row");
      await page.keyboard.press("Tab");
      const skip = page.locator(":focus");
      expect(await skip.textContent()).toBe("Skip to main content");
      const box = await skip.boundingBox();
      expect(box && box.width > 20 && box.height > 10 && box.y >= 0).toBe(true);
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("MAIN");
      // The next Tab goes into the page, past the navigation.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
      expect(page.url()).toEndWith("/inbox/all");
    },
    STEP,
  );

  test(
    "a dialog takes focus, keeps it on Tab and Shift+Tab, and gives it back on close",
    async () => {
      await visit("/inbox/all", ".ticket-row");
      const opener = page.getByRole("button", { name: "New ticket" });
      await opener.focus();
      await page.keyboard.press("Enter");
      await shown(page.getByRole("dialog", { name: "New ticket" }));
      expect(await focusInDialog()).toBe(true);
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press("Tab");
        expect(await focusInDialog()).toBe(true);
      }
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press("Shift+Tab");
        expect(await focusInDialog()).toBe(true);
      }
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);

      // Opened by a shortcut: the close button is the first stop, and Escape returns focus where it was.
      await page.locator("body").press("?");
      await shown(page.getByRole("dialog", { name: "Keyboard shortcuts" }));
      expect(await focusInDialog()).toBe(true);
      await page.keyboard.press("Tab");
      expect(await focusInDialog()).toBe(true);
      await page.keyboard.press("Escape");
      expect(await page.getByRole("dialog").count()).toBe(0);

      // The merge dialog on a ticket, closed with its Cancel button reached by keyboard.
      await visit(`/tickets/${seeded.ticketNumber}`, ".msg");
      const merge = page.getByRole("button", { name: "Merge…" });
      await merge.focus();
      await page.keyboard.press("Enter");
      await shown(page.getByRole("dialog"));
      expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("into");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel");
      await page.keyboard.press("Enter");
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(await merge.evaluate((el) => el === document.activeElement)).toBe(true);
    },
    STEP,
  );

  test(
    "Enter in the inbox acts on the focused control, and opens the cursor's ticket only when nothing is focused",
    async () => {
      await visit("/inbox/all", ".ticket-row");
      const status = page.getByRole("button", { name: /Status filter/ });
      await status.focus();
      await page.keyboard.press("Enter");
      expect(await status.getAttribute("aria-expanded")).toBe("true");
      expect(page.url()).toEndWith("/inbox/all");
      // Into the panel and out again with Escape: the focus comes back to the filter's button.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("checkbox");
      await page.keyboard.press("Escape");
      expect(await status.getAttribute("aria-expanded")).toBe("false");
      expect(await status.evaluate((el) => el === document.activeElement)).toBe(true);

      await page
        .getByRole("checkbox", { name: /Select ticket/ })
        .first()
        .focus();
      await page.keyboard.press("Enter");
      expect(page.url()).toEndWith("/inbox/all");

      // A focused ticket link opens its own ticket, not the one under the keyboard cursor (the first row).
      const second = page.locator(".ticket-row").nth(1);
      const number = await second.getAttribute("data-number");
      await second.locator("a.ticket-main").focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(new RegExp(`/tickets/${number}$`));

      await visit("/inbox/all", ".ticket-row");
      const firstNumber = await page.locator(".ticket-row").first().getAttribute("data-number");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("Enter");
      await page.waitForURL(new RegExp(`/tickets/${firstNumber}$`));
    },
    STEP,
  );

  test(
    "the composer's tabs follow the tab pattern: one tab stop, arrows switch",
    async () => {
      await visit(`/tickets/${seeded.ticketNumber}`, ".msg");
      const reply = page.getByRole("tab", { name: /Reply/ });
      await reply.focus();
      await page.keyboard.press("ArrowRight");
      const note = page.getByRole("tab", { name: /Note/ });
      expect(await note.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await note.getAttribute("aria-selected")).toBe("true");
      expect(await reply.getAttribute("tabindex")).toBe("-1");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Insert saved reply");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Internal note");
    },
    STEP,
  );
  test(
    "the assistant panel with steps and an approval card",
    async () => {
      await api("PATCH", "/v1/ai/settings", { assistant: true });
      const ticket = await api("GET", `/v1/tickets/${seeded.ticketNumber}`);
      const previous = fake.answer;
      fake.answer = (request) =>
        request.messages.at(-1)?.role === "tool"
          ? { text: "Done." }
          : { tools: [{ name: "update_ticket", arguments: { ticket: ticket.id, changes: { priority: "high" } } }] };
      try {
        await visit("/inbox/all", ".ticket-row");
        await page.keyboard.press("Control+j");
        const panel = page.getByRole("complementary", { name: "Assistant" });
        expect(await page.evaluate(() => document.activeElement?.id)).toBe("assistant-text");
        await panel.getByLabel("Message the assistant").fill("Raise the priority of this ticket");
        await page.keyboard.press("Enter");
        await shown(panel.getByRole("region", { name: "Approval" }));
        const found = await audit("assistant panel with an approval card");
        await panel.getByRole("button", { name: "Deny" }).click();
        await shown(panel.getByText("Denied", { exact: false }));
        await page.keyboard.press("Escape");
        await shown(page.getByRole("button", { name: "Assistant", exact: true }));
        expect(found).toEqual([]);
      } finally {
        fake.answer = previous;
        await api("PATCH", "/v1/ai/settings", { assistant: false });
      }
    },
    STEP,
  );

  test(
    "the inbox and the profile in German (lang=de on the page)",
    async () => {
      await api("PATCH", "/v1/me", { locale: "de" });
      try {
        await visit("/inbox/all", ".ticket-row");
        expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
        const found = await audit("inbox in German");
        await visit("/profile", "#profile-language");
        await shown(page.getByRole("heading", { name: "Sprache", exact: true }));
        found.push(...(await audit("profile in German")));
        expect(found).toEqual([]);
      } finally {
        await api("PATCH", "/v1/me", { locale: null });
      }
    },
    STEP,
  );
});
