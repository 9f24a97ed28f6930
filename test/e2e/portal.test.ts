/**
 * The customer portal and the contact form in Chromium against dist/desk, on a desktop and on a phone
 * (390×844): "Contact us" on the help center leads to the contact form, whose proof-of-work the page
 * solves before sending (with a file); the confirmation mail links to the request in the portal; the
 * customer signs in there by an emailed one-time link, reads the agent's reply (never the note),
 * answers with a file, and opens a new request. On the phone no page scrolls sideways. The agent
 * then finds the customer's reply and file on the ticket in the web app, whose replies are mailed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import {
  browserTestsReady,
  call,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();
const STEP = 60_000;
const owner = { name: "Pia Owner", email: "pia@portal.test", password: "correct horse battery" };

let desk: RunningDesk;
let browser: Browser;
let headers: Record<string, string> = {};
let slug = "";

/** The newest link in the mail to `address` whose path has `marker`, once the mail job has written it. */
async function linkInMail(address: string, marker: string, after: number): Promise<string> {
  const outbox = join(desk.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    const files = existsSync(outbox) ? readdirSync(outbox).sort() : [];
    const links: string[] = [];
    for (const file of files.slice(after)) {
      const raw = readFileSync(join(outbox, file), "utf8");
      if (!raw.includes(address)) continue;
      const text = (await simpleParser(raw)).text ?? "";
      const found = new RegExp(`(http://\\S+${marker}\\S*)`).exec(text)?.[1];
      if (found) links.push(found);
    }
    if (links.length) return links.at(-1)!;
    await Bun.sleep(100);
  }
  throw new Error(`no mail to ${address} with ${marker}`);
}

const outboxSize = () => {
  const outbox = join(desk.dataDir, "outbox");
  return existsSync(outbox) ? readdirSync(outbox).length : 0;
};

async function noSidewaysScroll(page: Page): Promise<void> {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  expect({ url: page.url(), wide }).toEqual({ url: page.url(), wide: false });
}

