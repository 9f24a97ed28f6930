/**
 * The chat widget on a third-party page, in Chromium against dist/desk: a tiny site on another
 * origin embeds the one tag; the visitor opens the chat and writes; the message appears live in the
 * agent's inbox (with its chat badge); the agent's reply appears live in the widget while an
 * internal note never does; allowed_origins keeps other sites out; axe finds nothing serious in the
 * open widget; host-page CSS does not reach inside it, and a host page's strict CSP does not break it.
 * DESK_SCREENSHOTS=1 also writes docs/screenshots/widget.png and widget-settings.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AxeResults } from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  call,
  browserTestsReady,
  launchChromium,
  ownerWithWorkspace,
  ROOT,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 60_000;
const shots = process.env.DESK_SCREENSHOTS === "1";
async function screenshot(page: Page, name: string) {
  if (!shots) return;
  const dir = join(ROOT, "docs", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}
const AXE_SOURCE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");
let desk: RunningDesk;
let browser: Browser;
let site: ReturnType<typeof Bun.serve>;
let otherSite: ReturnType<typeof Bun.serve>;
const contexts: BrowserContext[] = [];
const owner = { name: "Olga Owner", email: "olga@widget.test", password: "correct horse battery" };
let headers: Record<string, string> = {};
let widgetKey = "";

/**
 * A customer's website on its own origin, whose CSS tries hard to restyle everything, under a
 * strict CSP of its own (no inline styles or scripts; Desk allowed for the script and its calls).
 */
function customerSite(): ReturnType<typeof Bun.serve> {
  const desksWs = desk.url.replace(/^http/, "ws");
  const csp = `default-src 'self'; script-src ${desk.url}; connect-src ${desk.url} ${desksWs}; img-src ${desk.url} data:; style-src 'self'`;
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) =>
      new URL(request.url).pathname === "/site.css"
        ? new Response(
            "* { font-family: monospace !important; color: #7a0000 !important; } button { display: none !important; }",
            {
              headers: { "content-type": "text/css" },
            },
          )
        : new Response(
            `<!doctype html><html lang="en"><head><title>Shop</title><link rel="stylesheet" href="/site.css"></head>
<body><main><h1>Our shop</h1><p>Welcome.</p></main>
<script src="${desk.url}/widget.js" data-key="${widgetKey}" async></script></body></html>`,
            { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": csp } },
          ),
  });
}

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

