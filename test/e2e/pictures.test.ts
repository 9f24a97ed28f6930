/**
 * Pictures in a real browser against the real executable: your own on the profile page, a contact's on
 * its page and the workspace logo in Settings. A chosen file is uploaded, processed by sharp inside
 * dist/desk and shown; an SVG is refused with the server's message.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import {
  call,
  browserTestsReady,
  launchChromium,
  memberByInvitation,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const person = { name: "Pia Picture", email: "pia@example.test", password: "picture password 1" };
let desk: RunningDesk;
let browser: Browser;
let headers: Record<string, string>;
let sites: ReturnType<typeof Bun.serve> | undefined;

async function signedIn() {
  const page = await browser.newPage();
  page.setDefaultTimeout(8000);
  await signIn(page, desk.url, person);
  return page;
}

const png = (background: string) =>
  sharp({ create: { width: 120, height: 80, channels: 3, background } })
    .png()
    .toBuffer();

describe.skipIf(!ready.ok)("pictures (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    const icon = await png("#e76f51");
    // Company websites for automatic logos: /<domain>/apple-touch-icon.png.
    sites = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) =>
        new URL(request.url).pathname === "/initech.test/apple-touch-icon.png"
          ? new Response(icon, { headers: { "content-type": "image/png" } })
          : new Response("no", { status: 404 }),
    });
    desk = await startDeskBinary({
      DESK_DOMAIN_ICONS_URL: `http://127.0.0.1:${sites.port}/{domain}`,
      DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    });
    browser = await launchChromium();
    ({ headers } = await ownerWithWorkspace(desk.url, person, "Picture Co"));
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    sites?.stop(true);
  }, STEP);

  test(
    "upload a picture: shown at 256 px; an SVG is refused; removing it brings the initials back",
    async () => {
      const page = await signedIn();
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

  test(
    "a contact's picture: uploaded on its page, shown there and in the contact list; an SVG is refused",
    async () => {
      const contact = await call(desk.url, "POST", "/v1/contacts", headers, { name: "Carla Contact" });
      expect(contact.status).toBe(201);
      const page = await signedIn();
      await page.goto(`${desk.url}/contacts/${contact.body.id}`);
      await shown(page.getByText("No picture: initials are shown."));

      await page
        .getByLabel("Upload a picture")
        .setInputFiles({ name: "carla.png", mimeType: "image/png", buffer: await png("#e76f51") });
      const picture = page.getByRole("img", { name: "Carla Contact" });
      await shown(picture);
      expect(await picture.getAttribute("src")).toContain("/v1/images/");
      // The page header's avatar shows the picture instead of the initials.
      await page.waitForFunction(() => !!document.querySelector('.page-head img.avatar[src*="/v1/images/"]'));

      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>');
      await page.getByLabel("Upload a picture").setInputFiles({ name: "evil.png", mimeType: "image/png", buffer: svg });
      await shown(page.getByText("Send a PNG, JPEG, GIF or WebP picture").first());

      await page.goto(`${desk.url}/contacts`);
      await page.waitForFunction(() => !!document.querySelector('.cell-name img.avatar[src*="/v1/images/"]'));

      await page.goto(`${desk.url}/contacts/${contact.body.id}`);
      await page.getByRole("button", { name: "Remove picture" }).click();
      await shown(page.getByText("No picture: initials are shown."));
      await page.close();
    },
    STEP,
  );

  test(
    "a company's logo found on its website by itself, and looked up again from its page",
    async () => {
      const company = await call(desk.url, "POST", "/v1/companies", headers, {
        name: "Initech",
        domain: "initech.test",
      });
      expect(company.status).toBe(201);
      const page = await signedIn();
      await page.goto(`${desk.url}/companies/${company.body.id}`);
      await page.waitForFunction(() => !!document.querySelector('.page-head img.avatar[src*="/v1/images/"]'), null, {
        timeout: 15_000,
      });
      await page.getByRole("button", { name: "Look up picture again" }).click();
      await shown(page.getByRole("status").filter({ hasText: "Looking it up" }));
      const stored = await call(desk.url, "GET", `/v1/companies/${company.body.id}`, headers);
      expect(stored.body.avatar_source).toBe("domain");
      await page.close();
    },
    STEP,
  );

  test(
    "a company's picture: uploaded on its page and shown in its header",
    async () => {
      const company = await call(desk.url, "POST", "/v1/companies", headers, { name: "Globex" });
      expect(company.status).toBe(201);
      const page = await signedIn();
      await page.goto(`${desk.url}/companies/${company.body.id}`);
      await page
        .getByLabel("Upload a picture")
        .setInputFiles({ name: "globex.png", mimeType: "image/png", buffer: await png("#2a9d8f") });
      await shown(page.getByRole("img", { name: "Globex" }));
      await page.waitForFunction(() => !!document.querySelector('.page-head img.avatar[src*="/v1/images/"]'));
      await page.close();
    },
    STEP,
  );

  test(
    "workspace pictures in Settings: the logo is uploaded and shown, other slots stay empty, removing clears it",
    async () => {
      const page = await signedIn();
      await page.goto(`${desk.url}/settings/workspace`);
      await page
        .getByLabel("Upload the logo")
        .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await png("#264653") });
      const logo = page.getByRole("img", { name: "Logo", exact: true });
      await shown(logo);
      expect(await logo.getAttribute("src")).toContain("/v1/images/");
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('section[aria-labelledby="workspace-image-logo"] img');
        return !!img && img.complete && img.naturalWidth > 0;
      });
      expect(await page.getByRole("img", { name: "Help center logo" }).count()).toBe(0);
      const stored = await call(desk.url, "GET", "/v1/workspace", headers);
      expect(stored.body.avatar_url).toBe(await logo.getAttribute("src"));

      await page
        .getByLabel("Upload the widget avatar")
        .setInputFiles({ name: "team.png", mimeType: "image/png", buffer: await png("#f4a261") });
      await shown(page.getByRole("img", { name: "Widget avatar" }));

      await page.getByRole("button", { name: "Remove the logo" }).click();
      await shown(page.getByRole("button", { name: "Remove the widget avatar" }));
      await page.waitForFunction(() => !document.querySelector('section[aria-labelledby="workspace-image-logo"] img'));
      await page.close();
    },
    STEP,
  );

  test(
    "faces on a ticket: the assignee's picture beside the assignee picker, teammates' in the @mention suggestions",
    async () => {
      const form = new FormData();
      form.append("file", new File([await png("#e9c46a")], "me.png", { type: "image/png" }));
      const uploaded = await fetch(`${desk.url}/v1/me/avatar`, { method: "PUT", headers, body: form });
      expect(uploaded.status).toBe(200);
      const teammate = { name: "Tomas Teammate", email: "tomas@example.test", password: "teammate password 1" };
      await memberByInvitation(desk.url, headers, teammate);
      const me = await call(desk.url, "GET", "/v1/me", headers);
      const ticket = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Who has this one?",
        assignee_id: me.body.user?.id ?? me.body.id,
      });
      expect(ticket.status).toBe(201);

      const page = await signedIn();
      await page.goto(`${desk.url}/tickets/${ticket.body.number}`);
      await page.waitForFunction(() => !!document.querySelector('.assignee-pick img.avatar[src*="/v1/images/"]'));
      expect(await page.getByLabel("Assignee").inputValue()).toBe(ticket.body.assignee.id);

      await page.getByRole("tab", { name: /Note/ }).click();
      await page.getByLabel("Internal note").fill("Over to you @Tom");
      const option = page.getByRole("listbox", { name: "Mention a teammate" }).getByRole("option").first();
      await shown(option);
      expect(await option.textContent()).toContain("@Tomas Teammate");
      expect(await option.locator(".avatar").count()).toBe(1);
      await page.close();
    },
    STEP,
  );
});
