/**
 * Settings → Import in a real browser against the executable, for the sources added after Zendesk:
 * an admin picks Freshdesk, tests the key, starts the import and watches it succeed; then Help
 * Scout the same way, then a mailbox's history over IMAP (a real Dovecot); the imported tickets are
 * in the inbox.
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
import { type FakeFreshdesk, seedFreshdeskAccount, startFakeFreshdesk } from "../peers/fake-freshdesk";
import { type FakeHelpScout, seedHelpScoutAccount, startFakeHelpScout } from "../peers/fake-helpscout";
import { type Dovecot, startDovecot } from "../peers/dovecot";

const ready = browserTestsReady();

let desk: RunningDesk;
let browser: Browser;
let fd: FakeFreshdesk;
let hs: FakeHelpScout;
let dovecot: Dovecot;
const admin = { name: "Fay Switcher", email: "fay@import.test", password: "correct horse battery" };

beforeAll(async () => {
  if (!ready.ok) return;
  fd = startFakeFreshdesk();
  seedFreshdeskAccount(fd, admin.email);
  hs = startFakeHelpScout();
  seedHelpScoutAccount(hs, admin.email);
  dovecot = await startDovecot({ "history@acme.test": "history-pw" });
  dovecot.deliver(
    "history@acme.test",
    "From: Old Customer <old@example.test>\r\nTo: history@acme.test\r\nSubject: Order from last year\r\nMessage-ID: <old-1@example.test>\r\nDate: Mon, 06 Nov 2023 10:00:00 +0000\r\n\r\nWhere is my order?\r\n",
  );
  desk = await startDeskBinary({ DESK_OPEN_SIGNUP: "true", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  fd?.stop();
  hs?.stop();
  await dovecot?.dispose();
});

test.skipIf(!ready.ok)(
  "an admin imports from Freshdesk, Help Scout and an IMAP mailbox with their own credential fields",
  async () => {
    await ownerWithWorkspace(desk.url, admin, "Switchers Two");
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, admin);
    await page.goto(`${desk.url}/settings/import`);
    await shown(page.getByRole("heading", { name: "Import", exact: true }));

    await page.getByLabel("Source").selectOption("freshdesk");
    await page.getByLabel("Freshdesk domain").fill("acme");
    await page.getByLabel("API key").fill("wrong");
    await page.getByLabel("API address (optional)").fill(fd.url);
    await page.getByRole("button", { name: "Test connection" }).click();
    await shown(page.getByTestId("import-check").filter({ hasText: "refused the credentials" }));
    await page.getByLabel("API key").fill(fd.apiKey);
    await page.getByRole("button", { name: "Test connection" }).click();
    await shown(page.getByTestId("import-check").filter({ hasText: /^Connected\.$/ }));
    await page.getByRole("button", { name: "Start import" }).click();
    const freshdesk = page.getByTestId("import-row").filter({ hasText: "Freshdesk" }).first();
    await shown(freshdesk.locator(".pill-succeeded"), 30_000);
    await shown(freshdesk.getByText(/^3 tickets · 6 messages · 1 attachment /));

    await page.getByLabel("Source").selectOption("helpscout");
    await page.getByLabel("App ID").fill(hs.appId);
    await page.getByLabel("App secret").fill(hs.appSecret);
    await page.getByLabel("API address (optional)").fill(hs.url);
    await page.getByRole("button", { name: "Test connection" }).click();
    await shown(page.getByTestId("import-check").filter({ hasText: "4 tickets, 4 users" }));
    await page.getByRole("button", { name: "Start import" }).click();
    const helpScout = page.getByTestId("import-row").filter({ hasText: "Help Scout" }).first();
    await shown(helpScout.locator(".pill-succeeded"), 30_000);
    await shown(helpScout.getByText(/^3 tickets · 6 messages · 1 attachment /));

    await page.getByLabel("Source").selectOption("imap");
    await page.getByLabel("IMAP server").fill("127.0.0.1");
    await page.getByLabel("Port", { exact: true }).fill(String(dovecot.imapPort));
    await page.getByLabel("Security").selectOption("none");
    await page.getByLabel("Username", { exact: true }).fill("history@acme.test");
    await page.locator('input[name="password"]').fill("history-pw");
    await page.getByRole("button", { name: "Start import" }).click();
    const imap = page.getByTestId("import-row").filter({ hasText: "Mailbox (IMAP)" }).first();
    await shown(imap.locator(".pill-succeeded"), 30_000);
    await shown(imap.getByText(/^1 ticket · 1 message /));
    expect(await page.getByTestId("import-row").count()).toBe(3);

    await page.goto(`${desk.url}/inbox/all`);
    await shown(page.getByText("From a deleted customer").first());
    await shown(page.getByText("From a deleted contact").first());
    await shown(page.getByText("Order from last year").first());
  },
  120_000,
);