describe.skipIf(!ready.ok)("chat widget in a browser", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    const made = await ownerWithWorkspace(desk.url, owner, "Widget Co");
    headers = made.headers;
    const workspace = await call(desk.url, "GET", "/v1/workspace", headers);
    widgetKey = workspace.body.widget_key;
    await call(desk.url, "PATCH", "/v1/workspace", headers, { settings: { brand_color: "#0b6e4f" } });
    site = customerSite();
    otherSite = customerSite();
  }, STEP);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close().catch(() => {});
    site?.stop(true);
    otherSite?.stop(true);
    await desk?.stop();
  });

  test(
    "a visitor on another origin chats; the agent sees it live; the reply arrives live; a note never does",
    async () => {
      // The agent, signed in, on the inbox.
      const agent = await newPage();
      await signIn(agent, desk.url, owner);
      await shown(agent.locator("[data-testid=live][data-state=live]"), 15_000);

      // The visitor on the customer's site (another origin than Desk's).
      const visitor = await newPage();
      const violations: string[] = [];
      visitor.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await visitor.goto(`http://127.0.0.1:${site.port}/`);
      expect(new URL(visitor.url()).origin).not.toBe(new URL(desk.url).origin);
      const launcher = visitor.getByRole("button", { name: "Open chat" });
      await shown(launcher);
      // The host page's CSS hides every button and paints text red: not inside the widget's shadow root.
      expect(await launcher.isVisible()).toBe(true);
      expect(await launcher.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(11, 110, 79)");
      expect(await launcher.evaluate((b) => getComputedStyle(b).color)).toBe("rgb(255, 255, 255)");
      await launcher.click();
      const box = visitor.getByRole("textbox", { name: "Message" });
      await shown(box);
      await box.fill("Hello, where is my order #123?");
      await box.press("Enter");
      const mine = visitor.locator(".msg.in", { hasText: "where is my order" });
      await shown(mine);
      expect(await mine.evaluate((m) => getComputedStyle(m).color)).toBe("rgb(31, 35, 40)");
      expect(await mine.evaluate((m) => getComputedStyle(m).fontFamily)).not.toContain("monospace");

      // Live in the agent's inbox, marked as a chat.
      const row = agent.locator(".ticket-row", { hasText: "Hello, where is my order #123?" });
      await shown(row, 10_000);
      await shown(row.getByTestId("chat-badge"));

      // The visitor typing shows on the inbox row too.
      await box.fill("still here");
      await shown(row.getByTestId("chat-badge").filter({ hasText: "typing" }), 10_000);
      await box.fill("");

      // The agent answers through the API: a note first, then a reply.
      const tickets = await call(desk.url, "GET", "/v1/tickets", headers);
      const ticket = tickets.body.data.find((t: { subject: string }) => t.subject.includes("where is my order"));
      expect(ticket.channel).toBe("chat");
      const note = await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
        kind: "note",
        body_html: "<p>Internal: customer seems upset</p>",
      });
      expect(note.status).toBe(201);
      const reply = await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
        kind: "reply",
        body_html:
          '<p>It ships tomorrow! Track it at <a href="https://track.example/123">https://track.example/123</a>.</p>',
      });
      expect(reply.status).toBe(201);
      const answer = visitor.locator(".msg.out", { hasText: "It ships tomorrow!" });
      await shown(answer, 10_000);
      expect(await answer.getByRole("link", { name: "https://track.example/123" }).getAttribute("href")).toBe(
        "https://track.example/123",
      );
      expect(
        await visitor.locator("[data-desk-widget]").evaluate((h) => h.shadowRoot?.textContent ?? ""),
      ).not.toContain("Internal");

      // A picture sent from the widget: uploaded, attached to the next message, shown in the thread.
      await visitor.locator("[data-desk-widget] input[type=file]").setInputFiles({
        name: "receipt.png",
        mimeType: "image/png",
        buffer: PNG,
      });
      await shown(visitor.getByText("Attached: receipt.png"));
      await box.fill("Here is my receipt");
      await box.press("Enter");
      await shown(
        visitor.locator(".msg.in", { hasText: "Here is my receipt" }).getByRole("link", { name: "receipt.png" }),
      );
      await screenshot(visitor, "widget");
      expect(violations).toEqual([]);
      // The agent's ticket page shows the visitor typing, live. Their reply took the ticket (assign_on_reply):
      // it left Unassigned for Mine.
      await agent.getByRole("link", { name: /^Mine/ }).click();
      await row.click();
      await shown(agent.locator(".msg", { hasText: "where is my order" }));
      await box.fill("One more question");
      await shown(agent.getByTestId("visitor-typing").filter({ hasText: "is typing" }), 10_000);
      // The agent answers from the composer: the visitor sees them typing, then the chat reply, live (no email).
      const reply2 = agent.getByRole("textbox", { name: "Reply" });
      await reply2.click();
      await reply2.pressSequentially("Let me check");
      await shown(visitor.getByText("Widget Co is typing…"), 10_000);
      await agent
        .getByRole("button", { name: /^Send reply/ })
        .first()
        .click();
      await shown(visitor.locator(".msg.out", { hasText: "Let me check" }), 10_000);

      if (shots) {
        await agent.goto(`${desk.url}/settings/widget`);
        await shown(agent.getByTestId("widget-snippet"));
        await screenshot(agent, "widget-settings");
      }
      // The open widget passes axe (WCAG A/AA, no critical or serious violations).
      await visitor.evaluate(AXE_SOURCE);
      const results = (await visitor.evaluate(() =>
        (window as unknown as { axe: { run(c: Document, o: object): Promise<unknown> } }).axe.run(document, {
          runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
          resultTypes: ["violations"],
        }),
      )) as AxeResults;
      const serious = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

      // Closing with Escape returns focus to the launcher; a reply while closed raises the unread badge.
      await box.press("Escape");
      expect(
        await visitor.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute("aria-label")),
      ).toBe("Open chat");
      await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
        kind: "reply",
        body_html: "<p>Anything else?</p>",
      });
      await shown(visitor.getByRole("button", { name: "Open chat, 1 unread" }), 10_000);
    },
    STEP * 2,
  );

  test(
    "after the socket drops, the widget reconnects and catches up on the reply it missed",
    async () => {
      const page = await newPage();
      // Keep a handle on the widget's sockets so the test can cut one (an init script is not subject to the page's CSP).
      await page.addInitScript(() => {
        const sockets: WebSocket[] = [];
        (window as unknown as { __sockets: WebSocket[] }).__sockets = sockets;
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(url: string | URL, protocols?: string | string[]) {
            super(url, protocols);
            sockets.push(this);
          }
        };
      });
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.getByRole("button", { name: "Open chat" }).click();
      const box = page.getByRole("textbox", { name: "Message" });
      await box.fill("Is anyone there?");
      await box.press("Enter");
      await shown(page.locator(".msg.in", { hasText: "Is anyone there?" }));
      const tickets = await call(desk.url, "GET", "/v1/tickets", headers);
      const ticket = tickets.body.data.find((t: { subject: string }) => t.subject === "Is anyone there?");
      await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
        kind: "reply",
        body_html: "<p>Yes!</p>",
      });
      await shown(page.locator(".msg.out", { hasText: "Yes!" }), 10_000);
      // Cut the socket, answer while it is down, and the answer still arrives.
      await page.evaluate(() => (window as unknown as { __sockets: WebSocket[] }).__sockets.at(-1)?.close());
      await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
        kind: "reply",
        body_html: "<p>Sent while you were away</p>",
      });
      await shown(page.locator(".msg.out", { hasText: "Sent while you were away" }), 15_000);
      const urls = await page.evaluate(() =>
        (window as unknown as { __sockets: WebSocket[] }).__sockets.map((w) => w.url),
      );
      expect(urls.length).toBeGreaterThanOrEqual(2);
      expect(urls.at(-1)).toContain("since=");
      expect(await page.locator(".msg.out", { hasText: "Sent while you were away" }).count()).toBe(1);
    },
    STEP,
  );

  test(
    "/widget.js redirects to a versioned file cached for a year, open to every origin",
    async () => {
      const first = await fetch(`${desk.url}/widget.js`, { redirect: "manual" });
      expect(first.status).toBe(302);
      expect(first.headers.get("cache-control")).toBe("public, max-age=300");
      const location = first.headers.get("location")!;
      expect(location).toMatch(/^\/widget\/[0-9a-f]{16}\.js$/);
      const file = await fetch(`${desk.url}${location}`, { headers: { origin: "https://anyone.example" } });
      expect(file.status).toBe(200);
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(file.headers.get("access-control-allow-origin")).toBe("*");
      expect(file.headers.get("content-type")).toStartWith("text/javascript");
      const gzipped = Bun.gzipSync(new Uint8Array(await file.arrayBuffer())).byteLength;
      console.log(`widget.js served: ${gzipped} bytes gzipped`);
      expect(gzipped).toBeLessThan(40 * 1024);
      expect((await fetch(`${desk.url}/widget/0000000000000000.js`)).status).toBe(404);
    },
    STEP,
  );

  test(
    "require_email: a new visitor gives an email before the first message; it reaches the contact",
    async () => {
      expect((await call(desk.url, "PATCH", "/v1/widget/settings", headers, { require_email: true })).status).toBe(200);
      const page = await newPage();
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.getByRole("button", { name: "Open chat" }).click();
      const email = page.getByRole("textbox", { name: "Email" });
      await shown(email);
      expect(await page.getByRole("textbox", { name: "Message" }).count()).toBe(0);
      await email.fill("nina@buyer.test");
      await page.getByRole("textbox", { name: "Name (optional)" }).fill("Nina");
      await page.getByRole("button", { name: "Start chat" }).click();
      const box = page.getByRole("textbox", { name: "Message" });
      await shown(box);
      await box.fill("Do you ship to Norway?");
      await page.getByRole("button", { name: "Send" }).click();
      await shown(page.locator(".msg.in", { hasText: "Norway" }));
      const contacts = await call(desk.url, "GET", "/v1/contacts?q=nina%40buyer.test", headers);
      expect(contacts.body.data.map((c: { email: string; name: string }) => [c.email, c.name])).toEqual([
        ["nina@buyer.test", "Nina"],
      ]);
      // Reloading resumes the same visitor without asking again.
      await page.reload();
      await page.getByRole("button", { name: "Open chat" }).click();
      const listed = page.getByRole("list", { name: "Your conversations" }).getByRole("button", { name: /Norway/ });
      await shown(listed);
      await listed.click();
      await shown(page.locator(".msg.in", { hasText: "Norway" }));
      expect(await page.getByRole("textbox", { name: "Email" }).count()).toBe(0);
      await call(desk.url, "PATCH", "/v1/widget/settings", headers, { require_email: false });
    },
    STEP,
  );

  test(
    "a reply that arrives while the visitor is elsewhere marks its conversation until opened, across reloads",
    async () => {
      const page = await newPage();
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.getByRole("button", { name: "Open chat" }).click();
      const box = page.getByRole("textbox", { name: "Message" });
      await shown(box);
      await box.fill("Where is my parcel 77?");
      await page.getByRole("button", { name: "Send" }).click();
      await shown(page.locator(".msg.in", { hasText: "parcel 77" }));
      await page.getByRole("button", { name: "All conversations" }).click();
      const row = page.getByRole("list", { name: "Your conversations" }).getByRole("button", { name: /parcel 77/ });
      await shown(row);
      expect(await row.textContent()).not.toContain("New reply");

      const tickets = await call(desk.url, "GET", "/v1/tickets", headers);
      const ticket = tickets.body.data.find((t: { subject: string }) => t.subject.includes("parcel 77"));
      const reply = await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, headers, {
        kind: "reply",
        body_html: "<p>It left the depot this morning.</p>",
      });
      expect(reply.status).toBe(201);
      // Live: the list shows the conversation as new, and so does a later visit.
      await shown(row.getByText("New reply"));
      await page.reload();
      await page.getByRole("button", { name: /Open chat/ }).click();
      await shown(row.getByText("New reply"));
      // Read once, it is not new any more, here or after a reload.
      await row.click();
      await shown(page.locator(".msg.out", { hasText: "left the depot" }));
      await page.getByRole("button", { name: "All conversations" }).click();
      await shown(row);
      expect(await row.textContent()).not.toContain("New reply");
      await page.reload();
      await page.getByRole("button", { name: /Open chat/ }).click();
      await shown(row);
      expect(await row.textContent()).not.toContain("New reply");
    },
    STEP,
  );

  test(
    "allowed_origins keeps the widget off a site not listed",
    async () => {
      const saved = await call(desk.url, "PATCH", "/v1/widget/settings", headers, {
        allowed_origins: [`http://127.0.0.1:${site.port}`],
      });
      expect(saved.status).toBe(200);
      const page = await newPage();
      const refused: number[] = [];
      page.on("response", (r) => {
        if (r.url().endsWith("/v1/widget/session")) refused.push(r.status());
      });
      await page.goto(`http://127.0.0.1:${otherSite.port}/`);
      const launcher = page.getByRole("button", { name: "Open chat" });
      // The config answer is kept from the page by CORS: no launcher appears at all.
      await page.waitForTimeout(1500);
      expect(await launcher.count()).toBe(0);
      const listed = await newPage();
      await listed.goto(`http://127.0.0.1:${site.port}/`);
      await shown(listed.getByRole("button", { name: "Open chat" }));
    },
    STEP,
  );
});
