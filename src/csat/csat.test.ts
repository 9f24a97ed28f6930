import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, asc, eq, gt } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { events } from "../events/events.table";
import { manualClock } from "../lib/clock";
import { activities, tickets } from "../tickets/tickets.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { csatRequests } from "./csat.table";
import { lastSeq } from "../../test/kit/events";

const clock = manualClock(new Date("2026-03-02T09:00:00Z"));
const desk: TestDesk = await startTestDesk({ clock });
const CSAT_MAIL_DELAY_MS = desk.deps.config.csatDelayMs;

const eventsAfter = async (wid: string, seq: number) =>
  await desk.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, wid), gt(events.seq, seq)))
    .orderBy(asc(events.seq));

/** Every outbox mail to `address`, decoded. */
async function mailsTo(address: string): Promise<{ text: string; html: string; subject: string; from: string }[]> {
  const outbox = join(desk.dataDir, "outbox");
  const files = existsSync(outbox) ? readdirSync(outbox).sort() : [];
  const found = [];
  for (const file of files) {
    const raw = readFileSync(join(outbox, file), "utf8");
    if (!raw.includes(address)) continue;
    const mail = await simpleParser(raw);
    found.push({
      text: mail.text ?? "",
      html: typeof mail.html === "string" ? mail.html : "",
      subject: mail.subject ?? "",
      from: mail.from?.text ?? "",
    });
  }
  return found;
}

const tokenIn = (text: string) => /\/csat\/([A-Za-z0-9_-]{20,})/.exec(text)![1]!;

/**
 * Handles the solve, then sends the rating mail as if its delay had passed; the clock goes back
 * after, so the file's sessions (which expire with it) keep working.
 */
async function settle() {
  await desk.consumers.drain();
  clock.advance(CSAT_MAIL_DELAY_MS);
  try {
    await desk.jobs.drain();
  } finally {
    clock.advance(-CSAT_MAIL_DELAY_MS);
  }
}

async function workspaceWithCsat(enabled = true) {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const res = await desk.api("PATCH", "/v1/workspace", {
    headers: owner.headers,
    body: { settings: { csat_enabled: enabled, brand_color: "#0a7d33" } },
  });
  expect(res.status).toBe(200);
  return { workspace, owner };
}

