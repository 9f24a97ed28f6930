/**
 * The assistant's figures: time to the first streamed `text` event through Desk over the provider's
 * own latency (a direct answer: one model turn; a typical run: a search_tickets step, then the
 * answer: two turns), and the tokens a typical run costs (the meter's rows). The provider is the
 * local OpenAI-compatible fake with a fixed delay per call. Run: bun bench/assistant.ts.
 */
import { eq } from "drizzle-orm";
import { customerTicket } from "../test/kit/ai";
import { aiUsage } from "../src/ai/ai.table";
import { addMember, createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { fakeAiEnv, startFakeAi } from "../test/peers/fake-ai";

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const PROVIDER_DELAY_MS = 50;
const ANSWER =
  "Three urgent tickets wait on us since yesterday: **#3**, **#7** and **#12**. The oldest is about a refund.";

const fake = await startFakeAi();
fake.delayMs = PROVIDER_DELAY_MS;
let withTool = false;
fake.answer = (request) =>
  withTool && request.messages.at(-1)?.role === "user"
    ? { tools: [{ name: "search_tickets", arguments: { priority: "urgent", status: "open", limit: 10 } }] }
    : { text: ANSWER };
const desk = await startTestDesk({ env: fakeAiEnv(fake), keepAlive: true });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
await desk.api("PATCH", "/v1/ai/settings", { headers: owner.headers, body: { assistant: true } });
for (let i = 0; i < 30; i++)
  await customerTicket(desk, owner, { subject: `Order ${i} late`, body: `Order ${i} was due last week. `.repeat(5) });
const { id: urgentSeed } = await customerTicket(desk, owner);
await desk.api("PATCH", `/v1/tickets/${urgentSeed}`, { headers: owner.headers, body: { priority: "urgent" } });

async function firstText(): Promise<number> {
  // A person sends at most 30 messages a minute: each run is another agent's.
  const agent = await addMember(desk, workspace.id, "agent");
  const session = await desk.api("POST", "/v1/assistant/sessions", { headers: agent.headers, body: {} });
  const started = performance.now();
  const response = await fetch(`${desk.url}/v1/assistant/sessions/${session.body.id}/messages`, {
    method: "POST",
    headers: { ...agent.headers, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({ text: "Which urgent tickets are waiting on us since yesterday?" }),
  });
  const reader = response.body!.getReader();
  let text = "";
  let ms = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    if (!ms && text.includes("event: text")) ms = performance.now() - started;
  }
  if (!ms) throw new Error(`no text: ${text}`);
  return ms;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const line = (name: string, xs: number[]) =>
  `${name.padEnd(40)} p50 ${pct(xs, 0.5).toFixed(1)} ms  p95 ${pct(xs, 0.95).toFixed(1)} ms`;

for (let i = 0; i < 3; i++) await firstText();
const direct: number[] = [];
for (let i = 0; i < ROUNDS; i++) direct.push(await firstText());
withTool = true;
const usageBefore = (await desk.deps.db.select().from(aiUsage).where(eq(aiUsage.workspaceId, workspace.id))).length;
const typical: number[] = [];
for (let i = 0; i < ROUNDS; i++) typical.push(await firstText());
const rows = (await desk.deps.db.select().from(aiUsage).where(eq(aiUsage.workspaceId, workspace.id))).slice(
  usageBefore,
);
const input = rows.reduce((n, r) => n + r.inputTokens, 0) / ROUNDS;
const output = rows.reduce((n, r) => n + r.outputTokens, 0) / ROUNDS;

console.log(`assistant, ${ROUNDS} runs each, provider delay ${PROVIDER_DELAY_MS} ms per call (31 tickets)`);
console.log(line("direct answer: first text", direct));
console.log(
  line(
    "  over the provider's latency (1 call)",
    direct.map((d) => d - PROVIDER_DELAY_MS),
  ),
);
console.log(line("typical run (1 tool step): first text", typical));
console.log(
  line(
    "  over the provider's latency (2 calls)",
    typical.map((d) => d - 2 * PROVIDER_DELAY_MS),
  ),
);
console.log(
  `tokens per typical run (fake provider's count, ~4 chars a token): ${input.toFixed(0)} in + ${output.toFixed(0)} out, ${(rows.length / ROUNDS).toFixed(1)} model calls`,
);
await desk.stop();
await fake.stop();
process.exit(0);
