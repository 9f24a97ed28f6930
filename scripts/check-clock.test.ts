import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function check(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), "desk-clock-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const proc = Bun.spawn(["bun", join(import.meta.dir, "check-clock.ts"), dir], { stdout: "pipe", stderr: "pipe" });
  const out = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text());
  return { code: await proc.exited, out };
}

const HARMLESS =
  '// never new Date() here\nexport const at = (iso: string) => new Date(iso);\nexport const s = "Date.now()";\nexport const t = `new Date()`;';
const CLOCK = {
  "src/lib/clock.ts": "export const systemClock = { now: () => new Date() };\nexport const ms = () => Date.now();",
};

test("check:clock passes the clock itself, parsed times, tests, comments and strings", async () => {
  const { code, out } = await check({
    ...CLOCK,
    "src/tickets/tickets.service.ts": HARMLESS,
    "src/tickets/tickets.test.ts": "export const unique = Date.now();",
  });
  expect(out).toContain("time in src/ comes from the clock");
  expect(code).toBe(0);
});

test("check:clock fails new Date() with no argument and Date.now() anywhere else in src", async () => {
  const { code, out } = await check({
    ...CLOCK,
    "src/tickets/tickets.service.ts":
      "export const now = () => new Date().toISOString();\nexport const bare = new Date;",
    "src/lib/retry.ts": "export const later = (ms: number) => String(Date.now() + ms);",
  });
  expect(out).toContain("src/tickets/tickets.service.ts:1:");
  expect(out).toContain("src/tickets/tickets.service.ts:2:");
  expect(out).toContain("src/lib/retry.ts:1:");
  expect(out).toContain("check:clock: 3 read(s)");
  expect(code).toBe(1);
});

test("check:clock lets the composition root, CLI entry files and fixtures name systemClock", async () => {
  const { code, out } = await check({
    ...CLOCK,
    "src/compose.ts": 'import { systemClock } from "./lib/clock";\nexport const clock = systemClock;',
    "src/backups/backups.cli.ts": 'import { systemClock } from "../lib/clock";\nexport const clock = systemClock;',
    "src/jobs/jobs.crash-fixture.ts": 'import { systemClock } from "../lib/clock";\nexport const clock = systemClock;',
  });
  expect(out).toContain("time in src/ comes from the clock");
  expect(code).toBe(0);
});

test("check:clock fails a service naming systemClock, under an alias too", async () => {
  const { code, out } = await check({
    ...CLOCK,
    "src/audit/audit.service.ts":
      'import { systemClock } from "../lib/clock";\nexport const at = () => systemClock.now().toISOString();',
    "src/labels/labels.apply.ts": 'import { systemClock as wall } from "../lib/clock";\nexport const at = wall;',
  });
  expect(out).toContain("src/audit/audit.service.ts:1:");
  expect(out).toContain("src/audit/audit.service.ts:2:");
  expect(out).toContain("src/labels/labels.apply.ts:1:");
  expect(out).toContain("check:clock: 3 read(s)");
  expect(code).toBe(1);
});
