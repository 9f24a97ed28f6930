/**
 * Settings → Webhooks in a real browser against dist/desk: an endpoint that fails every delivery
 * (a real HTTP receiver answering 500) is paused after five failures in a row, and the admin sees
 * the pause on its card; an endpoint in good health shows nothing of the kind.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
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

let desk: RunningDesk;
let browser: Browser;
const failing = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("down", { status: 500 }) });
const healthy = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
const admin = { name: "Wanda Webhook", email: "wanda@webhooks.test", password: "correct horse battery" };

beforeAll(async () => {
  if (!ready.ok) return;
  desk = await startDeskBinary({ DESK_OPEN_SIGNUP: "true", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  failing.stop(true);
  healthy.stop(true);
});

test.skipIf(!ready.ok)(
  "an endpoint failing five times in a row shows as paused on its card",
  async () => {
    const owner = await ownerWithWorkspace(desk.url, admin, "Hooks Inc");
    const down = await call(desk.url, "POST", "/v1/webhooks", owner.headers, {
      url: `http://127.0.0.1:${failing.port}/down`,
      events: ["ticket.created"],
    });
    expect(down.status).toBe(201);
    const fine = await call(desk.url, "POST", "/v1/webhooks", owner.headers, {
      url: `http://127.0.0.1:${healthy.port}/fine`,
      events: ["ticket.created"],
    });
    expect(fine.status).toBe(201);
    for (let i = 0; i < 6; i++) {
      const created = await call(desk.url, "POST", "/v1/tickets", owner.headers, {
        subject: `Ticket ${i}`,
        contact: { email: "customer@webhooks.test" },
        body_text: "Hello",
      });
      expect(created.status).toBe(201);
    }
    const deadline = Date.now() + 15_000;
    let paused: { paused_until: string | null; consecutive_failures: number } | null = null;
    while (Date.now() < deadline) {
      paused = (await call(desk.url, "GET", `/v1/webhooks/${down.body.id}`, owner.headers)).body;
      if (paused?.paused_until) break;
      await Bun.sleep(100);
    }
    expect(paused?.consecutive_failures).toBeGreaterThanOrEqual(5);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, admin);
    await page.goto(`${desk.url}/settings/webhooks`);
    const downCard = page.locator(".card").filter({ hasText: `127.0.0.1:${failing.port}/down` });
    await shown(downCard.getByRole("note").filter({ hasText: /Paused after \d+ failed attempts in a row/ }));
    const fineCard = page.locator(".card").filter({ hasText: `127.0.0.1:${healthy.port}/fine` });
    await shown(fineCard.locator("code"));
    expect(await fineCard.getByRole("note").count()).toBe(0);
  },
  60_000,
);
