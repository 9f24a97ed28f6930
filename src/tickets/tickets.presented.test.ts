import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { derivedTicketColumns } from "./tickets.statements";
import { tickets } from "./tickets.table";
import { eventsAfter, newField } from "../../test/kit/tickets";
import { lastSeq } from "../../test/kit/events";

/**
 * Creation presents the new ticket and its first message from the values in hand (no read-back).
 * These tests hold that JSON equal to what a fresh read of the stored rows answers.
 */
const desk = await startTestDesk();

async function upload(headers: Record<string, string>, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart]), name);
  const res = await desk.api("POST", "/v1/attachments", { headers, raw: form });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("tickets: a created ticket is presented as stored", () => {
  test("response, ticket.created and message.created equal fresh reads, for every creation shape", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await newField(desk, owner, { key: "seats", name: "Seats", type: "number" });
    const existing = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "known@example.test", name: "Known" },
    });
    expect(existing.status).toBe(201);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const shapes: Array<Record<string, unknown>> = [
      {
        subject: "New contact, reply",
        contact: { email: `new-${Date.now()}@example.test`, name: "New" },
        body_html: "<p>Hello <b>there</b><script>x()</script></p>",
      },
      {
        subject: "Known contact, note",
        contact_id: existing.body.id,
        body_html: "<p>internal</p>",
        kind: "note",
        priority: "urgent",
        severity: "sev2",
      },
      {
        subject: "Tags, fields, assignee",
        contact: { email: "known@example.test" },
        body_html: "hi",
        tags: ["billing", "vip"],
        fields: { seats: 12 },
        assignee_id: owner.id,
      },
      {
        subject: "With files",
        contact: { email: "known@example.test" },
        body_html: "<p>see files</p>",
        attachment_ids: [
          await upload(owner.headers, "a.png", png),
          await upload(owner.headers, "b.txt", new TextEncoder().encode("text")),
        ],
      },
      { subject: "Solved at once", body_html: "<p>done</p>", status: "solved" },
      { subject: "No message at all", priority: "low" },
    ];
    for (const body of shapes) {
      const before = await lastSeq(desk, workspace.id);
      const created = await desk.api("POST", "/v1/tickets", { headers: owner.headers, body });
      expect(created.status, String(body.subject)).toBe(201);
      const fresh = await desk.api("GET", `/v1/tickets/${created.body.id}`, { headers: owner.headers });
      expect(created.body, String(body.subject)).toEqual(fresh.body);
      const events = await eventsAfter(desk, workspace.id, before);
      expect(events.find((e) => e.type === "ticket.created")!.data).toEqual({ ticket: fresh.body });
      const messages = await desk.api("GET", `/v1/tickets/${created.body.id}/messages`, { headers: owner.headers });
      const messageEvent = events.find((e) => e.type === "message.created");
      if (body.body_html === undefined) {
        expect(messages.body.data).toEqual([]);
        expect(messageEvent).toBeUndefined();
      } else {
        expect(messages.body.data).toHaveLength(1);
        expect(messageEvent!.data, String(body.subject)).toEqual({
          ticket_id: created.body.id,
          message: messages.body.data[0],
        });
      }
    }
  });

  test("the generated sort columns computed in JS match SQLite's", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const slas = [
      null,
      {
        policy_id: null,
        first_response_due_at: "2030-01-02T00:00:00.000Z",
        resolution_due_at: "2030-01-01T00:00:00.000Z",
        breached: false,
      },
      { policy_id: null, first_response_due_at: "2030-01-01T00:00:00.000Z", resolution_due_at: null, breached: false },
      { policy_id: null, first_response_due_at: null, resolution_due_at: "2030-03-01T00:00:00.000Z", breached: true },
    ];
    for (const priority of ["low", "normal", "high", "urgent"]) {
      for (const severity of [null, "sev1", "sev4"]) {
        const res = await desk.api("POST", "/v1/tickets", {
          headers: owner.headers,
          body: { subject: "x", priority, severity },
        });
        for (const [index, sla] of slas.entries()) {
          const responded = index % 2 === 0 ? null : "2029-01-01T00:00:00.000Z";
          await desk.deps.db
            .update(tickets)
            .set({ sla, firstRespondedAt: responded })
            .where(eq(tickets.id, res.body.id));
          const row = first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, res.body.id)).limit(1))!;
          expect(derivedTicketColumns(row), `${priority} ${severity} sla ${index}`).toEqual({
            priorityRank: row.priorityRank,
            severityRank: row.severityRank,
            dueAt: row.dueAt,
          });
        }
      }
    }
  });
});
