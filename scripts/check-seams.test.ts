import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function check(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), "desk-seams-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const proc = Bun.spawn(["bun", join(import.meta.dir, "check-seams.ts"), dir], { stdout: "pipe", stderr: "pipe" });
  const out = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text());
  return { code: await proc.exited, out };
}

/** Reactions shaped right: definitions named, data typed, the fan-out on every event, a port instead of a registration. */
const GOOD: Record<string, string> = {
  "src/jobs/enqueue.ts":
    "export const enqueueByName = (kind: string) => kind;\nexport const enqueue = (job: { name: string }) => enqueueByName(job.name);",
  "src/members/members.public.ts": "export function registerAwayRule(rule: () => void) { return rule; }",
  "src/members/members.module.ts":
    'import { registerAwayRule } from "./members.public";\nexport const hook = () => registerAwayRule(() => {});',
  "src/tickets/tickets.public.ts": 'export const ticketCreated = { type: "ticket.created" };',
  "src/sla/sla.consumers.ts": [
    'import { defineConsumer } from "../events/consumers";',
    'import { ticketCreated } from "../tickets/tickets.public";',
    '// not `event.data as`, nor types: ["ticket.created"] in a comment',
    'export const c = defineConsumer({ name: "sla", events: [ticketCreated], quiet: { when: () => false, changedBy: [ticketCreated] }, handle(_tx, event) { return event.data; } });',
    'export const s = "event.data as X";',
  ].join("\n"),
  "src/webhooks/webhooks.delivery.ts":
    'import { onEveryEvent } from "../events/bus";\nexport const fanOut = (db: unknown) => onEveryEvent(db, () => {});',
  "src/start.ts":
    'import { registerAwayRule } from "./members/members.public";\nexport const start = () => registerAwayRule(() => {});',
  "src/sla/sla.test.ts": "export const t = (event: { data: unknown }) => event.data as { x: 1 };",
};

test("check:seams passes reactions naming definitions, typed data, the webhook fan-out and tests", async () => {
  const { code, out } = await check(GOOD);
  expect(out).toContain("reactions name event definitions");
  expect(code).toBe(0);
});

test("check:seams fails data casts, string types, hooks on every event, enqueueByName and run-time registrations", async () => {
  const { code, out } = await check({
    ...GOOD,
    "src/csat/csat.consumers.ts": [
      'import { defineConsumer } from "../events/consumers";',
      'export const a = defineConsumer({ name: "a", types: ["ticket.updated"], handle(_tx, event) { return (event.data as { ticket: string }).ticket; } });',
      'export const b = defineConsumer({ name: "b", events: ["ticket.updated"], handle() {} });',
      'export const c = defineConsumer({ name: "c", events: [], quiet: { when: () => true, changedBy: ["workspace.updated"] }, handle() {} });',
    ].join("\n"),
    "src/inbound/inbound.imap.ts":
      'import { onEveryEvent } from "../events/bus";\nexport const hook = (db: unknown) => onEveryEvent(db, () => {});',
    "src/automations/automations.ai.ts":
      'import { enqueueByName } from "../jobs/enqueue";\nexport const triage = () => enqueueByName("ai.triage");',
    "src/assignment/assignment.module.ts":
      'import { registerAwayRule } from "../members/members.public";\nexport const hook = () => registerAwayRule(() => {});',
  });
  expect(out).toContain("src/csat/csat.consumers.ts:2: a consumer names its event types by string");
  expect(out).toContain("src/csat/csat.consumers.ts:2: `event.data as`");
  expect(out).toContain("src/csat/csat.consumers.ts:3: a consumer names an event by string in `events`");
  expect(out).toContain("src/csat/csat.consumers.ts:4: a consumer names an event by string in `quiet.changedBy`");
  expect(out).toContain("src/inbound/inbound.imap.ts:2: a hook on every event");
  expect(out).toContain("src/automations/automations.ai.ts:1: `enqueueByName` outside src/jobs");
  expect(out).toContain("src/automations/automations.ai.ts:2: `enqueueByName` outside src/jobs");
  expect(out).toContain("src/assignment/assignment.module.ts:2: `registerAwayRule` registers into src/members");
  expect(out).toContain("check:seams: 8 fault(s)");
  expect(code).toBe(1);
});
