/**
 * The ticket view's extras in a real browser against dist/desk: snoozed tickets leave the working
 * folders for a Snoozed folder (with a marker and live counts), attachment links refresh
 * themselves and images preview inline, remote images in mail wait for the agent, and two agents
 * on one ticket see each other (viewing, typing) and are warned of a newer reply before sending.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  call,
  browserTestsReady,
  eventually,
  launchChromium,
  memberByInvitation,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 45_000;
const INBOUND_SECRET = "e2e-inbound-secret-0123456789";
let desk: RunningDesk;
let browser: Browser;
const contexts: BrowserContext[] = [];
let workspaceId = "";
const owner = { name: "Olivia Owner", email: "olivia@extras.test", password: "correct horse battery", token: "" };
const agent = { name: "Arthur Agent", email: "arthur@extras.test", password: "battery staple horse", token: "" };
const as = (who: { token: string }) => ({ authorization: `Bearer ${who.token}`, "desk-workspace": workspaceId });

/** A page signed in as `who` (through the sign-in form, like a person). */
async function signedIn(who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  await signIn(page, desk.url, who);
  await shown(page.locator("[data-testid=live][data-state=live]"), 10_000);
  return page;
}

async function newTicket(body: Record<string, unknown>) {
  const res = await call(desk.url, "POST", "/v1/tickets", as(owner), {
    contact: { email: "carla@customer.test", name: "Carla Customer" },
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
}

// A 1×1 PNG (valid, so the browser decodes it and naturalWidth is 1).
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

async function upload(name: string, type: string, bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${desk.url}/v1/attachments`, { method: "POST", headers: as(owner), body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

const imageLoaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

describe.skipIf(!ready.ok)("ticket extras (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary({ DESK_INBOUND_SECRET: INBOUND_SECRET });
    browser = await launchChromium();
    const registered = await ownerWithWorkspace(desk.url, owner, "Extras");
    owner.token = registered.token;
    workspaceId = registered.headers["desk-workspace"]!;
    agent.token = (await memberByInvitation(desk.url, as(owner), agent)).token;
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "snooze: the ticket leaves Unassigned and Open for the Snoozed folder, marked, with live counts",
    async () => {
      const page = await signedIn(owner);
      const ticket = await newTicket({ subject: "Call me back next week", body_html: "<p>Busy until Monday.</p>" });
      await page.getByRole("link", { name: /^Unassigned/ }).click();
      await shown(page.locator(".ticket-row", { hasText: "Call me back next week" }));
      expect(await eventually(() => page.getByTestId("count-unassigned").textContent(), "1")).toBe("1");
      expect(await page.getByTestId("count-snoozed").textContent()).toBe("0");

      await page.locator(".ticket-row", { hasText: "Call me back next week" }).locator(".ticket-main").click();
      await shown(page.getByRole("heading", { name: /Call me back next week/ }));
      await page.getByLabel("Snooze until").fill("2031-03-04T09:30");
      await shown(page.locator(".ticket-head [data-testid=snoozed-mark]"));
      expect(await page.locator(".ticket-head [data-testid=snoozed-mark]").textContent()).toContain("Snoozed until");

      // The working folders no longer hold it; their counts follow without a reload.
      expect(await eventually(() => page.getByTestId("count-unassigned").textContent(), "0")).toBe("0");
      expect(await eventually(() => page.getByTestId("count-open").textContent(), "0")).toBe("0");
      expect(await page.getByTestId("count-snoozed").textContent()).toBe("1");
      await page.getByRole("link", { name: /^Unassigned/ }).click();
      await shown(page.getByText("Nothing here"));
      await page.getByRole("link", { name: /^Open/ }).click();
      await shown(page.getByText("Nothing here"));
      await page.getByRole("link", { name: /^Snoozed/ }).click();
      await shown(page.getByRole("heading", { name: "Snoozed" }));
      const row = page.locator(".ticket-row", { hasText: "Call me back next week" });
      await shown(row);
      expect(await row.getByTestId("snoozed-mark").textContent()).toContain("Snoozed until");

      // Waking it (here: the snooze cleared through the API) brings it back live.
      await call(desk.url, "PATCH", `/v1/tickets/${ticket.id}`, as(owner), { snoozed_until: null });
      expect(await eventually(() => page.getByTestId("count-snoozed").textContent(), "0")).toBe("0");
      expect(await eventually(() => page.getByTestId("count-unassigned").textContent(), "1")).toBe("1");
      await page.context().close();
    },
    STEP,
  );

  test(
    "attachments: images preview inline; expired links are refreshed before use or on failure; PDFs open in the browser",
    async () => {
      const image = await upload("screenshot.png", "image/png", PNG);
      const pdf = await upload("invoice.pdf", "application/pdf", PDF);
      const ticket = await newTicket({ subject: "Invoice attached", body_html: "<p>See attached.</p>" });
      const sent = await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, as(owner), {
        kind: "note",
        body_html: "<p>Files</p>",
        attachment_ids: [image.id, pdf.id],
      });
      expect(sent.status).toBe(201);

      const page = await signedIn(owner);
      // Reads of the messages may hand out links that have already expired (as after six minutes on
      // an open ticket) for the attachments named in `staleFor`; every other link is the server's own.
      const staleFor = new Set<string>([image.id]);
      let reads = 0;
      await page.route(/\/v1\/tickets\/[^/]+\/messages$/, async (route) => {
        reads++;
        const response = await route.fetch();
        const body = (await response.text()).replace(
          /\/v1\/attachments\/([\w-]+)\/content\?token=([\w-]+)\.([\w-]+)\.([\w-]+)/g,
          (all, id: string, header: string, payload: string, signature: string) => {
            if (!staleFor.delete(id)) return all;
            const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
            const expired = Buffer.from(
              JSON.stringify({ ...claims, iat: claims.iat - 900, exp: claims.exp - 900 }),
            ).toString("base64url");
            return `/v1/attachments/${id}/content?token=${header}.${expired}.${signature}`;
          },
        );
        await route.fulfill({ response, body });
      });
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      await shown(page.getByRole("heading", { name: /Invoice attached/ }));
      // The preview's expired link fails (401); fresh links are fetched and the image shows.
      await shown(page.locator(".upload-preview img"));
      expect(await eventually(() => imageLoaded(page, ".upload-preview img"), true)).toBe(true);
      expect(reads).toBeGreaterThanOrEqual(2);
      expect(await page.locator(".upload-preview img").getAttribute("alt")).toBe("screenshot.png");

      // The next read (a colleague's note arrives live) hands the PDF an expired link: clicking it
      // refreshes the links first, so the tab lands on a working one, never on the JSON 401.
      staleFor.add(pdf.id);
      await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, as(owner), {
        kind: "note",
        body_html: "<p>Any update?</p>",
      });
      await shown(page.locator(".msg-body", { hasText: "Any update?" }));
      expect(staleFor.has(pdf.id)).toBe(false);
      const link = page.locator(`.upload[data-attachment-id="${pdf.id}"]`);
      const expOf = (url: string) =>
        JSON.parse(Buffer.from(new URL(url).searchParams.get("token")!.split(".")[1]!, "base64url").toString()).exp *
        1000;
      expect(expOf((await link.getAttribute("href"))!)).toBeLessThan(Date.now());
      const [tab] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
      const landed = await eventually(async () => tab.url().includes(`/v1/attachments/${pdf.id}/content?token=`), true);
      expect(landed).toBe(true);
      expect(expOf(tab.url())).toBeGreaterThan(Date.now());
      const file = await fetch(tab.url());
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("application/pdf");
      expect(file.headers.get("content-disposition")).toStartWith("inline");
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      expect(file.headers.get("content-security-policy")).toContain("default-src 'none'");
      await page.context().close();
    },
    STEP,
  );

  test(
    "remote images wait for the agent (per message, or always for a sender); inline cid images show",
    async () => {
      let hits = 0;
      const tracker = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        fetch: () => {
          hits++;
          return new Response(PNG, { headers: { "content-type": "image/png" } });
        },
      });
      try {
        const mailbox = await call(desk.url, "POST", "/v1/mailboxes", as(owner), {
          name: "Support",
          email: "support@extras.test",
          inbound_kind: "forwarding",
          outbound_kind: "system",
        });
        expect(mailbox.status).toBe(201);
        const html = `<p>Our logo: <img src="cid:logo@mail" alt="inline logo"></p><p>Tracked: <img src="http://127.0.0.1:${tracker.port}/pixel.png" alt="pixel"></p>`;
        const raw = [
          "From: Nora Newsletter <nora@sender.test>",
          "To: support@extras.test",
          "Subject: Our spring offers",
          "Message-ID: <spring-1@sender.test>",
          "MIME-Version: 1.0",
          'Content-Type: multipart/related; boundary="b1"',
          "",
          "--b1",
          "Content-Type: text/html; charset=utf-8",
          "",
          html,
          "--b1",
          "Content-Type: image/png",
          "Content-Transfer-Encoding: base64",
          "Content-ID: <logo@mail>",
          "Content-Disposition: inline; filename=logo.png",
          "",
          PNG.toString("base64"),
          "--b1--",
          "",
        ].join("\r\n");
        const inbound = await fetch(`${desk.url}/v1/inbound/email?to=support@extras.test`, {
          method: "POST",
          headers: { "desk-inbound-secret": INBOUND_SECRET, "content-type": "message/rfc822" },
          body: raw,
        });
        expect(inbound.status).toBe(202);
        const found = await eventually(
          async () => (await call(desk.url, "GET", "/v1/tickets?q=spring", as(owner))).body.data.length,
          1,
        );
        expect(found).toBe(1);
        const number = (await call(desk.url, "GET", "/v1/tickets?q=spring", as(owner))).body.data[0].number;

        const page = await signedIn(owner);
        await page.goto(`${desk.url}/tickets/${number}`);
        await shown(page.getByTestId("remote-images"));
        // The inline image is Desk's own attachment and shows; the remote one was never fetched.
        expect(await eventually(() => imageLoaded(page, 'img[alt="inline logo"]'), true)).toBe(true);
        await Bun.sleep(300);
        expect(hits).toBe(0);
        expect(await page.locator('img[alt="pixel"]').getAttribute("src")).toBeNull();

        // Per message: loads now, not after a reload.
        await page.getByRole("button", { name: "Load images" }).click();
        expect(await eventually(async () => hits, 1)).toBe(1);
        await page.reload();
        await shown(page.getByTestId("remote-images"));
        await Bun.sleep(300);
        expect(hits).toBe(1);

        // Per sender: remembered in this browser.
        await page.getByRole("button", { name: "Always load from nora@sender.test" }).click();
        expect(await eventually(async () => hits, 2)).toBe(2);
        await page.reload();
        await shown(page.locator('img[alt="pixel"]'));
        expect(await eventually(async () => hits, 3)).toBe(3);
        expect(await page.getByTestId("remote-images").count()).toBe(0);
        await page.context().close();
      } finally {
        tracker.stop(true);
      }
    },
    STEP,
  );

  test(
    "collision: each agent sees the other viewing and typing; a newer reply is flagged before sending",
    async () => {
      const ticket = await newTicket({ subject: "Two agents, one ticket", body_html: "<p>Where is my parcel?</p>" });
      const olivia = await signedIn(owner);
      const arthur = await signedIn(agent);
      await olivia.goto(`${desk.url}/tickets/${ticket.number}`);
      await arthur.goto(`${desk.url}/tickets/${ticket.number}`);
      await shown(olivia.getByTestId("presence"));
      expect(await olivia.getByTestId("presence").textContent()).toContain("Arthur Agent is also viewing");
      await shown(arthur.getByTestId("presence"));
      expect(await arthur.getByTestId("presence").textContent()).toContain("Olivia Owner is also viewing");

      // Arthur starts a reply: Olivia sees him typing.
      await arthur.getByLabel("Reply", { exact: true }).fill("Hi Carla, let me check");
      await shown(olivia.getByText("Arthur Agent is typing a reply…"));

      // Olivia answers first; Arthur is warned before his reply goes out.
      await olivia.getByLabel("Reply", { exact: true }).fill("Hi Carla, it ships tomorrow.");
      await olivia.getByRole("button", { name: "Send reply" }).click();
      await shown(olivia.locator(".msg-body", { hasText: "it ships tomorrow" }));
      await arthur.getByRole("button", { name: "Send reply" }).click();
      await shown(arthur.getByTestId("reply-collision"));
      expect(await arthur.getByTestId("reply-collision").textContent()).toContain("A newer reply arrived");
      const count = async () =>
        (await call(desk.url, "GET", `/v1/tickets/${ticket.id}/messages`, as(owner))).body.data.length;
      expect(await count()).toBe(2);
      // Reviewing keeps the draft; the next send goes through.
      await arthur.getByRole("button", { name: "Review it first" }).click();
      expect(await arthur.getByLabel("Reply", { exact: true }).inputValue()).toBe("Hi Carla, let me check");
      await arthur.getByRole("button", { name: "Send reply" }).click();
      expect(await eventually(count, 3)).toBe(3);
      expect(await arthur.getByTestId("reply-collision").count()).toBe(0);

      // Olivia leaves the ticket: Arthur's bar clears.
      await olivia.getByRole("link", { name: /^All tickets/ }).click();
      await arthur.getByTestId("presence").waitFor({ state: "detached" });
    },
    STEP,
  );
});
