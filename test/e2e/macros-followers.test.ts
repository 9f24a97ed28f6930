/**
 * Macros and followers in a real browser against dist/desk: an admin builds a macro in Settings →
 * Macros (the automation builder's action rows, a located 422 for an unknown placeholder), applies
 * it from the ticket's composer (the reply arrives with the contact's first name filled in, the
 * label and status are set, the usage count moves), applies it to selected tickets from the inbox's
 * bulk bar, and follows a ticket from its sidebar, which then lists in the Following folder; a
 * teammate's note on a followed ticket then shows in the follower's notifications.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  browserTestsReady,
  call,
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

const STEP = 60_000;
let desk: RunningDesk;
let browser: Browser;
let page: Page;
let headers: Record<string, string> = {};
let ownerId = "";
const owner = { name: "Mia Macro", email: "mia@macros.test", password: "correct horse battery" };

type Ticket = {
  id: string;
  number: number;
  status: string;
  tags: Array<{ name: string }>;
  followers: Array<{ id: string }>;
};
const ticketOf = async (id: string) => (await call<Ticket>(desk.url, "GET", `/v1/tickets/${id}`, headers)).body;
const newTicket = async (subject: string) => {
  const res = await call<Ticket>(desk.url, "POST", "/v1/tickets", headers, {
    subject,
    contact: { email: `${subject.toLowerCase().replace(/\W+/g, ".")}@customer.test`, name: "Eve Example" },
    body_text: "Please refund my order.",
  });
  expect(res.status).toBe(201);
  return res.body;
};

describe.skipIf(!ready.ok)("macros and followers (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    const made = await ownerWithWorkspace(desk.url, owner, "Macros");
    headers = made.headers;
    ownerId = made.userId;
    expect((await call(desk.url, "POST", "/v1/tags", headers, { name: "Refund" })).status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "build a macro in settings (a bad placeholder is refused beside its field), apply it from the composer",
    async () => {
      await page.goto(`${desk.url}/settings/macros`);
      await shown(page.getByRole("heading", { name: "Macros", level: 1 }));
      await page.getByRole("button", { name: "New macro" }).click();
      const form = page.getByRole("form", { name: "New macro" });
      await form.getByLabel("Name").fill("Refund done");
      const first = form.getByRole("group", { name: "Action 1" });
      await first.getByLabel("Action").selectOption("set_status");
      await first.getByLabel("Value").selectOption("pending");
      await form.getByRole("button", { name: "Add action" }).click();
      await form.getByRole("group", { name: "Action 2" }).getByLabel("Value").fill("Refund");
      await form.getByRole("button", { name: "Add action" }).click();
      const reply = form.getByRole("group", { name: "Action 3" });
      await reply.getByLabel("Action").selectOption("send_reply");
      await reply.getByLabel("Message").fill("Hi {{contact.nickname}}, your refund is on its way.");
      await form.getByRole("button", { name: "Create macro" }).click();
      await shown(reply.getByRole("alert"));
      expect(await reply.getByRole("alert").textContent()).toContain("unknown placeholder");
      await reply.getByLabel("Message").fill("Hi {{contact.first_name}}, your refund is on its way.");
      await form.getByRole("button", { name: "Create macro" }).click();
      await shown(page.getByRole("cell", { name: "Refund done", exact: true }));
      const macros = (
        await call<{ data: Array<{ id: string; shared: boolean }> }>(desk.url, "GET", "/v1/macros", headers)
      ).body.data;
      expect(macros).toHaveLength(1);
      expect(macros[0]!.shared).toBe(true);

      const ticket = await newTicket("Refund for order 7");
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      await page.getByLabel("Apply macro").selectOption({ label: "Refund done" });
      await shown(page.getByText("Hi Eve, your refund is on its way."));
      expect(await eventually(async () => (await ticketOf(ticket.id)).status, "pending")).toBe("pending");
      expect((await ticketOf(ticket.id)).tags.map((t) => t.name)).toEqual(["Refund"]);
      await page.goto(`${desk.url}/settings/macros`);
      expect(await eventually(() => page.getByLabel("Refund done used").textContent(), "1")).toBe("1");
    },
    STEP,
  );

  test(
    "apply a macro to the selected tickets from the inbox's bulk bar",
    async () => {
      const a = await newTicket("Bulk refund A");
      const b = await newTicket("Bulk refund B");
      await page.goto(`${desk.url}/inbox/all`);
      await page.getByRole("checkbox", { name: `Select ticket ${a.number}` }).check();
      await page.getByRole("checkbox", { name: `Select ticket ${b.number}` }).check();
      const bar = page.getByRole("toolbar", { name: "Bulk actions" });
      await bar.getByLabel("Apply macro").selectOption({ label: "Refund done" });
      expect(await eventually(async () => (await ticketOf(a.id)).status, "pending")).toBe("pending");
      expect(await eventually(async () => (await ticketOf(b.id)).status, "pending")).toBe("pending");
    },
    STEP,
  );

  test(
    "follow a ticket from its sidebar and find it in Following",
    async () => {
      const ticket = await newTicket("Watch this one");
      await newTicket("Not followed");
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      const panel = page.getByRole("region", { name: "Followers" });
      await panel.getByRole("button", { name: "Follow", exact: true }).click();
      await shown(panel.getByRole("button", { name: "Unfollow", exact: true }));
      await shown(panel.getByText(owner.name));
      expect((await ticketOf(ticket.id)).followers.map((f) => f.id)).toEqual([ownerId]);
      await page.getByRole("link", { name: "Following", exact: true }).click();
      await page.waitForURL(/\/inbox\/following/);
      await shown(page.getByText("Watch this one"));
      expect(await page.getByText("Not followed").count()).toBe(0);
    },
    STEP,
  );

  test(
    "a teammate's note on a followed ticket shows in the follower's notifications",
    async () => {
      const ticket = await newTicket("Noted while following");
      expect((await call(desk.url, "PUT", `/v1/tickets/${ticket.id}/followers/me`, headers)).status).toBe(204);
      const teammate = { name: "Nils Note", email: "nils@macros.test", password: "correct horse battery" };
      const { token } = await memberByInvitation(desk.url, headers, teammate);
      const theirs = { authorization: `Bearer ${token}`, "desk-workspace": headers["desk-workspace"]! };
      const note = await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, theirs, {
        kind: "note",
        body_text: "Refund approved by finance",
      });
      expect(note.status).toBe(201);
      await page.goto(`${desk.url}/notifications`);
      const item = page.locator('[data-notification="note_added"]');
      await shown(item.getByText(`Nils Note added a note on #${ticket.number} Noted while following`));
      await shown(item.getByText("Refund approved by finance"));
    },
    STEP,
  );
});
