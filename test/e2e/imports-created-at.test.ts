/**
 * Settings → Import in a real browser: a CSV whose "Customer since" column is mapped to Created at
 * imports contacts dated from the file, not from the import.
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

const ready = browserTestsReady();

let desk: RunningDesk;
let browser: Browser;
const admin = { name: "Cora Since", email: "cora@since.test", password: "correct horse battery" };

beforeAll(async () => {
  if (!ready.ok) return;
  desk = await startDeskBinary({ DESK_OPEN_SIGNUP: "true" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.stop();
});

test.skipIf(!ready.ok)(
  "a CSV column mapped to Created at dates the imported contacts",
  async () => {
    const { headers } = await ownerWithWorkspace(desk.url, admin, "Since Inc");
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, admin);
    await page.goto(`${desk.url}/settings/import`);
    await page.getByLabel("Source").selectOption("csv-contacts");
    await page.locator('input[name="file"]').setInputFiles({
      name: "customers.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("Email,Name,Customer since\r\nlong@example.test,Long Time,2018-06-01T09:30:00Z\r\n"),
    });
    await page.getByRole("button", { name: "Read columns" }).click();
    const mapping = page.getByRole("group", { name: "Column mapping" });
    await shown(mapping);
    await mapping.getByLabel("Created at").selectOption("Customer since");
    await page.getByRole("button", { name: "Dry run", exact: true }).click();
    await shown(page.getByTestId("csv-dry-run").getByText(/1 to create/));
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const row = page.getByTestId("import-row").filter({ hasText: "CSV file" }).first();
    await shown(row.locator(".pill-succeeded"), 20_000);

    const contacts = (await (await fetch(`${desk.url}/v1/contacts?limit=10`, { headers })).json()).data;
    const long = (contacts as Array<{ email: string; created_at: string }>).find(
      (c) => c.email === "long@example.test",
    );
    expect(long?.created_at).toBe("2018-06-01T09:30:00.000Z");
  },
  60_000,
);
