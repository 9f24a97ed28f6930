/**
 * "Show quoted text": an inbound reply is shown trimmed, and the toggle reveals the whole body the
 * customer sent (quoted history included), loaded from the stored original. Chromium against dist/desk.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { call, browserTestsReady, launchChromium, type RunningDesk, shown, startDeskBinary } from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const SECRET = "quoted-text-inbound-secret";
const owner = { name: "Olivia Owner", email: "olivia@example.test", password: "correct horse battery" };
let desk: RunningDesk;
let browser: Browser;
let page: Page;

const inbound = (raw: string) =>
  fetch(`${desk.url}/v1/inbound/email?to=support%40acme.test`, {
    method: "POST",
    headers: { "content-type": "message/rfc822", "desk-inbound-secret": SECRET },
    body: raw,
  });
const mail = (id: string, body: string, inReplyTo?: string) =>
  [
    "From: Carla <carla@customer.test>",
    "To: support@acme.test",
    `Subject: ${inReplyTo ? "Re: " : ""}Export spins`,
    `Message-ID: <${id}@customer.test>`,
    ...(inReplyTo ? [`In-Reply-To: <${inReplyTo}@customer.test>`] : []),
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\r\n");

describe.skipIf(!ready.ok)("show quoted text (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary({ DESK_INBOUND_SECRET: SECRET });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(8000);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "a trimmed reply reveals and hides its quoted history",
    async () => {
      await page.goto(desk.url);
      await page.waitForURL(/\/setup$/);
      await page.getByLabel("Your name").fill(owner.name);
      await page.getByLabel("Email").fill(owner.email);
      await page.getByLabel("Password").fill(owner.password);
      await page.getByLabel("Workspace name").fill("Acme Support");
      await page.getByRole("button", { name: "Create account and workspace" }).click();
      await page.waitForURL(/\/inbox\//);

      const login = await call(
        desk.url,
        "POST",
        "/v1/auth/login",
        {},
        { email: owner.email, password: owner.password },
      );
      const headers = { authorization: `Bearer ${login.body.access_token}` };
      const me = await call(desk.url, "GET", "/v1/me", headers);
      const workspaceId: string = me.body.workspaces[0].id;
      const created = await call(
        desk.url,
        "POST",
        "/v1/mailboxes",
        { ...headers, "desk-workspace": workspaceId },
        { name: "Support", email: "support@acme.test" },
      );
      expect(created.status).toBe(201);

      expect((await inbound(mail("first", "The export button spins forever."))).status).toBe(202);
      const reply = await inbound(
        mail(
          "second",
          "Still spinning after the update.\r\n\r\nOn Mon, Nov 23, 2026 at 9:00 AM, Acme <support@acme.test> wrote:\r\n> Please try again after the update.",
          "first",
        ),
      );
      expect(((await reply.json()) as { status: string }).status).toBe("appended");

      await page.goto(`${desk.url}/tickets/1`);
      const trimmed = page.locator(".msg", { hasText: "Still spinning after the update." });
      await shown(trimmed);
      expect(await trimmed.locator(".msg-body").textContent()).not.toContain("Please try again");
      await trimmed.getByRole("button", { name: "Show quoted text" }).click();
      await shown(trimmed.locator(".quoted-full", { hasText: "> Please try again after the update." }));
      expect(await trimmed.locator(".quoted-full").textContent()).toContain("Still spinning after the update.");
      await trimmed.getByRole("button", { name: "Hide quoted text" }).click();
      expect(await trimmed.locator(".quoted-full").count()).toBe(0);
      // The first message had nothing quoted: no toggle.
      expect(
        await page
          .locator(".msg", { hasText: "The export button spins forever." })
          .getByRole("button", { name: "Show quoted text" })
          .count(),
      ).toBe(0);
    },
    STEP * 2,
  );
});