let mailCount = 0;
async function ticketFor(owner: Member, email: string | null = `customer${++mailCount}@example.test`) {
  const res = await desk.api("POST", "/v1/tickets", {
    headers: owner.headers,
    body: {
      subject: "Printer on fire",
      ...(email ? { contact: { email, name: "Casey Customer" } } : {}),
      body_html: "<p>Help</p>",
    },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, number: res.body.number as number, email };
}

const setStatus = (owner: Member, id: string, status: string) =>
  desk.api("PATCH", `/v1/tickets/${id}`, { headers: owner.headers, body: { status } });

describe("CSAT rating request on solve", () => {
  test("solving mails one rating link per solve; reading it records nothing; POST rates the ticket", async () => {
    const { workspace, owner } = await workspaceWithCsat();
    const ticket = await ticketFor(owner);
    expect((await setStatus(owner, ticket.id, "solved")).status).toBe(200);
    await settle();
    await settle(); // handling twice changes nothing: the cursor has moved on
    const mails = await mailsTo(ticket.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`How did we do? [#${ticket.number}] Printer on fire`);
    expect(mails[0]!.from).toContain(workspace.name);
    const token = tokenIn(mails[0]!.text);
    for (const score of [1, 2, 3, 4, 5]) expect(mails[0]!.html).toContain(`/csat/${token}?score=${score}`);
    // The token is stored only as its hash.
    const stored = await desk.deps.db.select().from(csatRequests).where(eq(csatRequests.ticketId, ticket.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
    expect(stored[0]!.sentAt).not.toBeNull();

    const seq = await lastSeq(desk, workspace.id);
    const shown = await desk.api("GET", `/v1/public/csat/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      workspace: { name: workspace.name, brand_color: "#0a7d33" },
      ticket: { number: ticket.number, subject: "Printer on fire" },
      score: null,
      comment: "",
      rated_at: null,
      expires_at: "2026-04-01T09:00:00.000Z",
    });
    expect(await eventsAfter(workspace.id, seq)).toHaveLength(0);
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toBeNull();

    const rated = await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 4, comment: " Quick fix " } });
    expect(rated.status).toBe(200);
    expect(rated.body).toMatchObject({ score: 4, comment: "Quick fix", rated_at: clock.now().toISOString() });
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toEqual({
      score: 4,
      comment: "Quick fix",
    });
    const emitted = await eventsAfter(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual(["activity.created", "ticket.updated"]);
    expect(emitted[0]!.data).toMatchObject({
      ticket_id: ticket.id,
      activity: { type: "csat_received", data: { score: 4 }, actor: { type: "contact" } },
    });
    expect(emitted[1]!.data).toMatchObject({ changes: ["csat"], ticket: { csat: { score: 4, comment: "Quick fix" } } });

    // A second rating replaces the first.
    const again = await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 2 } });
    expect(again.body).toMatchObject({ score: 2, comment: "" });
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toEqual({
      score: 2,
      comment: "",
    });
    const logged = await desk.deps.db
      .select()
      .from(activities)
      .where(and(eq(activities.ticketId, ticket.id), eq(activities.type, "csat_received")));
    expect(logged.map((a) => a.data)).toEqual([{ score: 4 }, { score: 2 }]);
    // The ticket answers it to agents too.
    const read = await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: owner.headers });
    expect(read.body.csat).toEqual({ score: 2, comment: "" });

    // Reopen and solve again: a new request, a new mail.
    await setStatus(owner, ticket.id, "open");
    await setStatus(owner, ticket.id, "solved");
    await settle();
    expect(await mailsTo(ticket.email!)).toHaveLength(2);
  });

  test("no rating request when CSAT is off, for spam, without a contact email, or when closed by a merge", async () => {
    const off = await workspaceWithCsat(false);
    const quiet = await ticketFor(off.owner);
    await setStatus(off.owner, quiet.id, "solved");

    const on = await workspaceWithCsat();
    const spam = await ticketFor(on.owner);
    await desk.api("PATCH", `/v1/tickets/${spam.id}`, { headers: on.owner.headers, body: { spam: true } });
    await setStatus(on.owner, spam.id, "solved");
    const noEmail = await ticketFor(on.owner, null);
    await setStatus(on.owner, noEmail.id, "solved");
    const source = await ticketFor(on.owner);
    const target = await ticketFor(on.owner);
    const merged = await desk.api("POST", `/v1/tickets/${source.id}/merge`, {
      headers: on.owner.headers,
      body: { into_id: target.id },
    });
    expect(merged.status).toBe(200);
    // Closing (rather than solving) asks nothing either.
    const closed = await ticketFor(on.owner);
    await setStatus(on.owner, closed.id, "closed");
    await settle();
    for (const t of [quiet, spam, source, closed]) expect(await mailsTo(t.email!)).toHaveLength(0);
    const rows = await desk.deps.db.select().from(csatRequests);
    for (const t of [quiet, spam, noEmail, source, closed]) expect(rows.some((r) => r.ticketId === t.id)).toBe(false);
  });

  test("a ticket reopened before the mail goes out is not asked about", async () => {
    // The background runner would send the mail the moment it is queued: from here on, jobs run
    // only when a test drains them, so "before the mail goes out" is a moment the test holds.
    await desk.jobs.stop();
    const { owner } = await workspaceWithCsat();
    const ticket = await ticketFor(owner);
    await setStatus(owner, ticket.id, "solved");
    await desk.consumers.drain();
    await setStatus(owner, ticket.id, "open");
    await desk.jobs.drain();
    expect(await mailsTo(ticket.email!)).toHaveLength(0);
  });
});

describe("GET/POST /v1/public/csat/{token}", () => {
  async function ratedLink() {
    const { workspace, owner } = await workspaceWithCsat();
    const ticket = await ticketFor(owner);
    await setStatus(owner, ticket.id, "solved");
    await settle();
    return { workspace, owner, ticket, token: tokenIn((await mailsTo(ticket.email!))[0]!.text) };
  }

  test("bad input answers 422 at the field and changes nothing", async () => {
    const { ticket, token } = await ratedLink();
    for (const [body, location] of [
      [{ score: 6 }, "body.score"],
      [{ score: 0 }, "body.score"],
      [{ score: 4.5 }, "body.score"],
      [{}, "body.score"],
      [{ score: 3, comment: "x".repeat(2001) }, "body.comment"],
      [{ score: 3, extra: true }, "body"],
    ] as const) {
      const res = await desk.api("POST", `/v1/public/csat/${token}`, { body });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toBeNull();
  });

  test("unknown, expired and deleted-ticket links answer 404", async () => {
    expect((await desk.api("GET", "/v1/public/csat/not-a-real-token-at-all-00000000")).status).toBe(404);
    expect((await desk.api("POST", "/v1/public/csat/short", { body: { score: 3 } })).status).toBe(404);
    const { owner, ticket, token } = await ratedLink();
    expect((await desk.api("GET", `/v1/public/csat/${token}`)).status).toBe(200);
    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    try {
      expect((await desk.api("GET", `/v1/public/csat/${token}`)).status).toBe(404);
      expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 5 } })).status).toBe(404);
    } finally {
      clock.advance(-(30 * 24 * 3600 * 1000 + 1000));
    }
    expect((await desk.api("DELETE", `/v1/tickets/${ticket.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/public/csat/${token}`)).status).toBe(404);
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toBeNull();
  });

  test("a reopened ticket's link answers 404 until the next solve sends a new one; the old link stays dead", async () => {
    const { owner, ticket, token } = await ratedLink();
    expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 4 } })).status).toBe(200);
    expect((await setStatus(owner, ticket.id, "open")).status).toBe(200);
    await settle();
    expect((await desk.api("GET", `/v1/public/csat/${token}`)).status).toBe(404);
    expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 1 } })).status).toBe(404);
    expect((await desk.fetch(new Request(`http://localhost/csat/${token}`))).status).toBe(404);
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toEqual({
      score: 4,
      comment: "",
    });

    expect((await setStatus(owner, ticket.id, "solved")).status).toBe(200);
    await settle();
    const mails = await mailsTo(ticket.email!);
    expect(mails).toHaveLength(2);
    const next = tokenIn(mails[1]!.text);
    expect(next).not.toBe(token);
    expect((await desk.api("GET", `/v1/public/csat/${next}`)).status).toBe(200);
    expect((await desk.api("GET", `/v1/public/csat/${token}`)).status).toBe(404);
    expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 1 } })).status).toBe(404);
    expect((await desk.api("POST", `/v1/public/csat/${next}`, { body: { score: 5 } })).status).toBe(200);
  });

  test("rating writes are limited per link (API and form together) and per client address", async () => {
    const { token } = await ratedLink();
    const form = (score: string) =>
      new Request(`http://localhost/csat/${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ score }),
      });
    for (let i = 0; i < 5; i++)
      expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 3 } })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await desk.fetch(form("4"))).status).toBe(303);
    const refused = await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 1 } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await desk.fetch(form("1"));
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).not.toBeNull();
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await page.text()).toContain("Too many attempts");
    // Reading is not a write: the page and the question still answer.
    expect((await desk.api("GET", `/v1/public/csat/${token}`)).body.score).toBe(4);

    // Per address, over real sockets: guessing links is throttled whichever tokens are named.
    const guess = () => `guess${crypto.randomUUID().replaceAll("-", "")}`;
    const post = (path: string) =>
      fetch(`${desk.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ score: "5" }),
        redirect: "manual",
      });
    for (let i = 0; i < 10; i++) expect((await post(`/csat/${guess()}`)).status).toBe(404);
    expect((await post(`/csat/${guess()}`)).status).toBe(429);
    const api = await fetch(`${desk.url}/v1/public/csat/${guess()}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ score: 5 }),
    });
    expect(api.status).toBe(429);

    clock.advance(3_600_000);
    expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score: 2 } })).status).toBe(200);
    expect((await post(`/csat/${guess()}`)).status).toBe(404);
  });

  test("reports count ratings: csat_avg and csat_count", async () => {
    const { workspace, owner } = await workspaceWithCsat();
    const viewer = await addMember(desk, workspace.id, "viewer");
    const scores = [5, 2];
    for (const score of scores) {
      const ticket = await ticketFor(owner);
      await setStatus(owner, ticket.id, "solved");
      await settle();
      const token = tokenIn((await mailsTo(ticket.email!))[0]!.text);
      expect((await desk.api("POST", `/v1/public/csat/${token}`, { body: { score } })).status).toBe(200);
    }
    const report = await desk.api("GET", "/v1/reports/overview?from=2026-03-01&to=2026-03-05", {
      headers: viewer.headers,
    });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ csat_avg: 3.5, csat_count: 2 });
  });
});

describe("the rating page /csat/{token}", () => {
  test("GET preselects the clicked score and records nothing; the form POST records and comes back thanking", async () => {
    const { owner } = await workspaceWithCsat();
    const ticket = await ticketFor(owner);
    await setStatus(owner, ticket.id, "solved");
    await settle();
    const token = tokenIn((await mailsTo(ticket.email!))[0]!.text);

    const page = await desk.fetch(new Request(`http://localhost/csat/${token}?score=4`));
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('id="score-4" name="score" value="4" checked');
    expect(body).toContain('<link rel="stylesheet" href="/csat/assets/csat.css?brand=0a7d33">');
    expect(body).not.toContain("<script");
    expect(body).not.toContain("style=");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toBeNull();

    const posted = await desk.fetch(
      new Request(`http://localhost/csat/${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ score: "4", comment: "<b>thanks</b>" }),
      }),
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(`/csat/${token}`);
    expect(first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id)).limit(1))!.csat).toEqual({
      score: 4,
      comment: "<b>thanks</b>",
    });
    const after = await (await desk.fetch(new Request(`http://localhost/csat/${token}`))).text();
    expect(after).toContain("Thank you! We recorded your rating: 4 (Good).");
    expect(after).toContain("&lt;b&gt;thanks&lt;/b&gt;");

    const missing = await desk.fetch(
      new Request(`http://localhost/csat/${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ comment: "no score" }),
      }),
    );
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain("Choose a rating from 1 to 5.");

    const unknown = await desk.fetch(new Request("http://localhost/csat/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("This rating link does not work");

    const css = await desk.fetch(new Request("http://localhost/csat/assets/csat.css?brand=0a7d33"));
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(await css.text()).toContain("#0a7d33");
    const hostile = await desk.fetch(new Request("http://localhost/csat/assets/csat.css?brand=red;}body{x"));
    expect(await hostile.text()).not.toContain("body{x");
  });
});
