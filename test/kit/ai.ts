import { eq } from "drizzle-orm";
import type { TestDesk } from "../harness";
import type { Member } from "../factories";
import { events } from "../../src/events/events.table";
import { systemContext } from "../../src/auth/context";
import { addMessage, createTicket } from "../../src/tickets/tickets.public";
import { aiUsage } from "../../src/ai/ai.table";

/** Test helpers for the AI feature: events since a seq, the meter's rows, SSE parsing, a ticket with a thread. */
export const eventsSince = async (desk: TestDesk, workspaceId: string, seq: number) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId)))
    .filter((e) => e.seq > seq)
    .sort((a, b) => a.seq - b.seq);

export const usageRows = async (desk: TestDesk, workspaceId: string) =>
  await desk.deps.db.select().from(aiUsage).where(eq(aiUsage.workspaceId, workspaceId));

export type SseEvent = { event: string; data: unknown };

/** Parses a text/event-stream body into its events. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n");
      return { event, data: JSON.parse(data) };
    });
}

/** A ticket opened by a customer's inbound message (as mail or the widget would store it). */
export async function customerTicket(
  desk: TestDesk,
  owner: Member,
  input: { subject?: string; body?: string; email?: string } = {},
) {
  const row = await createTicket(
    systemContext(owner.workspaceId),
    {
      subject: input.subject ?? "My order has not arrived",
      contact: { email: input.email ?? `customer-${crypto.randomUUID().slice(0, 8)}@example.com`, name: "Casey" },
      channel: "email",
      body_text: input.body ?? "Hello, order 1234 was due last week and still has not arrived.",
      direction: "inbound",
      author: { type: "contact" },
    },
    desk.deps,
  );
  return { id: row.id, number: row.number, contactId: row.contactId! };
}

/** A customer's follow-up on a ticket. */
export async function customerReply(desk: TestDesk, workspaceId: string, ticketId: string, body: string) {
  return await addMessage(
    systemContext(workspaceId),
    ticketId,
    { kind: "reply", body_text: body, direction: "inbound", author: { type: "contact" } },
    desk.deps,
  );
}
