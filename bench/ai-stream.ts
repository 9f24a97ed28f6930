/**
 * Overhead Desk adds to the first streamed token of a draft, over the provider's own latency.
 * A local OpenAI-compatible fake (test/peers/fake-ai.ts) answers after a fixed delay; we time the
 * first `delta` event through Desk (real socket, SSE) and the first chunk straight from the fake,
 * alternating, and print both and the difference. Run: bun bench/ai-stream.ts. Aim: < 20 ms.
 */
import { addMember, createWorkspaceWithOwner } from "../test/factories";
import { AI_REQUESTS_PER_MINUTE } from "../src/ai/ai.budget";
import { startTestDesk } from "../test/harness";
import { fakeAiEnv, startFakeAi } from "../test/peers/fake-ai";
import { customerTicket } from "../test/kit/ai";

const ROUNDS = Number(process.env.ROUNDS ?? 60);
const PROVIDER_DELAY_MS = 50;

const fake = await startFakeAi();
fake.answer = () => ({
  text: "Thanks for your patience. Your order left our warehouse this morning and arrives tomorrow.",
});
fake.delayMs = PROVIDER_DELAY_MS;
const desk = await startTestDesk({ env: fakeAiEnv(fake), keepAlive: true });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const ticket = await customerTicket(desk, owner);
// Each person may ask for AI_REQUESTS_PER_MINUTE answers a minute: the rounds take turns among enough agents.
const agents = await Promise.all(
  Array.from({ length: Math.ceil((ROUNDS + 5) / (AI_REQUESTS_PER_MINUTE - 5)) }, () =>
    addMember(desk, workspace.id, "agent"),
  ),
);
let turn = 0;

async function firstChunk(url: string, init: RequestInit, marker: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  const reader = response.body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before ${marker}: ${text}`);
    text += new TextDecoder().decode(value);
    if (text.includes(marker)) break;
  }
  const ms = performance.now() - started;
  await reader.cancel();
  return ms;
}

const viaDesk = () =>
  firstChunk(
    `${desk.url}/v1/tickets/${ticket.id}/ai/draft`,
    {
      method: "POST",
      headers: {
        ...agents[turn++ % agents.length]!.headers,
        accept: "text/event-stream",
        "content-type": "application/json",
      },
      body: "{}",
    },
    "event: delta",
  );
const direct = () =>
  firstChunk(
    `${fake.url}/chat/completions`,
    {
      method: "POST",
      headers: { authorization: "Bearer sk-instance", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "hi" }] }),
    },
    "data: ",
  );

for (let i = 0; i < 5; i++) {
  await viaDesk();
  await direct();
}
const desks: number[] = [];
const directs: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  desks.push(await viaDesk());
  directs.push(await direct());
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const line = (name: string, xs: number[]) =>
  `${name.padEnd(24)} p50 ${pct(xs, 0.5).toFixed(1)} ms  p95 ${pct(xs, 0.95).toFixed(1)} ms`;
console.log(`first streamed token, ${ROUNDS} rounds, provider delay ${PROVIDER_DELAY_MS} ms`);
console.log(line("provider directly", directs));
console.log(line("through Desk (SSE)", desks));
const overhead = desks.map((d, i) => d - directs[i]!);
console.log(line("overhead added by Desk", overhead));
await desk.stop();
await fake.stop();
process.exit(0);
