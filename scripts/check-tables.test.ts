// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fixtures are source files whose text holds template literals.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function check(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), "desk-tables-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const proc = Bun.spawn(["bun", join(import.meta.dir, "check-tables.ts"), dir], { stdout: "pipe", stderr: "pipe" });
  const out = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text());
  return { code: await proc.exited, out };
}

// Two owners, one of them naming its table on the line after the call, and a local stand-in that
// claims nothing (members keep such a key of workspaces for their foreign key).
const TABLES = {
  "src/tickets/tickets.table.ts": 'export const tickets = deskTable("tickets", { id: text("id") });',
  "src/workspaces/workspaces.table.ts":
    'export const workspaces = deskTable(\n  "workspaces",\n  { id: text("id") },\n);',
  "src/members/members.table.ts": 'const workspaceKey = deskTable("workspaces", { id: text("id") });',
};

test("check:tables passes SQL naming its own tables, interpolated tables, tests and plain words", async () => {
  const { code, out } = await check({
    ...TABLES,
    "src/tickets/tickets.repo.ts":
      'export const q = sql`SELECT t.id FROM tickets t WHERE tickets.id = ${id}`;\nexport const r = db.query("SELECT id FROM ticket_counts");',
    "src/reports/reports.service.ts":
      'export const q = sql`SELECT count(*) FROM ${tickets} WHERE ${tickets.workspaceId} = ${id}`;\nexport const label = "Remove from tickets";',
    "src/reports/reports.test.ts": 'db.query("SELECT * FROM tickets");',
  });
  expect(out).toContain("check:tables: 0 reference(s)");
  expect(code).toBe(0);
});

test("check:tables fails raw SQL naming another folder's table, with the file, line and owner", async () => {
  const { code, out } = await check({
    ...TABLES,
    "src/reports/reports.service.ts":
      'export const q = sql`SELECT count(*)\n  FROM tickets WHERE 1`;\nexport const s = db.query("UPDATE workspaces SET n = 1");',
    "src/events/append.ts":
      'export const seq = "SELECT max(seq) FROM events e JOIN workspaces w ON w.id = e.workspace_id";',
    "src/search/search.query.ts":
      "export const m = sql`SELECT rowid FROM s WHERE ticket_search MATCH ${q} AND tickets.id = 1`;",
  });
  expect(out).toContain("src/reports/reports.service.ts:2: tickets (owned by tickets)");
  expect(out).toContain("src/reports/reports.service.ts:3: workspaces (owned by workspaces)");
  expect(out).toContain("src/events/append.ts:1: workspaces (owned by workspaces)");
  expect(out).toContain("src/search/search.query.ts:1: tickets (owned by tickets)");
  expect(out).not.toContain("ticket_search (owned by search)");
  expect(out).toContain("check:tables: 4 reference(s) in 3 file(s)");
  expect(code).toBe(1);
});

test("check:tables maps the tables only custom migrations create to their folder", async () => {
  const { code, out } = await check({
    ...TABLES,
    "src/tickets/tickets.search.ts":
      "export const m = sql`SELECT rowid FROM ticket_search WHERE ticket_search MATCH ${q}`;",
    "src/automations/automations.time.ts": 'export const due = db.query("SELECT ticket_id FROM ticket_times");',
  });
  expect(out).toContain("src/tickets/tickets.search.ts:1: ticket_search (owned by search)");
  expect(out).toContain("src/automations/automations.time.ts:1: ticket_times (owned by tickets)");
  expect(code).toBe(1);
});
