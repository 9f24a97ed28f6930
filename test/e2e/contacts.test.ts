/**
 * Contacts with several addresses and their merge, and the CSV exports, in a real browser against
 * dist/desk: an agent adds and removes a contact's addresses (a taken one is refused at the field),
 * merges a suggested duplicate and a contact found by its address after confirming, and downloads the inbox, contacts and companies
 * lists as CSV files holding what the screen shows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
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

const STEP = 45_000;
let desk: RunningDesk;
let browser: Browser;
let page: Page;
let headers: Record<string, string> = {};
const owner = { name: "Olivia Owner", email: "olivia@contacts.test", password: "correct horse battery" };

const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  const res = await call<T>(desk.url, method, path, headers, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Clicks "Export CSV" and answers the downloaded file's name and records (after checking the BOM). */
async function exportCsv(): Promise<{ name: string; rows: Record<string, string>[] }> {
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await readFile((await file.path())!));
  expect(text.startsWith("\uFEFF")).toBe(true);
  return { name: file.suggestedFilename(), rows: parse(text.slice(1), { columns: true }) };
}

describe.skipIf(!ready.ok)("contacts and exports (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    headers = (await ownerWithWorkspace(desk.url, owner, "Contacts")).headers;
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "a contact's addresses are added and removed; a suggested duplicate and a searched contact merge after confirming",
    async () => {
      const pat = await api("POST", "/v1/contacts", { name: "Pat Park", email: "pat@acme.test" });
      const twin = await api("POST", "/v1/contacts", { name: "Pat Park", emails: ["p.park@acme.test"] });
      const ticket = await api("POST", "/v1/tickets", {
        subject: "Printer jam",
        contact_id: twin.id,
        kind: "note",
        body_html: "<p>Called.</p>",
      });
      await page.goto(`${desk.url}/contacts/${pat.id}`);
      const emails = page.getByRole("region", { name: "Emails" });
      await shown(emails.getByText("pat@acme.test"));

      await emails.getByLabel("Add email").fill("pat@home.test");
      await emails.getByRole("button", { name: "Add", exact: true }).click();
      await shown(emails.getByText("pat@home.test"));
      await eventually(
        async () => (await api("GET", `/v1/contacts/${pat.id}`)).emails,
        ["pat@acme.test", "pat@home.test"],
      );

      // The duplicate's address is taken: refused beside the field, nothing stored.
      await emails.getByLabel("Add email").fill("p.park@acme.test");
      await emails.getByRole("button", { name: "Add", exact: true }).click();
      await shown(emails.getByRole("alert").filter({ hasText: "another contact has this email" }));
      expect((await api("GET", `/v1/contacts/${pat.id}`)).emails).toEqual(["pat@acme.test", "pat@home.test"]);

      await emails.getByRole("button", { name: "Remove pat@home.test" }).click();
      await eventually(async () => (await api("GET", `/v1/contacts/${pat.id}`)).emails, ["pat@acme.test"]);

      const duplicates = page.getByRole("region", { name: "Possible duplicates" });
      await duplicates.getByRole("button", { name: "Merge… p.park@acme.test into this contact" }).click();
      const dialog = page.getByRole("dialog", { name: "Merge contacts" });
      await shown(dialog.getByText("This cannot be undone."));
      // Cancel leaves both contacts as they were.
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await call(desk.url, "GET", `/v1/contacts/${twin.id}`, headers)).status).toBe(200);

      await duplicates.getByRole("button", { name: "Merge… p.park@acme.test into this contact" }).click();
      await dialog.getByRole("button", { name: "Merge", exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await shown(emails.getByText("p.park@acme.test"));
      await shown(page.getByRole("link", { name: `#${ticket.number} Printer jam` }));
      await duplicates.waitFor({ state: "detached" });
      expect((await call(desk.url, "GET", `/v1/contacts/${twin.id}`, headers)).status).toBe(404);
      expect((await api("GET", `/v1/tickets/${ticket.id}`)).contact.id).toBe(pat.id);

      // A contact no suggestion names is found by an address and merged the same way.
      const other = await api("POST", "/v1/contacts", { name: "P. Park (old)", email: "pp@elsewhere.test" });
      const search = page.getByRole("region", { name: "Merge another contact into this one" });
      await search.getByRole("searchbox", { name: "Find a contact to merge" }).fill("pp@elsewhere");
      await search.getByRole("button", { name: "Merge… pp@elsewhere.test into this contact" }).click();
      await dialog.getByRole("button", { name: "Merge", exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await shown(emails.getByText("pp@elsewhere.test"));
      expect((await call(desk.url, "GET", `/v1/contacts/${other.id}`, headers)).status).toBe(404);
      expect((await api("GET", `/v1/contacts/${pat.id}`)).emails).toEqual([
        "pat@acme.test",
        "p.park@acme.test",
        "pp@elsewhere.test",
      ]);
    },
    STEP,
  );

  test(
    "Export CSV on the inbox, contacts and companies downloads what the list shows",
    async () => {
      await api("POST", "/v1/companies", { name: "Ünïcode, Ltd.", domain: "unicode.test" });
      await api("POST", "/v1/contacts", { name: '=Zoë, the "formula"', email: "zoe@unicode.test" });
      const pending = await api("POST", "/v1/tickets", {
        subject: 'Waiting on Zoë, "soon"',
        contact: { email: "zoe@unicode.test" },
        kind: "note",
        status: "pending",
        body_html: "<p>x</p>",
      });
      await api("POST", "/v1/tickets", {
        subject: "Still open",
        contact: { email: "zoe@unicode.test" },
        kind: "note",
        body_html: "<p>x</p>",
      });

      await page.goto(`${desk.url}/inbox/pending`);
      await shown(page.getByText("Waiting on Zoë"));
      const inbox = await exportCsv();
      expect(inbox.name).toBe("tickets.csv");
      expect(inbox.rows.map((r) => [r.number, r.subject, r.status])).toEqual([
        [String(pending.number), 'Waiting on Zoë, "soon"', "pending"],
      ]);

      await page.goto(`${desk.url}/contacts`);
      await shown(page.locator(".table"));
      await page.getByRole("searchbox", { name: "Search contacts" }).fill("zoe");
      await shown(page.getByRole("cell", { name: /formula/ }).first());
      const contacts = await exportCsv();
      expect(contacts.name).toBe("contacts.csv");
      expect(contacts.rows.map((r) => [r.name, r.email])).toEqual([['\'=Zoë, the "formula"', "zoe@unicode.test"]]);

      await page.goto(`${desk.url}/companies`);
      await shown(page.locator(".table"));
      const companies = await exportCsv();
      expect(companies.name).toBe("companies.csv");
      expect(companies.rows.map((r) => [r.name, r.domain])).toEqual([["Ünïcode, Ltd.", "unicode.test"]]);
    },
    STEP,
  );
});
