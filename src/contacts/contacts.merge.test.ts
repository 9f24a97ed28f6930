import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";

const desk: TestDesk = await startTestDesk();
let mailSeq = 0;

const eventsOf = async (workspaceId: string) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).sort((a, b) => a.seq - b.seq);

async function contact(owner: Member, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; email: string | null; emails: string[] };
}

async function mailbox(owner: Member, address: string) {
  const res = await desk.api("POST", "/v1/mailboxes", {
    headers: owner.headers,
    body: { name: "Support", email: address },
  });
  expect(res.status).toBe(201);
}

const inbound = (to: string, from: string, subject: string) =>
  desk.api("POST", `/v1/inbound/email?to=${encodeURIComponent(to)}`, {
    headers: { "content-type": "message/rfc822", "desk-inbound-secret": "test-inbound-secret" },
    raw: [
      `From: ${from}`,
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <c${mailSeq++}.${subject.length}@customer.test>`,
      "Date: Mon, 23 Nov 2026 10:00:00 +0000",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Hello.",
      "",
    ].join("\r\n"),
  });

describe("contact emails", () => {
  test("emails lists every address, email first; PATCH emails adds, reorders and removes", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ann = await contact(owner, { name: "Ann", emails: ["Ann@Work.test", "ann@home.test"] });
    expect(ann.email).toBe("ann@work.test");
    expect(ann.emails).toEqual(["ann@work.test", "ann@home.test"]);
    const reordered = await desk.api("PATCH", `/v1/contacts/${ann.id}`, {
      headers: owner.headers,
      body: { emails: ["ann@home.test", "ann@work.test", "ann@old.test"] },
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.email).toBe("ann@home.test");
    expect(reordered.body.emails).toEqual(["ann@home.test", "ann@work.test", "ann@old.test"]);
    const removed = await desk.api("PATCH", `/v1/contacts/${ann.id}`, {
      headers: owner.headers,
      body: { emails: ["ann@home.test"] },
    });
    expect(removed.body.emails).toEqual(["ann@home.test"]);
    // A removed address is free for another contact.
    expect((await contact(owner, { email: "ann@work.test" })).emails).toEqual(["ann@work.test"]);
    // Patching `email` alone keeps the other addresses; clearing it promotes the next.
    await desk.api("PATCH", `/v1/contacts/${ann.id}`, {
      headers: owner.headers,
      body: { emails: ["ann@home.test", "ann@second.test"] },
    });
    const cleared = await desk.api("PATCH", `/v1/contacts/${ann.id}`, {
      headers: owner.headers,
      body: { email: null },
    });
    expect(cleared.body.emails).toEqual(["ann@second.test"]);
    expect((await desk.api("GET", `/v1/contacts/${ann.id}`, { headers: owner.headers })).body.email).toBe(
      "ann@second.test",
    );
  });

  test("an address another contact has: 409 with its location; bad or repeated addresses 422", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await contact(owner, { name: "Bo", emails: ["bo@x.test", "bo@y.test"] });
    const cy = await contact(owner, { name: "Cy", email: "cy@x.test" });
    const taken = await desk.api("PATCH", `/v1/contacts/${cy.id}`, {
      headers: owner.headers,
      body: { emails: ["cy@x.test", "BO@y.test"] },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([{ location: "body.emails.1", message: "another contact has this email" }]);
    // The primary slot checks the other contacts' secondary addresses too.
    const primary = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "bo@y.test" } });
    expect(primary.status).toBe(409);
    expect(primary.body.errors[0].location).toBe("body.email");
    const bad = await desk.api("PATCH", `/v1/contacts/${cy.id}`, {
      headers: owner.headers,
      body: { emails: ["cy@x.test", "not an address"] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.emails.1");
    const twice = await desk.api("PATCH", `/v1/contacts/${cy.id}`, {
      headers: owner.headers,
      body: { emails: ["cy@x.test", "CY@x.test"] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].location).toBe("body.emails.1");
    const tooMany = await desk.api("PATCH", `/v1/contacts/${cy.id}`, {
      headers: owner.headers,
      body: { emails: Array.from({ length: 21 }, (_, i) => `cy${i}@x.test`) },
    });
    expect(tooMany.status).toBe(422);
    const mismatch = await desk.api("PATCH", `/v1/contacts/${cy.id}`, {
      headers: owner.headers,
      body: { email: "cy@x.test", emails: ["cy@z.test"] },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors[0].location).toBe("body.email");
    expect((await desk.api("GET", `/v1/contacts/${cy.id}`, { headers: owner.headers })).body.emails).toEqual([
      "cy@x.test",
    ]);
  });

  test("the same address in another workspace is no conflict", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    await contact(a.owner, { emails: ["dee@x.test", "dee@shared.test"] });
    expect((await contact(b.owner, { emails: ["dee@shared.test"] })).email).toBe("dee@shared.test");
  });

  test("inbound mail from a secondary address lands on the contact, and threads by ticket token", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const address = `support-${workspace.id.slice(-6)}@acme.test`;
    await mailbox(owner, address);
    const eve = await contact(owner, { name: "Eve", emails: ["eve@work.test", "Eve.Private@home.test"] });
    const first = await inbound(address, "Eve <eve.private@HOME.test>", "From home");
    expect(first.status).toBe(202);
    const list = await desk.api("GET", `/v1/tickets?contact_id=${eve.id}`, { headers: owner.headers });
    expect(list.body.data.map((t: { subject: string }) => t.subject)).toEqual(["From home"]);
    const number = list.body.data[0].number as number;
    // The [#n] token threads for any of the ticket contact's addresses.
    expect((await inbound(address, "Eve.Private@home.test", `Another question [#${number}]`)).status).toBe(202);
    const after = await desk.api("GET", `/v1/tickets?contact_id=${eve.id}`, { headers: owner.headers });
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0].message_count).toBe(2);
    const contacts = await desk.api("GET", "/v1/contacts", { headers: owner.headers });
    expect(contacts.body.data).toHaveLength(1);
  });

  test("the list's q and GET /v1/search find a contact by a secondary address", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const fay = await contact(owner, { name: "Fay", emails: ["fay@work.test", "fairy.tale@elsewhere.test"] });
    await contact(owner, { name: "Gus", email: "gus@work.test" });
    for (const q of ["fairy", "elsewhere", "fairy.tale@elsewhere.test"]) {
      const res = await desk.api("GET", `/v1/contacts?q=${encodeURIComponent(q)}`, { headers: owner.headers });
      expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([fay.id]);
    }
    const global = await desk.api("GET", "/v1/search?q=fairy.tale%40elsewhere", { headers: owner.headers });
    expect(global.status).toBe(200);
    expect(global.body.contacts.map((c: { id: string }) => c.id)).toEqual([fay.id]);
  });
});

