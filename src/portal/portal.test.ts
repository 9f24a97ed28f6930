import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey as deriveSha } from "altcha-lib/algorithms/sha";
import { simpleParser } from "mailparser";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { manualClock } from "../lib/clock";

const clock = manualClock(new Date("2026-11-28T10:00:00Z"));
const desk = await startTestDesk({ clock });

type Site = Awaited<ReturnType<typeof seed>>;

// Every test runs from 127.0.0.1: a fresh quarter hour gives each the client's whole link budget.
beforeEach(() => clock.advance(16 * 60_000));

async function seed(settings: Record<string, unknown> = { help_center_enabled: true }) {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const patched = await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings } });
  expect(patched.status).toBe(200);
  return { workspace, owner, slug: workspace.slug as string };
}

/** A request over a real socket, as a browser sends it (no redirects followed). */
async function http(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("cookie", init.cookie);
  const res = await fetch(`${desk.url}${path}`, { ...init, headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; type: string }) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  if (file) data.set("file", new File([Buffer.from(file.bytes)], file.name, { type: file.type }));
  return data;
}

async function createTicket(site: Site, email: string, subject: string) {
  const res = await desk.api("POST", "/v1/tickets", {
    headers: site.owner.headers,
    body: { subject, contact: { email }, channel: "api", body_html: `<p>${subject} body</p>` },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
}

/** Every outbox mail to `address`, decoded (text part and raw). */
async function outboxMailsTo(address: string): Promise<string[]> {
  const outbox = join(desk.dataDir, "outbox");
  const files = existsSync(outbox) ? readdirSync(outbox).sort() : [];
  const found: string[] = [];
  for (const f of files) {
    const raw = readFileSync(join(outbox, f), "utf8");
    if (!raw.toLowerCase().includes(address.toLowerCase())) continue;
    const parsed = await simpleParser(raw);
    const to = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
    if (to.some((t) => t.value.some((v) => v.address?.toLowerCase() === address.toLowerCase())))
      found.push(`${parsed.subject}\n${parsed.text}\n${parsed.html || ""}`);
  }
  return found;
}

async function linkFor(site: Site, email: string, ip?: string): Promise<string> {
  const before = (await outboxMailsTo(email)).length;
  const res = await http(`/portal/${site.slug}/sign-in`, {
    method: "POST",
    body: form({ email }),
    headers: ip ? { "x-forwarded-for": ip } : {},
  });
  expect(res.status).toBe(200);
  await desk.jobs.drain();
  const mails = await outboxMailsTo(email);
  expect(mails.length).toBe(before + 1);
  const url = /(https?:\/\/\S+\/portal\/\S+\/sign-in\/[A-Za-z0-9_-]+)/.exec(mails.at(-1)!)?.[1];
  expect(url).toBeTruthy();
  return new URL(url!).pathname;
}

async function signIn(site: Site, email: string): Promise<string> {
  const path = await linkFor(site, email);
  const res = await http(path, { method: "POST" });
  expect(res.status).toBe(303);
  const setCookie = res.headers.get("set-cookie")!;
  return setCookie.split(";")[0]!;
}

describe("sign-in by one-time link", () => {
  test("same answer for a contact and a stranger; the link signs in once with a scoped HttpOnly cookie", async () => {
    const site = await seed();
    await createTicket(site, "known@example.test", "Printer on fire");
    const known = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: form({ email: "known@example.test" }),
    });
    const stranger = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: form({ email: "nobody@example.test" }),
    });
    expect(known.status).toBe(200);
    expect(stranger.status).toBe(200);
    expect(known.text).toBe(stranger.text);
    await desk.jobs.drain();

    const path = await linkFor(site, "known@example.test");
    // Opening the link (a mail scanner does) shows a button and spends nothing.
    const opened = await http(path);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain("Continue");
    const used = await http(path, { method: "POST" });
    expect(used.status).toBe(303);
    const cookie = used.headers.get("set-cookie")!;
    expect(cookie).toContain(`Path=/portal/${site.slug}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toContain("Secure");
    const home = await http(`/portal/${site.slug}`, { cookie: cookie.split(";")[0] });
    expect(home.text).toContain("Printer on fire");
    expect(home.headers.get("content-security-policy")).toContain("default-src 'none'");
    // Single use: the second try, and a GET after it, find no link.
    expect((await http(path, { method: "POST" })).status).toBe(404);
    expect((await http(path)).status).toBe(404);
  });

  test("a link expires after 15 minutes", async () => {
    const site = await seed();
    const path = await linkFor(site, "late@example.test");
    clock.advance(15 * 60_000 + 1000);
    const res = await http(path, { method: "POST" });
    expect(res.status).toBe(404);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("a link of one workspace does not sign in to another", async () => {
    const a = await seed();
    const b = await seed();
    const path = await linkFor(a, "both@example.test");
    const res = await http(path.replace(`/portal/${a.slug}/`, `/portal/${b.slug}/`), { method: "POST" });
    expect(res.status).toBe(404);
  });

  test("links are rate-limited per address and per client address; bad input is refused", async () => {
    const site = await seed();
    for (let i = 0; i < 3; i++)
      expect(
        (await http(`/portal/${site.slug}/sign-in`, { method: "POST", body: form({ email: "many@example.test" }) }))
          .status,
      ).toBe(200);
    const limited = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: form({ email: "many@example.test" }),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The client's budget: 10 in 15 minutes whatever the addresses (3 spent above).
    for (let i = 0; i < 7; i++)
      expect(
        (await http(`/portal/${site.slug}/sign-in`, { method: "POST", body: form({ email: `p${i}@example.test` }) }))
          .status,
      ).toBe(200);
    expect(
      (await http(`/portal/${site.slug}/sign-in`, { method: "POST", body: form({ email: "fresh@example.test" }) }))
        .status,
    ).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    const bad = await http(`/portal/${site.slug}/sign-in`, { method: "POST", body: form({ email: "not an address" }) });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("Enter a valid email address.");
    const json = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: JSON.stringify({ email: "x@example.test" }),
      headers: { "content-type": "application/json" },
    });
    expect(json.status).toBe(415);
  });

  test("a cross-site post is refused (CSRF)", async () => {
    const site = await seed();
    const res = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: form({ email: "csrf@example.test" }),
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    const sameSite = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: form({ email: "csrf@example.test" }),
      headers: { "sec-fetch-site": "same-site" },
    });
    expect(sameSite.status).toBe(403);
    const nullOrigin = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: form({ email: "csrf@example.test" }),
      headers: { "sec-fetch-site": "cross-site", origin: "null" },
    });
    expect(nullOrigin.status).toBe(403);
    await desk.jobs.drain();
    expect(await outboxMailsTo("csrf@example.test")).toEqual([]);
  });
});

describe("the signed-in customer", () => {
  test("sees only their own tickets: another contact's and another workspace's answer 404", async () => {
    const site = await seed();
    const other = await seed();
    const mine = await createTicket(site, "ann@example.test", "Ann's question");
    const theirs = await createTicket(site, "bob@example.test", "Bob's secret");
    const elsewhere = await createTicket(other, "ann@example.test", "Ann elsewhere");
    const cookie = await signIn(site, "ann@example.test");
    const list = await http(`/portal/${site.slug}`, { cookie });
    expect(list.text).toContain("Ann&#39;s question");
    expect(list.text).not.toContain("Bob");
    expect(list.text).not.toContain("Ann elsewhere");
    expect((await http(`/portal/${site.slug}/tickets/${mine.number}`, { cookie })).status).toBe(200);
    const cross = await http(`/portal/${site.slug}/tickets/${theirs.number}`, { cookie });
    expect(cross.status).toBe(404);
    expect(cross.text).not.toContain("Bob");
    expect((await http(`/portal/${site.slug}/tickets/99999`, { cookie })).status).toBe(404);
    expect((await http(`/portal/${site.slug}/tickets/abc`, { cookie })).status).toBe(404);
    // The cookie is this portal's: on another workspace's it is no session.
    const foreign = await http(`/portal/${other.slug}/tickets/${elsewhere.number}`, { cookie });
    expect(foreign.text).not.toContain("Ann elsewhere");
    expect(foreign.text).toContain("Email me a sign-in link");
    // Replying to another contact's ticket is refused the same way and stores nothing.
    const reply = await http(`/portal/${site.slug}/tickets/${theirs.number}`, {
      method: "POST",
      cookie,
      body: multipart({ message: "sneaky" }),
    });
    expect(reply.status).toBe(404);
    const messages = await desk.api("GET", `/v1/tickets/${theirs.id}/messages`, { headers: site.owner.headers });
    expect(messages.body.data.map((m: { body_text: string }) => m.body_text)).not.toContain("sneaky");
  });

  test("a ticket shows public replies, never notes; customer text is escaped", async () => {
    const site = await seed();
    const ticket = await createTicket(site, "cat@example.test", "<script>alert(1)</script> help");
    const note = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: site.owner.headers,
      body: { kind: "note", body_html: "<p>INTERNAL-NOTE-42 customer is grumpy</p>" },
    });
    expect(note.status).toBe(201);
    const reply = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: site.owner.headers,
      body: { kind: "reply", body_html: "<p>We are on it <b>now</b></p>" },
    });
    expect(reply.status).toBe(201);
    const cookie = await signIn(site, "cat@example.test");
    const page = await http(`/portal/${site.slug}/tickets/${ticket.number}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain("We are on it now");
    expect(page.text).not.toContain("INTERNAL-NOTE-42");
    expect(page.text).not.toContain("<script>alert(1)</script>");
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt; help");
  });

  test("a reply with a file lands on the ticket as the contact's message; a disguised file is refused", async () => {
    const site = await seed();
    const ticket = await createTicket(site, "dan@example.test", "Broken widget");
    const cookie = await signIn(site, "dan@example.test");
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const sent = await http(`/portal/${site.slug}/tickets/${ticket.number}`, {
      method: "POST",
      cookie,
      body: multipart({ message: "Here is a screenshot" }, { name: "shot.png", bytes: png, type: "image/png" }),
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(
      `${desk.deps.config.baseUrl}/portal/${site.slug}/tickets/${ticket.number}`,
    );
    const messages = await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: site.owner.headers });
    const last = messages.body.data.at(-1);
    expect({
      text: last.body_text,
      kind: last.kind,
      direction: last.direction,
      author: last.author.type,
      contact: last.author.contact.email,
      files: last.attachments.map((a: { filename: string; content_type: string }) => [a.filename, a.content_type]),
    }).toEqual({
      text: "Here is a screenshot",
      kind: "reply",
      direction: "inbound",
      author: "contact",
      contact: "dan@example.test",
      files: [["shot.png", "image/png"]],
    });
    const page = await http(`/portal/${site.slug}/tickets/${ticket.number}`, { cookie });
    expect(page.text).toContain("shot.png");
    const disguised = await http(`/portal/${site.slug}/tickets/${ticket.number}`, {
      method: "POST",
      cookie,
      body: multipart(
        { message: "a page" },
        { name: "x.png", bytes: new TextEncoder().encode("<html><script>x</script>"), type: "image/png" },
      ),
    });
    expect(disguised.status).toBe(422);
    const big = await http(`/portal/${site.slug}/tickets/${ticket.number}`, {
      method: "POST",
      cookie,
      body: multipart(
        { message: "big" },
        { name: "big.txt", bytes: new Uint8Array(11 * 1024 * 1024).fill(65), type: "text/plain" },
      ),
    });
    expect(big.status).toBe(413);
    const after = await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: site.owner.headers });
    expect(after.body.data.length).toBe(messages.body.data.length);
  });

  test("a blocked contact loses the portal; their contact form message is spam and gets no confirmation", async () => {
    const site = await seed();
    const ticket = await createTicket(site, "blocked@example.test", "Before the block");
    const cookie = await signIn(site, "blocked@example.test");
    expect((await http(`/portal/${site.slug}/tickets/${ticket.number}`, { cookie })).status).toBe(200);
    const contactId = (await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: site.owner.headers })).body.contact
      .id;
    const blocked = await desk.api("PATCH", `/v1/contacts/${contactId}`, {
      headers: site.owner.headers,
      body: { blocked: true },
    });
    expect(blocked.status).toBe(200);
    const after = await http(`/portal/${site.slug}/tickets/${ticket.number}`, { cookie });
    expect(after.text).not.toContain("Before the block");
    expect(after.text).toContain("Email me a sign-in link");
    const page = await http(`/help/${site.slug}/contact`);
    const sent = await http(`/help/${site.slug}/contact`, {
      method: "POST",
      body: multipart({
        name: "Blocked",
        email: "blocked@example.test",
        subject: "Buy pills",
        message: "spam",
        altcha: await solvedAltcha(page.text),
      }),
    });
    expect(sent.status).toBe(303);
    const spam = await desk.api("GET", "/v1/tickets?spam=true", { headers: site.owner.headers });
    expect(spam.body.data.map((t: { subject: string }) => t.subject)).toContain("Buy pills");
    await desk.jobs.drain();
    expect((await outboxMailsTo("blocked@example.test")).filter((m) => m.includes("Buy pills"))).toEqual([]);
  });

  test("opens a new request (channel portal) and signs out", async () => {
    const site = await seed();
    const cookie = await signIn(site, "eve@example.test");
    const empty = await http(`/portal/${site.slug}/new`, { method: "POST", cookie, body: multipart({ subject: "" }) });
    expect(empty.status).toBe(422);
    const created = await http(`/portal/${site.slug}/new`, {
      method: "POST",
      cookie,
      body: multipart({ subject: "Need an invoice", message: "For March, please." }),
    });
    expect(created.status).toBe(303);
    const number = Number(created.headers.get("location")!.split("/").at(-1));
    const ticket = await desk.api("GET", `/v1/tickets/${number}`, { headers: site.owner.headers });
    expect({ channel: ticket.body.channel, subject: ticket.body.subject, contact: ticket.body.contact.email }).toEqual({
      channel: "portal",
      subject: "Need an invoice",
      contact: "eve@example.test",
    });
    const out = await http(`/portal/${site.slug}/sign-out`, { method: "POST", cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
  });
});

