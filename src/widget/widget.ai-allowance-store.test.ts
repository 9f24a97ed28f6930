import { expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { aiQuietOn } from "../ai/ai.public";
import { useRateLimitStore } from "../http/rate-limit";
import { countingLimitStore } from "../../test/kit/counting-limits";
import { manualClock } from "../lib/clock";

const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });

/** A visitor session over a real socket, so the client address counts. */
async function visitorOf(key: string) {
  const res = await fetch(`${desk.url}/v1/widget/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { visitor_token: string };
  return { authorization: `Visitor ${body.visitor_token}`, "content-type": "application/json" };
}

test("the widget's AI allowance counts through the desk's chosen limiter store, which decides when chats go to people", async () => {
  const calls: string[] = [];
  const refused = new Set<string>();
  useRateLimitStore(desk.deps.db, countingLimitStore(clock, calls, refused));
  const { workspace } = await createWorkspaceWithOwner(desk);
  const visitor = await visitorOf(workspace.widgetKey);
  const start = async () => {
    const res = await fetch(`${desk.url}/v1/widget/conversations`, {
      method: "POST",
      headers: visitor,
      body: JSON.stringify({ body: "Where is my parcel?" }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { conversation: { id: string } }).conversation.id;
  };
  const allowanceCalls = () =>
    calls.filter((call) => call.startsWith("widget.ai")).map((call) => call.split(" ", 2).join(" "));

  const first = await start();
  expect(allowanceCalls()).toEqual([
    "widget.aiPerVisitor retryAfter",
    "widget.aiPerAddress retryAfter",
    "widget.aiPerVisitor hit",
    "widget.aiPerAddress hit",
  ]);
  expect(await aiQuietOn(desk.deps.db, workspace.id, first)).toBe(false);

  // The address's budget is spent (on another node, say): the chat goes to people and spends nothing.
  refused.add("widget.aiPerAddress");
  const second = await start();
  expect(allowanceCalls().slice(4)).toEqual(["widget.aiPerVisitor retryAfter", "widget.aiPerAddress retryAfter"]);
  expect(await aiQuietOn(desk.deps.db, workspace.id, second)).toBe(true);
});
