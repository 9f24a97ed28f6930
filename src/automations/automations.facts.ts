import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { contactRefsOf } from "../contacts/contacts.public";
import { labelsOf } from "../labels/labels.public";
import { firstMessageOf, getTicket, type TicketRow } from "../tickets/tickets.public";
import type { Facts } from "./automations.conditions";
import type { AutomationAction, AutomationCondition } from "./automations.schemas";

/** The consumer's name: it names its cursor, and (with the chain of automations) the cause of what runs append. */
export const AUTOMATIONS_CONSUMER = "automations.run";

/** ticket.updated changes that are a message's bookkeeping, not an update of the ticket (the replied triggers cover those). */
export const MESSAGE_BOOKKEEPING = new Set([
  "message_count",
  "last_message_at",
  "last_message_preview",
  "last_customer_message_at",
  "first_responded_at",
  "sla",
]);

export type Loaded = {
  id: string;
  name: string;
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  allowCustomerReplyOnAiDecision: boolean;
};
export type RawLoaded = { id: string; name: string; conditions: string; actions: string; allow_ai_reply: number };

/** The message an event is about, as far as conditions and actions read it. */
export type TriggerMessage = { id: string; body_text: string; from_email: string; direction: string } | null;

export const loadedOf = (raw: RawLoaded): Loaded => ({
  id: raw.id,
  name: raw.name,
  conditions: JSON.parse(raw.conditions) as AutomationCondition[],
  actions: JSON.parse(raw.actions) as AutomationAction[],
  allowCustomerReplyOnAiDecision: raw.allow_ai_reply === 1,
});

export function chainOf(causedBy: string | null): string[] {
  const prefix = `${AUTOMATIONS_CONSUMER}/`;
  return causedBy?.startsWith(prefix) ? causedBy.slice(prefix.length).split("/") : [];
}
export const causeOf = (chain: string[]): string => [AUTOMATIONS_CONSUMER, ...chain].join("/");

export async function liveTicket(db: Queryable, ctx: RequestContext, ticketId: string): Promise<TicketRow | null> {
  try {
    const row = await getTicket(db, ctx, ticketId);
    return row.mergedIntoId || row.deletedAt ? null : row;
  } catch {
    return null;
  }
}

/** A reader that reads once, when first asked: a condition that never looks at a fact never costs its query. */
function once<T>(read: () => T | Promise<T>): () => T | Promise<T> {
  let value: { v: T } | null = null;
  return async () => {
    value ??= { v: await read() };
    return value.v;
  };
}

export function factsOf(db: Queryable, row: TicketRow, message: TriggerMessage): Facts {
  const first = once(async () => (message ? null : ((await firstMessageOf(db, row.id)) ?? null)));
  const contactEmail = once(async () =>
    row.contactId ? ((await contactRefsOf(db, [row.contactId])).get(row.contactId)?.email ?? "") : "",
  );
  const ticketLabels = once(async () => (await labelsOf(db, "tickets", [row.id])).get(row.id) ?? []);
  return {
    ticket: row,
    body: async () => (message ? message.body_text : ((await first())?.bodyText ?? "")),
    fromEmail: async () => {
      const source = message ?? (await first());
      const sender = message ? message.from_email : ((await first())?.fromEmail ?? "");
      return source?.direction === "inbound" && sender ? sender : await contactEmail();
    },
    tagNames: once(async () => (await ticketLabels()).map((tag) => tag.name.toLocaleLowerCase("en-US"))),
    tagIds: once(async () => (await ticketLabels()).map((tag) => tag.id)),
  };
}
