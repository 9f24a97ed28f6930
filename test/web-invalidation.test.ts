import { describe, expect, test } from "bun:test";
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { resources } from "../web/src/app/resources";
import type { Envelope } from "../web/src/lib/api/types";
import { applyEvent, eventMatches } from "../web/src/lib/realtime/invalidation";

/** Every query key the agent app caches (one per family; lists carry their filters after the head). */
const CACHED: QueryKey[] = [
  ["tickets", { view: "all" }],
  ["ticket", "42"],
  ["ticket", "t1"],
  ["timeline", "t1"],
  ["timeline", "t2"],
  ["counts"],
  ["contact-tickets", "c1"],
  ["contacts", "", ""],
  ["contacts", "company", "co1"],
  ["contact", "c1"],
  ["companies", "", ""],
  ["company", "co1"],
  ["tags"],
  ["tag-groups"],
  ["custom-fields"],
  ["members"],
  ["me", "u1"],
  ["teams"],
  ["views"],
  ["saved-replies"],
  ["macros"],
  ["mailboxes"],
  ["webhooks"],
  ["sla-policies"],
  ["automations"],
  ["workspace"],
  ["my-sessions"],
  ["instance-status"],
  ["kb-collections"],
  ["kb-articles", "c1"],
  ["kb-article", "a1"],
  ["kb-article", "a2"],
  ["notifications", "badge"],
  ["notifications", "list", false],
  ["notification-preferences"],
  ["assignment"],
];

function staleAfter(type: string, data: Record<string, unknown> = {}): string[] {
  const client = new QueryClient();
  for (const key of CACHED) client.setQueryData(key, { seeded: true });
  const event: Envelope = { id: "e1", seq: 1, workspace_id: "w1", type, data, occurred_at: "2026-01-01T00:00:00Z" };
  applyEvent(client, resources, event);
  return CACHED.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => JSON.stringify(key));
}
const keys = (...list: QueryKey[]) => list.map((key) => JSON.stringify(key));

describe("realtime events stale the queries their resources declare", () => {
  // The table is what the single switch in the realtime client did before each resource declared its own.
  const lists = keys(["tickets", { view: "all" }], ["counts"], ["contact-tickets", "c1"]);
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ["ticket.updated", {}, lists],
    ["ticket.created", {}, lists],
    ["message.created", { ticket_id: "t1" }, keys(["tickets", { view: "all" }], ["timeline", "t1"])],
    ["activity.created", { ticket_id: "t2" }, keys(["tickets", { view: "all" }], ["timeline", "t2"])],
    ["contact.updated", {}, keys(["contacts", "", ""], ["contacts", "company", "co1"], ["contact", "c1"])],
    ["company.deleted", {}, keys(["companies", "", ""], ["company", "co1"])],
    ["tag.created", {}, keys(["tags"])],
    ["tag_group.updated", {}, keys(["tag-groups"])],
    ["custom_field.created", {}, keys(["custom-fields"])],
    ["member.updated", {}, keys(["members"], ["me", "u1"])],
    ["team.updated", {}, keys(["teams"])],
    ["view.created", {}, keys(["counts"], ["views"])],
    ["saved_reply.deleted", {}, keys(["saved-replies"])],
    ["macro.updated", {}, keys(["macros"])],
    ["mailbox.updated", {}, keys(["mailboxes"])],
    ["webhook.created", {}, keys(["webhooks"])],
    ["sla_policy.updated", {}, keys(["sla-policies"])],
    ["automation.updated", {}, keys(["automations"])],
    ["workspace.updated", {}, keys(["workspace"])],
    ["kb_collection.updated", {}, keys(["kb-collections"])],
    ["kb_article.updated", { kb_article: { id: "a1" } }, keys(["kb-articles", "c1"], ["kb-article", "a1"])],
    ["kb_article.deleted", { kb_article_id: "a2" }, keys(["kb-articles", "c1"], ["kb-article", "a2"])],
    ["event.hidden", {}, keys(["tickets", { view: "all" }], ["counts"])],
    ["notification.created", {}, keys(["notifications", "badge"], ["notifications", "list", false])],
    ["unknown.thing", {}, []],
  ];
  for (const [type, data, expected] of cases) {
    test(type, () => expect(staleAfter(type, data).sort()).toEqual([...expected].sort()));
  }

  test("a ticket event writes the ticket into the cache by number and by id", () => {
    const client = new QueryClient();
    const ticket = { id: "t9", number: 9, subject: "Hello" };
    const event: Envelope = {
      id: "e2",
      seq: 2,
      workspace_id: "w1",
      type: "ticket.updated",
      data: { ticket },
      occurred_at: "2026-01-01T00:00:00Z",
    };
    applyEvent(client, resources, event);
    expect(client.getQueryData(["ticket", "9"])).toEqual(ticket);
    expect(client.getQueryData(["ticket", "t9"])).toEqual(ticket);
  });

  test("`resource.*` matches that resource's types only", () => {
    expect(eventMatches("tag.*", "tag.created")).toBe(true);
    expect(eventMatches("tag.*", "tag_group.created")).toBe(false);
    expect(eventMatches("ticket.created", "ticket.created")).toBe(true);
    expect(eventMatches("ticket.created", "ticket.updated")).toBe(false);
  });
});
