/**
 * Notifications, availability and mentions in a real browser against dist/desk: the bell's unread
 * count follows live when another member assigns you a ticket; the notifications page opens and
 * marks read; the availability switch sets your availability; an @mention picked from the note
 * composer's suggestions notifies the teammate; the email preference is saved from the profile.
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
let desk: RunningDesk;
let browser: Browser;
const contexts: BrowserContext[] = [];
let workspaceId = "";
const owner = {
  name: "Olivia Owner",
  email: "olivia@notify.test",
  password: "correct horse battery",
  token: "",
  id: "",
};
const agent = {
  name: "Arthur Agent",
  email: "arthur@notify.test",
  password: "battery staple horse",
  token: "",
  id: "",
};
const as = (who: { token: string }) => ({ authorization: `Bearer ${who.token}`, "desk-workspace": workspaceId });

async function signedIn(who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  await signIn(page, desk.url, who);
  await shown(page.locator("[data-testid=live][data-state=live]"), 10_000);
  return page;
}

type Notice = { type: string; read_at: string | null; data: Record<string, unknown> };
const notificationsOf = async (who: { token: string }) =>
  (await call<{ data: Notice[]; unread_count: number }>(desk.url, "GET", "/v1/notifications", as(who))).body;

describe.skipIf(!ready.ok)("notifications and availability (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    const registered = await ownerWithWorkspace(desk.url, owner, "Notify");
    owner.token = registered.token;
    owner.id = registered.userId;
    workspaceId = registered.headers["desk-workspace"]!;
    const joined = await memberByInvitation(desk.url, as(owner), agent);
    agent.token = joined.token;
    agent.id = joined.userId;
  }, STEP);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "the bell updates live when another member assigns you a ticket; the page opens it and marks read",
    async () => {
      const page = await signedIn(agent);
      const bell = page.getByTestId("bell");
      await shown(bell);
      expect(await bell.getAttribute("aria-label")).toBe("Notifications");
      expect(await page.getByTestId("bell-count").count()).toBe(0);

      const created = await call(desk.url, "POST", "/v1/tickets", as(owner), {
        subject: "Printer on fire",
        contact: { email: "carla@customer.test", name: "Carla" },
      });
      const ticket = created.body as { id: string; number: number };
      const assigned = await call(desk.url, "PATCH", `/v1/tickets/${ticket.id}`, as(owner), { assignee_id: agent.id });
      expect(assigned.status).toBe(200);
      // no reload: the personal notification.created reaches this socket and the badge follows
      expect(await eventually(() => page.getByTestId("bell-count").textContent(), "1", 10_000)).toBe("1");
      expect(await bell.getAttribute("aria-label")).toBe("Notifications, 1 unread");

      await bell.click();
      await page.waitForURL(/\/notifications$/);
      const item = page.locator(".notification-list li.unread", { hasText: "Printer on fire was assigned to you" });
      await shown(item);
      expect(await item.textContent()).toContain("by Olivia Owner");
      await item.locator(".notification-open").click();
      await page.waitForURL(new RegExp(`/tickets/${ticket.number}$`));
      expect(await eventually(() => page.getByTestId("bell-count").count(), 0)).toBe(0);
      const after = await notificationsOf(agent);
      expect(after.unread_count).toBe(0);
      expect(after.data.map((n) => [n.type, n.read_at !== null])).toEqual([["assigned", true]]);
    },
    STEP,
  );

  test(
    "mark all read from the page; the owner's socket saw no notification of the agent's",
    async () => {
      const ownerPage = await signedIn(owner);
      const agentPage = await signedIn(agent);
      for (const subject of ["First", "Second"]) {
        const t = (await call(desk.url, "POST", "/v1/tickets", as(owner), { subject })).body as { id: string };
        await call(desk.url, "PATCH", `/v1/tickets/${t.id}`, as(owner), { assignee_id: agent.id });
      }
      expect(await eventually(() => agentPage.getByTestId("bell-count").textContent(), "2", 10_000)).toBe("2");
      await agentPage.getByTestId("bell").click();
      await shown(agentPage.locator(".notification-list li.unread").nth(1));
      await agentPage.getByRole("button", { name: "Mark all read" }).click();
      expect(await eventually(() => agentPage.locator(".notification-list li.unread").count(), 0)).toBe(0);
      expect(await eventually(() => agentPage.getByTestId("bell-count").count(), 0)).toBe(0);
      expect((await notificationsOf(agent)).unread_count).toBe(0);
      // the owner's bell never counted them
      expect(await ownerPage.getByTestId("bell-count").count()).toBe(0);
    },
    STEP,
  );

  test(
    "the availability switch sets your availability; an @mention picked in a note notifies the teammate",
    async () => {
      const page = await signedIn(agent);
      const select = page.getByLabel("Your availability");
      await shown(select);
      expect(await select.inputValue()).toBe("online");
      await select.selectOption("away");
      const mine = async () => {
        const members = await call<{ data: Array<{ user: { id: string }; availability: string }> }>(
          desk.url,
          "GET",
          "/v1/members",
          as(owner),
        );
        return members.body.data.find((m) => m.user.id === agent.id)?.availability;
      };
      expect(await eventually(mine, "away")).toBe("away");
      await select.selectOption("online");
      expect(await eventually(mine, "online")).toBe("online");

      const ticket = (await call(desk.url, "POST", "/v1/tickets", as(owner), { subject: "Need a second pair of eyes" }))
        .body as { number: number };
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      await page.getByRole("tab", { name: /Note/ }).click();
      const note = page.getByLabel("Internal note");
      await note.fill("Could you check this @Oli");
      const suggestions = page.getByRole("listbox", { name: "Mention a teammate" });
      await shown(suggestions);
      expect(await suggestions.getByRole("option").first().textContent()).toContain("@Olivia Owner");
      await note.press("Enter");
      expect(await note.inputValue()).toBe("Could you check this @Olivia Owner ");
      await note.pressSequentially("please");
      await page.getByRole("button", { name: "Add note" }).click();
      await shown(page.locator(".msg", { hasText: "please" }));
      const owners = await eventually(
        async () => (await notificationsOf(owner)).data.filter((n) => n.type === "mentioned").length,
        1,
      );
      expect(owners).toBe(1);
      const mention = (await notificationsOf(owner)).data.find((n) => n.type === "mentioned")!;
      expect(mention.data).toMatchObject({ by: agent.id, by_name: agent.name });
    },
    STEP,
  );

  test(
    "the profile saves the notification email preference",
    async () => {
      const page = await signedIn(agent);
      await page.goto(`${desk.url}/profile`);
      const select = page.getByLabel("Email me");
      await shown(select);
      expect(await select.inputValue()).toBe("immediately");
      await select.selectOption("digest");
      const stored = async () =>
        (await call<{ email: string }>(desk.url, "GET", "/v1/notifications/preferences", as(agent))).body.email;
      expect(await eventually(stored, "digest")).toBe("digest");
    },
    STEP,
  );
});