describe.skipIf(!ready.ok)("customer portal and contact form (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Portal Co"));
    slug = (await call(desk.url, "GET", "/v1/workspace", headers)).body.slug;
    await call(desk.url, "PATCH", "/v1/workspace", headers, {
      settings: { help_center_enabled: true, brand_color: "#0b6e4f" },
    });
    const mailbox = await call(desk.url, "POST", "/v1/mailboxes", headers, {
      name: "Support",
      email: "support@portal.test",
    });
    expect(mailbox.status).toBe(201);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  for (const device of [
    { name: "desktop", viewport: { width: 1280, height: 800 } },
    { name: "phone", viewport: { width: 390, height: 844 } },
  ]) {
    test(
      `on a ${device.name}: contact form, confirmation mail, portal sign-in, reply with a file, new request`,
      async () => {
        const email = `customer-${device.name}@portal.test`;
        const context = await browser.newContext({ viewport: device.viewport });
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        // The pages' policy allows no inline script or style: any refusal would show here.
        const violations: string[] = [];
        page.on("console", (message) => {
          if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
        });
        page.on("pageerror", (error) => violations.push(String(error)));
        try {
          await page.goto(`${desk.url}/help/${slug}`);
          await page.getByRole("link", { name: "Contact us" }).click();
          await shown(page.getByRole("heading", { name: "Contact us" }));
          await noSidewaysScroll(page);
          // Themed like the help center: its stylesheet (the brand colour) loaded under the policy.
          // The stylesheet is a separate request that may land after the heading shows: wait for it (bounded).
          await page
            .waitForFunction(
              () => getComputedStyle(document.querySelector("header.site")!).backgroundColor === "rgb(11, 110, 79)",
              undefined,
              { timeout: 5000 },
            )
            .catch(() => undefined);
          expect(
            await page.evaluate(() => getComputedStyle(document.querySelector("header.site")!).backgroundColor),
          ).toBe("rgb(11, 110, 79)");
          await page.getByLabel("Your name").fill(`Casey ${device.name}`);
          await page.getByLabel("Email address").fill(email);
          await page.getByLabel("Subject").fill(`Order missing (${device.name})`);
          await page.getByLabel("How can we help?").fill("My order <b>1234</b> has not arrived.");
          await page.getByLabel(/Attach a file/).setInputFiles({
            name: "receipt.txt",
            mimeType: "text/plain",
            buffer: Buffer.from("Order 1234, paid"),
          });
          let mails = outboxSize();
          await page.getByRole("button", { name: "Send message" }).click();
          await shown(page.getByRole("heading", { name: "Thank you" }));

          // The agent answers and leaves a note the customer must never see.
          const list = await call(desk.url, "GET", `/v1/tickets?channel=portal&limit=100`, headers);
          const ticket = list.body.data.find(
            (t: { subject: string }) => t.subject === `Order missing (${device.name})`,
          );
          expect(ticket.contact.email).toBe(email);
          const confirmation = await linkInMail(email, `/portal/${slug}/tickets/`, mails);
          expect(confirmation).toBe(`${desk.url}/portal/${slug}/tickets/${ticket.number}`);
          await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
            kind: "note",
            body_html: "<p>Internal: refund if lost</p>",
          });
          await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
            kind: "reply",
            body_html: "<p>We are tracking your parcel.</p>",
          });

          // The portal link from the mail asks the customer to sign in by a one-time link.
          await page.goto(confirmation);
          await shown(page.getByRole("button", { name: "Email me a sign-in link" }));
          await noSidewaysScroll(page);
          mails = outboxSize();
          await page.getByLabel("Email address").fill(email);
          await page.getByRole("button", { name: "Email me a sign-in link" }).click();
          await shown(page.getByRole("heading", { name: "Check your email" }));
          const signInLink = await linkInMail(email, `/portal/${slug}/sign-in/`, mails);
          await page.goto(signInLink);
          await page.getByRole("button", { name: "Continue" }).click();
          await shown(page.getByRole("heading", { name: "Your requests" }));
          await noSidewaysScroll(page);
          await page.getByRole("link", { name: `Order missing (${device.name})` }).click();
          await shown(page.getByText("We are tracking your parcel."));
          expect(await page.getByText("Internal: refund if lost").count()).toBe(0);
          await expect(page.getByText("My order <b>1234</b> has not arrived.").count()).resolves.toBe(1);
          await noSidewaysScroll(page);

          await page.getByLabel("Your reply").fill("Thanks! Here is a photo of the label.");
          await page.getByLabel(/Attach a file/).setInputFiles({
            name: "label.png",
            mimeType: "image/png",
            buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
          });
          await page.getByRole("button", { name: "Send reply" }).click();
          await shown(page.getByText("Thanks! Here is a photo of the label."));
          await shown(page.getByRole("link", { name: "label.png" }));
          const messages = await call(desk.url, "GET", `/v1/tickets/${ticket.id}/messages`, headers);
          const last = messages.body.data.at(-1);
          expect([last.author.type, last.attachments[0]?.filename]).toEqual(["contact", "label.png"]);

          await page.getByRole("link", { name: "Your requests" }).first().click();
          await page.getByRole("link", { name: "New request" }).click();
          await page.getByLabel("Subject").fill(`Second question (${device.name})`);
          await page.getByLabel("How can we help?").fill("Can I change my address?");
          await page.getByRole("button", { name: "Send request" }).click();
          await shown(page.getByRole("heading", { name: `Second question (${device.name})` }));
          await noSidewaysScroll(page);
          const second = await call(desk.url, "GET", `/v1/tickets?channel=portal&limit=100`, headers);
          expect(
            second.body.data.some((t: { subject: string }) => t.subject === `Second question (${device.name})`),
          ).toBe(true);
          await page.getByRole("button", { name: "Sign out" }).click();
          await shown(page.getByRole("button", { name: "Email me a sign-in link" }));
          expect(violations).toEqual([]);

          // The agent's side: the portal ticket in the web app, the customer's file on it, and replies mailed.
          if (device.name === "desktop") {
            const agent = await browser.newPage();
            try {
              await signIn(agent, desk.url, owner);
              await agent.goto(`${desk.url}/tickets/${ticket.number}`);
              await shown(agent.getByText("Thanks! Here is a photo of the label."));
              await shown(agent.getByText("label.png").first());
              expect(await agent.getByText("Replies on this ticket are not emailed", { exact: false }).count()).toBe(0);
            } finally {
              await agent.close();
            }
          }
        } finally {
          await context.close();
        }
      },
      STEP,
    );
  }
});