async function solvedAltcha(html: string): Promise<string> {
  const raw = /data-challenge="([^"]+)"/.exec(html)![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
  const challenge = JSON.parse(raw) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey: deriveSha });
  return JSON.stringify({ challenge, solution });
}

describe("the contact form", () => {
  test("needs the proof-of-work; with it, a portal ticket and a confirmation mail with the portal link", async () => {
    const site = await seed();
    const page = await http(`/help/${site.slug}/contact`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("data-challenge=");
    expect(page.headers.get("content-security-policy")).toContain("/portal/-/contact.js");
    const fields = { name: "Fay <b>", email: "fay@example.test", subject: "Order 1234", message: "Where is it?" };
    const before = await desk.api("GET", "/v1/tickets", { headers: site.owner.headers });
    // A bot that never ran the page: refused, nothing stored.
    const spam = await http(`/help/${site.slug}/contact`, { method: "POST", body: multipart(fields) });
    expect(spam.status).toBe(422);
    const forged = await http(`/help/${site.slug}/contact`, {
      method: "POST",
      body: multipart({ ...fields, altcha: '{"challenge":{},"solution":{}}' }),
    });
    expect(forged.status).toBe(422);
    expect((await desk.api("GET", "/v1/tickets", { headers: site.owner.headers })).body.data.length).toBe(
      before.body.data.length,
    );
    const altcha = await solvedAltcha(page.text);
    const sent = await http(`/help/${site.slug}/contact`, {
      method: "POST",
      body: multipart(
        { ...fields, altcha },
        { name: "note.txt", bytes: new TextEncoder().encode("hello"), type: "text/plain" },
      ),
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toContain(`/help/${site.slug}/contact?sent=1`);
    const list = await desk.api("GET", "/v1/tickets", { headers: site.owner.headers });
    const ticket = list.body.data.find((t: { subject: string }) => t.subject === "Order 1234");
    expect({ channel: ticket.channel, contact: ticket.contact.email, name: ticket.contact.name }).toEqual({
      channel: "portal",
      contact: "fay@example.test",
      name: "Fay <b>",
    });
    const messages = await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: site.owner.headers });
    expect(messages.body.data[0].attachments.map((a: { filename: string }) => a.filename)).toEqual(["note.txt"]);
    // The same solution twice: the second is spam.
    const again = await http(`/help/${site.slug}/contact`, { method: "POST", body: multipart({ ...fields, altcha }) });
    expect(again.status).toBe(422);
    await desk.jobs.drain();
    const mails = await outboxMailsTo("fay@example.test");
    expect(mails.length).toBe(1);
    expect(mails[0]).toContain(`We received your request: Order 1234 [#${ticket.number}]`);
    expect(mails[0]).toContain(`${desk.deps.config.baseUrl}/portal/${site.slug}/tickets/${ticket.number}`);
    const thanks = await http(`/help/${site.slug}/contact?sent=1`);
    expect(thanks.text).toContain("We received your message");
  });

  test("the help center links to the portal; the portal links back to the help center", async () => {
    const site = await seed();
    const home = await http(`/help/${site.slug}`);
    expect(home.text).toContain(
      `<a class="contact" href="${desk.deps.config.baseUrl}/portal/${site.slug}">Your requests</a>`,
    );
    const portal = await http(`/portal/${site.slug}`);
    expect(portal.text).toContain(
      `<a class="contact" href="${desk.deps.config.baseUrl}/help/${site.slug}">Help center</a>`,
    );
  });

  test("404 while the help center is off; POST elsewhere in the help center is refused", async () => {
    const site = await seed({});
    expect((await http(`/help/${site.slug}/contact`)).status).toBe(404);
    const on = await seed();
    expect((await http(`/help/${on.slug}`, { method: "POST", body: form({ a: "b" }) })).status).toBe(405);
  });
});

describe("customer mail links to the portal", () => {
  test("an agent's reply to a portal request is mailed with 'View your request' and the ticket's portal address", async () => {
    const site = await seed();
    const mailbox = await desk.api("POST", "/v1/mailboxes", {
      headers: site.owner.headers,
      body: { name: "Support", email: `support-${site.slug}@desk.test` },
    });
    expect(mailbox.status).toBe(201);
    const cookie = await signIn(site, "gil@example.test");
    const created = await http(`/portal/${site.slug}/new`, {
      method: "POST",
      cookie,
      body: multipart({ subject: "Mail me", message: "Answer by mail please" }),
    });
    const number = Number(created.headers.get("location")!.split("/").at(-1));
    const reply = await desk.api("POST", `/v1/tickets/${number}/messages`, {
      headers: site.owner.headers,
      body: { kind: "reply", body_html: "<p>Answered by mail</p>" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.delivery_status).toBe("pending");
    await desk.jobs.drain();
    const mail = (await outboxMailsTo("gil@example.test")).find((m) => m.includes("Answered by mail"));
    expect(mail).toBeDefined();
    const link = `${desk.deps.config.baseUrl}/portal/-/requests/${site.workspace.id}/${number}`;
    expect(mail).toContain(`View your request: ${link}`);
    expect(mail).toContain(`<a href="${link}">`);
    // The link leads to the ticket's page in the workspace's portal.
    const followed = await http(new URL(link).pathname);
    expect([followed.status, followed.headers.get("location")]).toEqual([
      303,
      `${desk.deps.config.baseUrl}/portal/${site.slug}/tickets/${number}`,
    ]);
    expect((await http(`/portal/-/requests/no-such-workspace/${number}`)).status).toBe(404);
  });
});

// Each run writes mail files of its own; nothing else reads them.
process.on("exit", () => rmSync(join(desk.dataDir, "outbox"), { recursive: true, force: true }));
export type { Member, TestDesk };
