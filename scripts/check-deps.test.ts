import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MACHINERY } from "./machinery";

// Each case writes a small src/ tree and runs the real check on it: the rules must pass a tree shaped
// as docs/DEVELOPING.md says and fail each way of breaking it, whatever the state of this repo's src/.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A tree shaped right: machinery, two features talking through a public file, the composition root. */
const GOOD: Record<string, string> = {
  "src/lib/clock.ts": "export const now = () => 1;",
  "src/db/database.ts":
    'import { now } from "../lib/clock";\nexport type Db = { at: number };\nexport const open = (): Db => ({ at: now() });',
  "src/jobs/define.ts": 'import type { Db } from "../db/database";\nexport const defineJob = (db: Db) => db;',
  "src/deps.ts": 'import type { Db } from "./db/database";\nexport type Deps = { db: Db };',
  "src/http/server.ts":
    'import type { Db } from "../db/database";\nexport type HttpDeps = { db: Db };\nexport const serve = (deps: HttpDeps, handle: (r: Request) => Response) => [deps, handle];',
  "src/module.ts":
    'import type { Deps } from "./deps";\nexport const defineModule = (m: { name: string; deps?: Deps }) => m;',
  "src/contacts/contacts.table.ts": "export const contacts = 'contacts';",
  "src/contacts/contacts.public.ts":
    'import { contacts } from "./contacts.table";\nexport const contactName = () => contacts;',
  "src/contacts/contacts.module.ts":
    'import { defineModule } from "../module";\nexport const contactsModule = defineModule({ name: "contacts" });',
  "test/kit/contacts.ts":
    'import { tickets } from "../../src/tickets/tickets.table";\nexport const seed = () => tickets;',
  "src/tickets/tickets.table.ts": "export const tickets = 'tickets';",
  "src/tickets/tickets.service.ts":
    'import type { Deps } from "../deps";\nimport { contactName } from "../contacts/contacts.public";\nimport { defineJob } from "../jobs/define";\nimport { tickets } from "./tickets.table";\nexport const create = (deps: Deps) => [contactName(), tickets, defineJob(deps.db)];',
  "src/tickets/tickets.module.ts":
    'import { defineModule } from "../module";\nimport { create } from "./tickets.service";\nexport const ticketsModule = defineModule({ name: "tickets" });\nexport { create };',
  "src/tickets/tickets.test.ts":
    'import { contacts } from "../contacts/contacts.table";\nimport { seed } from "../../test/kit/contacts";\nimport { ticketsModule } from "./tickets.module";\nexport const t = [contacts, seed, ticketsModule];',
  "src/registry.ts":
    'import { contactsModule } from "./contacts/contacts.module";\nimport { ticketsModule } from "./tickets/tickets.module";\nexport const modules = [contactsModule, ticketsModule];',
  "src/app.ts": 'import { modules } from "./registry";\nexport const app = () => modules;',
  "src/main.ts":
    'import { app } from "./app";\nimport { serve } from "./http/server";\nexport const main = () => [app, serve];',
};

async function check(changes: Record<string, string>): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), "desk-deps-"));
  dirs.push(dir);
  const files = { ...GOOD, ...changes };
  files["tsconfig.json"] = JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "bundler" } });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const proc = Bun.spawn(["bun", join(import.meta.dir, "check-deps.ts"), dir], { stdout: "pipe", stderr: "pipe" });
  const out = (await new Response(proc.stdout).text()) + (await new Response(proc.stderr).text());
  return { code: await proc.exited, out };
}

describe("bun run check:deps", () => {
  test("passes a tree shaped as documented (tests and test kits may reach anything)", async () => {
    const { code, out } = await check({});
    expect(out).toContain("0 import rule violation(s)");
    expect(out).toContain("0 folder cycle(s)");
    expect(code).toBe(0);
  });

  test("fails a feature importing another feature's table", async () => {
    const { code, out } = await check({
      "src/tickets/tickets.service.ts":
        'import { contacts } from "../contacts/contacts.table";\nexport const c = contacts;',
    });
    expect(out).toContain("feature-imports-internals");
    expect(out).toContain("src/tickets/tickets.service.ts → src/contacts/contacts.table.ts");
    expect(code).toBe(1);
  });

  test("fails two features importing each other, even through public files and without a file cycle", async () => {
    const { code, out } = await check({
      "src/contacts/contacts.other.ts":
        'import { ticketCount } from "../tickets/tickets.public";\nexport const n = ticketCount;',
      "src/tickets/tickets.public.ts": "export const ticketCount = 1;",
    });
    expect(out).toContain("feature folders in one import cycle: 2");
    expect(out).toContain("0 import rule violation(s)");
    expect(code).toBe(1);
  });

  test("fails machinery importing a feature, the registry or the app", async () => {
    for (const target of ["../tickets/tickets.table", "../registry", "../app"]) {
      const { code, out } = await check({
        "src/http/server.ts": `import * as x from "${target}";\nexport const y = x;`,
      });
      expect(out).toContain("machinery-imports-feature");
      expect(code).toBe(1);
    }
  });

  test("fails machinery importing src/deps.ts, even for a type", async () => {
    const { code, out } = await check({
      "src/http/server.ts":
        'import type { Deps } from "../deps";\nexport const serve = (deps: Deps, handle: (r: Request) => Response) => [deps, handle];',
    });
    expect(out).toContain("machinery-imports-feature");
    expect(out).toContain("src/http/server.ts → src/deps.ts");
    expect(code).toBe(1);
  });

  test("fails features in one cycle through type-only imports of src/deps.ts", async () => {
    const { code, out } = await check({
      "src/deps.ts":
        'import type { Db } from "./db/database";\nimport type { contactName } from "./contacts/contacts.public";\nimport type { tickets } from "./tickets/tickets.table";\nexport type Deps = { db: Db; name: typeof contactName; t: typeof tickets };',
      "src/contacts/contacts.public.ts":
        'import type { Deps } from "../deps";\nimport { contacts } from "./contacts.table";\nexport const contactName = (deps?: Deps) => [contacts, deps];',
    });
    expect(out).toContain("feature folders in one import cycle: 2");
    expect(out).toContain("src/contacts/contacts.public.ts → src/deps.ts");
    expect(code).toBe(1);
  });

  test("fails machinery folders importing each other in a loop", async () => {
    const { code, out } = await check({
      "src/db/cursor.ts": 'import { defineJob } from "../jobs/define";\nexport const j = defineJob;',
    });
    expect(out).toContain("machinery folders in one import cycle: 2");
    expect(out).toContain("src/db/, src/jobs/");
    expect(code).toBe(1);
  });

  test("fails a feature module imported outside the registry, and production code importing a test kit", async () => {
    const { code, out } = await check({
      "src/app.ts":
        'import { ticketsModule } from "./tickets/tickets.module";\nexport const app = () => ticketsModule;',
      "src/tickets/tickets.seed.ts": 'import { seed } from "../../test/kit/contacts";\nexport const s = seed;',
    });
    expect(out).toContain("module-outside-registry");
    expect(out).toContain("test-code-in-production");
    expect(code).toBe(1);
  });
});

test(".dependency-cruiser.cjs names the same machinery folders as scripts/machinery.ts", () => {
  const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as {
    forbidden: Array<{ name: string; from: { path: string } }>;
  };
  const rule = config.forbidden.find((r) => r.name === "machinery-imports-feature");
  expect(rule?.from.path).toBe(`^src/(${[...MACHINERY].join("|")})/`);
});
