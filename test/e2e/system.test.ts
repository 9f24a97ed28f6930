/**
 * The System page in a real browser against dist/desk: the operator (who set the instance up)
 * sees the server, its job queue, its event consumers' lag and backups, asks for a backup and sees it succeed (taken by the
 * executable running itself as `desk backup`); another workspace's admin sees only their mailboxes.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import {
  call,
  browserTestsReady,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

let desk: RunningDesk;
let browser: Browser;
const operator = { name: "Otto Operator", email: "otto@system.test", password: "correct horse battery" };
const tenant = { name: "Tina Tenant", email: "tina@system.test", password: "battery staple horse" };

beforeAll(async () => {
  if (!ready.ok) return;
  desk = await startDeskBinary({ DESK_OPEN_SIGNUP: "true", DESK_BACKUP_INTERVAL: "1d" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.stop();
});

test.skipIf(!ready.ok)(
  "the operator backs up from the System page; another workspace's admin sees only its own state",
  async () => {
    await ownerWithWorkspace(desk.url, operator, "Operator Inc");
    const other = await ownerWithWorkspace(desk.url, tenant, "Tenant Ltd");
    const created = await call(desk.url, "POST", "/v1/mailboxes", other.headers, {
      name: "Tenant help",
      email: "help@tenant.test",
    });
    expect(created.status).toBe(201);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, operator);
    await page.goto(`${desk.url}/settings/system`);
    await shown(page.getByRole("heading", { name: "This server" }));
    await shown(page.getByText(/keeping the newest 7/));
    // The durable consumers' lag: a fresh desk has nothing waiting.
    await shown(page.getByText(/All \d+ event consumers are caught up/));
    // The tenant's mailbox is not the operator's workspace's business.
    expect(await page.getByText("help@tenant.test").count()).toBe(0);
    await page.getByRole("button", { name: "Back up now" }).click();
    await shown(page.getByRole("status").filter({ hasText: "Backup queued." }));
    const succeeded = page.locator("td .pill-succeeded");
    await shown(succeeded, 30_000);
    const archive = (await page.locator("td code").last().textContent()) ?? "";
    expect(archive).toMatch(/desk-.*\.tar\.gz$/);
    expect(existsSync(archive)).toBe(true);

    const tenantPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    tenantPage.setDefaultTimeout(10_000);
    await signIn(tenantPage, desk.url, tenant);
    await tenantPage.goto(`${desk.url}/settings/system`);
    await shown(tenantPage.getByText("help@tenant.test"));
    expect(await tenantPage.getByRole("heading", { name: "This server" }).count()).toBe(0);
    expect(await tenantPage.getByRole("button", { name: "Back up now" }).count()).toBe(0);
  },
  90_000,
);