describe("contact merge", () => {
  test("access: 401, 403 for viewers and keys without contacts:write, 404 across workspaces, 422 bad body", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const a = await contact(owner, { name: "A", email: "a@m.test" });
    const b = await contact(owner, { name: "B", email: "b@m.test" });
    const foreign = await contact(other.owner, { name: "F", email: "f@m.test" });
    const merge = (id: string, headers: Record<string, string> | undefined, body: unknown) =>
      desk.api("POST", `/v1/contacts/${id}/merge`, { headers, body });
    expect((await merge(a.id, undefined, { into_id: b.id })).status).toBe(401);
    expect((await merge(a.id, viewer.headers, { into_id: b.id })).status).toBe(403);
    expect(
      (await merge(a.id, (await createKey(desk, owner, ["contacts:read"])).headers, { into_id: b.id })).status,
    ).toBe(403);
    expect((await merge(foreign.id, owner.headers, { into_id: b.id })).status).toBe(404);
    const intoForeign = await merge(a.id, owner.headers, { into_id: foreign.id });
    expect(intoForeign.status).toBe(422);
    expect(intoForeign.body.errors[0].location).toBe("body.into_id");
    expect((await merge(a.id, owner.headers, { into_id: a.id })).body.errors[0].location).toBe("body.into_id");
    expect((await merge(a.id, owner.headers, {})).status).toBe(422);
    expect((await merge(a.id, owner.headers, { into_id: b.id, extra: 1 })).status).toBe(422);
    // Nothing changed on any refusal.
    expect((await desk.api("GET", `/v1/contacts/${a.id}`, { headers: owner.headers })).status).toBe(200);
    expect((await desk.api("GET", `/v1/contacts/${foreign.id}`, { headers: other.owner.headers })).status).toBe(200);
    const duplicates = (id: string, headers: Record<string, string> | undefined) =>
      desk.api("GET", `/v1/contacts/${id}/duplicates`, { headers });
    expect((await duplicates(a.id, undefined)).status).toBe(401);
    expect((await duplicates(a.id, (await createKey(desk, owner, ["tickets:read"])).headers)).status).toBe(403);
    expect((await duplicates(foreign.id, owner.headers)).status).toBe(404);
    expect((await duplicates(a.id, viewer.headers)).status).toBe(200);
  });

  test("moves tickets, emails, labels, fields and notes; deletes and audits; exactly the events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    for (const [key, type] of [
      ["plan", "text"],
      ["seats", "number"],
    ] as const) {
      const field = await desk.api("POST", "/v1/custom-fields", {
        headers: owner.headers,
        body: { entity: "contact", key, name: key, type },
      });
      expect(field.status).toBe(201);
    }
    const into = await contact(owner, {
      name: "Hal Jordan",
      emails: ["hal@corp.test"],
      notes: "Prefers mail.",
      tags: ["vip"],
      fields: { plan: "pro" },
    });
    const dup = await contact(owner, {
      name: "Hal Jordan",
      emails: ["hal.jordan@corp.test", "hal@home.test"],
      phone: "+1 555",
      notes: "Called twice.",
      tags: ["vip", "beta"],
      fields: { plan: "free", seats: 4 },
    });
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Old ticket", contact_id: dup.id, body_html: "<p>hi</p>", kind: "note" },
    });
    expect(ticket.status).toBe(201);
    const before = (await eventsOf(workspace.id)).length;

    const merged = await desk.api("POST", `/v1/contacts/${dup.id}/merge`, {
      headers: owner.headers,
      body: { into_id: into.id },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({
      id: into.id,
      name: "Hal Jordan",
      email: "hal@corp.test",
      emails: ["hal@corp.test", "hal.jordan@corp.test", "hal@home.test"],
      phone: "+1 555",
      notes: "Prefers mail.\n\nCalled twice.",
      fields: { plan: "pro", seats: 4 },
      ticket_count: 1,
    });
    expect(merged.body.tags.map((t: { name: string }) => t.name).sort()).toEqual(["beta", "vip"]);
    expect((await desk.api("GET", `/v1/contacts/${dup.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", `/v1/tickets/${ticket.body.id}`, { headers: owner.headers })).body.contact.id).toBe(
      into.id,
    );
    const added = (await eventsOf(workspace.id)).slice(before);
    expect(added.map((e) => e.type)).toEqual(["contact.deleted", "contact.merged"]);
    expect(added[1]!.data).toMatchObject({ contact_id: dup.id, into: { id: into.id } });
    const audit = await desk.api("GET", "/v1/audit-logs", { headers: owner.headers });
    const entry = audit.body.data.find((e: { action: string }) => e.action === "contact.merged");
    expect(entry).toMatchObject({
      entity_type: "contact",
      entity_id: into.id,
      data: { merged_id: dup.id, merged_emails: ["hal.jordan@corp.test", "hal@home.test"], tickets_moved: 1 },
    });
    // Mail from the merged contact's address now reaches the remaining contact.
    const address = `support-${workspace.id.slice(-6)}@acme.test`;
    await mailbox(owner, address);
    expect((await inbound(address, "hal@home.test", "After the merge")).status).toBe(202);
    const tickets = await desk.api("GET", `/v1/tickets?contact_id=${into.id}`, { headers: owner.headers });
    expect(tickets.body.data.map((t: { subject: string }) => t.subject).sort()).toEqual([
      "After the merge",
      "Old ticket",
    ]);
  });

  test("duplicates: same name and an email at the same domain", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ivy = await contact(owner, { name: "Ivy Lee", emails: ["ivy@acme.test"] });
    const same = await contact(owner, { name: "Ivy Lee", emails: ["i.lee@other.test", "ivy.lee@acme.test"] });
    await contact(owner, { name: "Ivy Lee", email: "ivy@gmail.test" });
    await contact(owner, { name: "Ivy Leeds", email: "ivy.leeds@acme.test" });
    const res = await desk.api("GET", `/v1/contacts/${ivy.id}/duplicates`, { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([same.id]);
  });
});
