/**
 * Your picture on the profile page, in a real browser against the real executable: a chosen file is
 * uploaded, processed by sharp inside dist/desk and shown; an SVG is refused with the server's message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { call, ensureBinary, launchChromium, type RunningDesk, shown, startDeskBinary } from "./browser";

const ready = ensureBinary();
if (!ready.ok && ready.missing === "chromium") console.warn(`\n*** SKIPPING the browser tests: ${ready.reason} ***\n`);
if (!ready.ok && ready.missing === "build") {
  test("dist/desk builds for the browser tests", () => {
    throw new Error(ready.reason);
  });
}

const STEP = 30_000;
const person = { name: "Pia Picture", email: "pia@example.test", password: "picture password 1" };
let desk: RunningDesk;
let browser: Browser;

describe.skipIf(!ready.ok)("profile picture (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    const registered = await call(desk.url, "POST", "/v1/auth/register", {}, person);
    expect(registered.status).toBe(201);
    const created = await call(
      desk.url,
      "POST",
      "/v1/workspaces",
      { authorization: `Bearer ${registered.body.access_token}` },
      { name: "Picture Co" },
    );
    expect(created.status).toBe(201);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "upload a picture: shown at 256 px; an SVG is refused; removing it brings the initials back",
    async () => {
      const page = await browser.newPage();
      page.setDefaultTimeout(8000);
      await page.goto(`${desk.url}/signin`);
      await page.getByLabel("Email").fill(person.email);
      await page.getByLabel("Password").fill(person.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/inbox\//);
      await page.goto(`${desk.url}/profile`);
      await shown(page.getByText("No picture yet"));

      const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#2a9d8f" } })
        .jpeg()
        .toBuffer();
      await page
        .getByLabel("Upload a picture")
        .setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: photo });
      const picture = page.getByRole("img", { name: person.name });
      await shown(picture);
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('section[aria-labelledby="profile-picture"] img');
        return !!img && img.complete && img.naturalWidth === 256 && img.naturalHeight === 256;
      });
      expect(await picture.getAttribute("src")).toContain("/v1/images/");

      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>');
      await page.getByLabel("Upload a picture").setInputFiles({ name: "evil.png", mimeType: "image/png", buffer: svg });
      await shown(page.getByText("Send a PNG, JPEG, GIF or WebP picture").first());

      await page.getByRole("button", { name: "Remove picture" }).click();
      await shown(page.getByText("No picture yet"));
      await page.close();
    },
    STEP,
  );
});
