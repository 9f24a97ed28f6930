/**
 * An import's custom fields and inline images in a real browser against the executable: an admin
 * imports a (fake) Zendesk account whose ticket has two custom fields and an inline image; the
 * ticket's sidebar shows the fields with their values, and the image shows from Desk's own stored
 * copy (loaded, never from the vendor), while a third party's image is only its alt text.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import {
  browserTestsReady,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";
import { type FakeZendesk, startFakeZendesk } from "../peers/fake-zendesk";

const ready = browserTestsReady();

let desk: RunningDesk;
let browser: Browser;
let zd: FakeZendesk;
const admin = { name: "Ines Fields", email: "ines@import.test", password: "correct horse battery" };
/** A real 1×1 PNG, so the browser can decode what Desk serves. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const at = (s: number) => new Date((1_700_000_000 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

beforeAll(async () => {
  if (!ready.ok) return;
  zd = startFakeZendesk();
  zd.ticketFields.push(
    { id: 360001, type: "integer", title: "Order number", removable: true, active: true },
    {
      id: 360002,
      type: "tagger",
      title: "Plan",
      removable: true,
      active: true,
      custom_field_options: [
        { id: 1, name: "Gold plan", value: "plan_gold" },
        { id: 2, name: "Silver plan", value: "plan_silver" },
      ],
    },
  );
  zd.users.push({
    id: 10,
    name: "Peter Gibbons",
    email: "peter@initech.test",
    role: "end-user",
    organization_id: null,
    phone: null,
    updated_at: at(1),
  });
  zd.tickets.push({
    id: 7,
    subject: "Cover sheet with a chart",
    status: "open",
    priority: "normal",
    tags: [],
    requester_id: 10,
    assignee_id: null,
    created_at: at(100),
    updated_at: at(200),
    solved_at: null,
    custom_fields: [
      { id: 360001, value: "4711" },
      { id: 360002, value: "plan_silver" },
    ],
    comments: [
      {
        id: 8001,
        author_id: 10,
        body: "See the chart",
        html_body: `<p>See the chart:</p><img src="${zd.url}/attachments/token/6001/?name=chart.png" alt="Chart"><img src="https://tracker.example/p.gif" alt="tracking pixel">`,
        public: true,
        created_at: at(100),
        attachments: [{ id: 6001, file_name: "chart.png", content_type: "image/png", bytes: PNG, inline: true }],
      },
    ],
  });
  desk = await startDeskBinary({ DESK_OPEN_SIGNUP: "true", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  zd?.stop();
});

test.skipIf(!ready.ok)(
  "an imported ticket shows its vendor fields and its inline image from Desk",
  async () => {
    await ownerWithWorkspace(desk.url, admin, "Fields Inc");
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    const remote: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(desk.url)) remote.push(request.url());
    });
    await signIn(page, desk.url, admin);
    await page.goto(`${desk.url}/settings/import`);
    await shown(page.getByRole("heading", { name: "Import", exact: true }));
    await page.getByLabel("Subdomain").fill("initech");
    await page.getByLabel("Admin email").fill(zd.email);
    await page.getByLabel("API token").fill(zd.token);
    await page.getByLabel("API address (optional)").fill(zd.url);
    await page.getByRole("button", { name: "Start import" }).click();
    const row = page.getByTestId("import-row").first();
    await shown(row.locator(".pill-succeeded"), 30_000);

    await page.goto(`${desk.url}/inbox/all`);
    await page.getByText("Cover sheet with a chart").first().click();
    await shown(page.getByRole("heading", { name: "Fields" }));
    expect(await page.getByLabel("Order number").inputValue()).toBe("4711");
    expect(await page.getByLabel("Plan").inputValue()).toBe("silver_plan");

    const chart = page.locator('img[alt="Chart"]');
    await shown(chart);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="Chart"]');
      return !!img && img.complete && img.naturalWidth === 1;
    });
    expect(await chart.getAttribute("src")).not.toContain(zd.url);
    await shown(page.getByText("tracking pixel"));
    expect(await page.locator('img[alt="tracking pixel"]').count()).toBe(0);
    expect(remote).toEqual([]);
  },
  90_000,
);
