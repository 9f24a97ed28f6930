import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import type { TicketRow } from "../tickets/tickets.public";
import type { AiJudgement } from "./automations.ai";
import { fieldConditionHolds, fieldConditionSql } from "./automations.fields";
import type { AutomationCondition } from "./automations.schemas";

/**
 * What conditions read of a ticket at the moment its automation is considered; the parts that
 * need a query are read on first use (most conditions fail on the ticket row alone).
 */
export type Facts = {
  ticket: TicketRow;
  /** The reply for customer_replied / agent_replied; the ticket's first message otherwise. */
  body(): string | Promise<string>;
  /** The sender of that message when it came in, else the contact's address. */
  fromEmail(): string | Promise<string>;
  /** The ticket's label names, lower-cased. */
  tagNames(): string[] | Promise<string[]>;
  /** The ticket's label ids. */
  tagIds(): string[] | Promise<string[]>;
};

export const isAiCondition = (c: AutomationCondition): boolean => c.field === "sentiment" || c.field === "ai_decide";

/** `conditions.every(holds)` for a check that reads the store: in order, stopping at the first that fails. */
export async function everyHolds(
  conditions: AutomationCondition[],
  holds: (c: AutomationCondition) => boolean | Promise<boolean>,
): Promise<boolean> {
  for (const c of conditions) if (!(await holds(c))) return false;
  return true;
}

function compareText(haystack: string, op: string, value: string): boolean {
  const hay = haystack.toLocaleLowerCase("en-US");
  const needle = value.toLocaleLowerCase("en-US");
  if (op === "contains") return hay.includes(needle);
  if (op === "not_contains") return !hay.includes(needle);
  if (op === "equals") return hay === needle;
  return hay !== needle;
}

const equality = (actual: string | null, op: string, value: string): boolean =>
  op === "equals" ? actual === value : actual !== value;

/** Whether one condition that needs no AI holds for the ticket (SPEC.md semantics; see the route description). */
export async function conditionHolds(
  db: Queryable,
  ctx: RequestContext,
  c: AutomationCondition,
  facts: Facts,
): Promise<boolean> {
  const value = String(c.value);
  const t = facts.ticket;
  switch (c.field) {
    case "subject":
      return compareText(t.subject, c.op, value);
    case "body":
      return compareText(await facts.body(), c.op, value);
    case "from_email":
      return compareText(await facts.fromEmail(), c.op, value);
    case "channel":
      return equality(t.channel, c.op, value);
    case "mailbox_id":
      return equality(t.mailboxId, c.op, value);
    case "priority":
      return equality(t.priority, c.op, value);
    case "status":
      return equality(t.status, c.op, value);
    case "severity":
      return equality(t.severity ?? "none", c.op, value);
    case "tag": {
      // A label kept by id is matched by id: a later label of the old name is another label.
      if (c.tag_id && c.op === "equals") return (await facts.tagIds()).includes(c.tag_id);
      if (c.tag_id && c.op === "not_equals") return !(await facts.tagIds()).includes(c.tag_id);
      const names = await facts.tagNames();
      const needle = value.toLocaleLowerCase("en-US");
      if (c.op === "equals") return names.includes(needle);
      if (c.op === "not_equals") return !names.includes(needle);
      const any = names.some((name) => name.includes(needle));
      return c.op === "contains" ? any : !any;
    }
    case "sentiment":
    case "ai_decide":
    // Time conditions are checked by the time pass (automations.time.ts), never on an event.
    case "hours_since_created":
    case "hours_since_status_changed":
    case "hours_since_customer_message":
    case "hours_since_agent_message":
    case "sla":
      return false;
  }
  const contact = c.field.startsWith("contact.field.");
  const key = c.field.slice(contact ? "contact.field.".length : "field.".length);
  try {
    const condition = await fieldConditionSql(db, ctx, contact ? "contact" : "ticket", key, c.op, value);
    return await fieldConditionHolds(db, contact ? t.contactId : t.id, condition);
  } catch {
    // The field was deleted (or its options changed) since the automation was saved: it does not hold.
    return false;
  }
}

/** Whether the AI conditions hold given the engine's answer (none when it did not answer). */
export function aiConditionsHold(conditions: AutomationCondition[], judgement: AiJudgement | null): boolean {
  let question = 0;
  for (const c of conditions) {
    if (c.field === "sentiment") {
      const sentiment = judgement?.sentiment?.toLocaleLowerCase("en-US") ?? null;
      if (sentiment === null || !equality(sentiment, c.op, String(c.value))) return false;
    } else if (c.field === "ai_decide") {
      const probability = judgement?.probabilities[question++] ?? null;
      if (typeof probability !== "number" || !Number.isFinite(probability)) return false;
      const threshold = Number(c.value);
      if (c.op === "gt" ? !(probability > threshold) : !(probability < threshold)) return false;
    }
  }
  return true;
}
