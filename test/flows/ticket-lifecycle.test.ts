import { describe, expect, test } from "bun:test";
import { ALL_SCOPES, createKey, createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";

/**
 * A new user's whole ticket life over a real socket, with nothing but an API key: create, label,
 * set fields, reply, note, filter, search, solve, merge, delete. Also replays the events it caused.
 */
const desk = await startTestDesk();

type Json = Record<string, any>;

async function call(
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${desk.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

describe("a ticket's whole life with an API key", () => {
  test("create, label, fields, reply, note, filter, search, solve, merge, delete", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = (await createKey(desk, owner, ALL_SCOPES)).secret;

    const field = await call(key, "POST", "/v1/custom-fields", {
      entity: "ticket",
      name: "Plan",
      type: "select",
      options: [{ label: "Free" }, { label: "Enterprise" }],
      required_on_solve: true,
    });
    expect(field.status).toBe(201);
    expect(field.body.key).toBe("plan");

    const created = await call(key, "POST", "/v1/tickets", {
      subject: "Printer is on fire",
      contact: { email: "carol@customer.test", name: "Carol" },
      body_html: "<p>Smoke everywhere <script>alert(1)</script></p>",
      tags: ["hardware", "urgent-care"],
      priority: "high",
    });
    expect(created.status).toBe(201);
    const ticket = created.body;
    expect(ticket.number).toBe(1);
    expect(ticket.contact.email).toBe("carol@customer.test");
    expect(ticket.tags.map((t: Json) => t.name).sort()).toEqual(["hardware", "urgent-care"]);

    const byNumber = await call(key, "GET", `/v1/tickets/%23${ticket.number}`);
    expect(byNumber.body.id).toBe(ticket.id);

    const labelled = await call(key, "PATCH", `/v1/tickets/${ticket.id}`, {
      add_tags: ["vip"],
      remove_tags: ["urgent-care"],
      fields: { plan: "enterprise" },
    });
    expect(labelled.status).toBe(200);
    expect(labelled.body.tags.map((t: Json) => t.name).sort()).toEqual(["hardware", "vip"]);
    expect(labelled.body.fields).toEqual({ plan: "enterprise" });

    const reply = await call(key, "POST", `/v1/tickets/${ticket.id}/messages`, {
      kind: "reply",
      body_html: "<p>We are on it.</p>",
      status: "pending",
    });
    expect(reply.status).toBe(201);
    const note = await call(key, "POST", `/v1/tickets/${ticket.id}/messages`, {
      kind: "note",
      body_html: "<p>Call the fire brigade</p>",
    });
    expect(note.status).toBe(201);
    const messages = await call(key, "GET", `/v1/tickets/${ticket.id}/messages`);
    expect(messages.body.data.map((m: Json) => m.kind)).toEqual(["reply", "reply", "note"]);
    expect(messages.body.data[0].body_html).not.toContain("script");

    const filtered = await call(key, "GET", "/v1/tickets?status=pending&tag=vip&field.plan=enterprise&priority=high");
    expect(filtered.body.data.map((t: Json) => t.id)).toEqual([ticket.id]);
    const none = await call(key, "GET", "/v1/tickets?status=pending&field.plan=free");
    expect(none.body.data).toEqual([]);

    const found = await call(key, "GET", "/v1/search?q=brigade");
    expect(found.body.tickets.map((t: Json) => t.id)).toEqual([ticket.id]);
    const listed = await call(key, "GET", "/v1/tickets?q=printer");
    expect(listed.body.data.map((t: Json) => t.id)).toEqual([ticket.id]);

    const solved = await call(key, "PATCH", `/v1/tickets/${ticket.id}`, { status: "solved" });
    expect(solved.status).toBe(200);
    expect(solved.body.status).toBe("solved");
    expect(solved.body.solved_at).toBeTruthy();

    const second = await call(key, "POST", "/v1/tickets", {
      subject: "Also: toner smells",
      contact: { email: "carol@customer.test" },
      body_html: "<p>hmm</p>",
    });
    expect(second.body.contact.id).toBe(ticket.contact.id);
    const blocked = await call(key, "PATCH", `/v1/tickets/${second.body.id}`, { status: "solved" });
    expect(blocked.status).toBe(422);
    expect(blocked.body.code).toBe("field_required");
    expect(blocked.body.errors[0].location).toBe("body.fields.plan");

    const merged = await call(key, "POST", `/v1/tickets/${second.body.id}/merge`, { into_id: String(ticket.number) });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(ticket.id);
    const after = await call(key, "GET", `/v1/tickets/${ticket.id}/messages`);
    expect(after.body.data.some((m: Json) => m.body_text.includes("hmm"))).toBe(true);
    const activities = await call(key, "GET", `/v1/tickets/${second.body.id}/activities`);
    expect(activities.body.data.some((a: Json) => a.type === "merged")).toBe(true);

    const deleted = await fetch(`${desk.url}/v1/tickets/${ticket.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.status).toBe(204);
    expect((await call(key, "GET", `/v1/tickets/${ticket.id}`)).status).toBe(404);

    const replay = await call(key, "GET", "/v1/events?since=0&limit=1000");
    const types = replay.body.data.map((e: Json) => e.type);
    for (const type of [
      "custom_field.created",
      "ticket.created",
      "message.created",
      "ticket.updated",
      "activity.created",
      "tag.created",
      "ticket.deleted",
    ]) {
      expect(types).toContain(type);
    }
    const seqs = replay.body.data.map((e: Json) => e.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => seqs[0] + i));
  });
});
