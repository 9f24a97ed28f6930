/**
 * Settings → Import in a real browser against the executable: an admin tests the connection to a
 * (fake) Zendesk, sees its totals, starts the import, watches it run and succeed without reloading
 * (the progress arrives as import.updated events), finds the tickets in the inbox, and imports a
 * CSV whose headers differ from Desk's: maps its columns, sees the dry run, imports, reads the
 * refused row in the report.
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
import { type FakeZendesk, seedSmallAccount, startFakeZendesk } from "../peers/fake-zendesk";

const ready = browserTestsReady();

let desk: RunningDesk;
let browser: Browser;
let zd: FakeZendesk;
const admin = { name: "Ida Importer", email: "ida@import.test", password: "correct horse battery" };

beforeAll(async () => {
  if (!ready.ok) return;
  zd = startFakeZendesk();
  seedSmallAccount(zd, admin.email);
  desk = await startDeskBinary({ DESK_OPEN_SIGNUP: "true", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  zd?.stop();
});

test.skipIf(!ready.ok)(
  "an admin imports from Zendesk and watches it finish live; a CSV mapped, dry-run, imported with its bad row reported",
  async () => {
    await ownerWithWorkspace(desk.url, admin, "Switchers Inc");
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, admin);
    await page.goto(`${desk.url}/settings/import`);
    await shown(page.getByRole("heading", { name: "Import", exact: true }));
    await page.getByLabel("Subdomain").fill("acme");
    await page.getByLabel("Admin email").fill(zd.email);
    await page.getByLabel("API token").fill(zd.token);
    await page.getByLabel("API address (optional)").fill(zd.url);
    await page.getByRole("button", { name: "Test connection" }).click();
    await shown(page.getByTestId("import-check").filter({ hasText: "2 tickets, 4 users and 2 organizations" }));

    // Slow the vendor down so the run is seen in progress before it ends.
    zd.delayMs = 150;
    await page.getByRole("button", { name: "Start import" }).click();
    const row = page.getByTestId("import-row").first();
    await shown(row.locator(".pill-running, .pill-queued"));
    await shown(row.locator(".pill-succeeded"), 30_000);
    await shown(row.getByText(/^2 tickets · 5 messages · 1 attachment /));
    zd.delayMs = 0;

    await page.goto(`${desk.url}/inbox/all`);
    await shown(page.getByText("Billing question").first());

    await page.goto(`${desk.url}/settings/import`);
    await page.getByLabel("Source").selectOption("csv-contacts");
    await page.locator('input[name="file"]').setInputFiles({
      name: "people.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        '\uFEFFE-mail,Full name,Organisation\r\nok@example.test,"Ok, Person",Initech\r\nnot-an-email,Bad,\r\nsecond@example.test,"Two\nlines",\r\n',
      ),
    });
    await page.getByRole("button", { name: "Read columns", exact: true }).click();
    // The mapping step: Desk's fields, each suggested from the file's own headers.
    const mapping = page.getByRole("group", { name: "Column mapping" });
    await shown(mapping);
    expect(await mapping.getByLabel("Email (required)").inputValue()).toBe("E-mail");
    expect(await mapping.getByLabel("Name", { exact: true }).inputValue()).toBe("Full name");
    expect(await mapping.getByLabel("Company").inputValue()).toBe("Organisation");
    await mapping.getByLabel("Email (required)").selectOption("");
    await page.getByRole("button", { name: "Dry run", exact: true }).click();
    await shown(mapping.getByText("Pick the column that holds email."));
    await mapping.getByLabel("Email (required)").selectOption("E-mail");
    await page.getByRole("button", { name: "Dry run", exact: true }).click();
    const summary = page.getByTestId("csv-dry-run");
    await shown(summary.getByText("2 to create · 0 to update · 0 skipped · 1 with errors."));
    await shown(summary.getByText('Row 3 (E-mail): "not-an-email" is not an email address.'));
    expect(await page.getByTestId("import-row").count()).toBe(1);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const csvRow = page.getByTestId("import-row").filter({ hasText: "CSV file" }).first();
    await shown(csvRow.locator(".pill-succeeded"), 20_000);
    await shown(csvRow.getByText(/2 contacts · 1 company /));
    await csvRow.getByText("1 problem").click();
    await shown(csvRow.getByText('row 3: E-mail: "not-an-email" is not an email address.'));
    expect(await page.getByTestId("import-row").count()).toBe(2);
  },
  90_000,
);
