/**
 * End-to-end harness: the real executable (dist/desk) on a free loopback port with its own data
 * dir, and Debian's Chromium driven by playwright-core. Shared by test/e2e and bench/web.ts.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "bun:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { freshPostgresDatabase, onPostgres } from "../kit/postgres";

export const ROOT = join(import.meta.dir, "..", "..");
/** DESK_E2E_BINARY runs the browser tests against another build (e.g. one taken before a change, to see a test fail). */
export const DESK_BINARY = process.env.DESK_E2E_BINARY ?? join(ROOT, "dist", "desk");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export type RunningDesk = { url: string; dataDir: string; stop(): Promise<void> };

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** Builds dist/desk when missing (CI builds it before the tests; a fresh clone may not have). */
export function ensureBinary(): { ok: true } | { ok: false; missing: "chromium" | "build"; reason: string } {
  if (!existsSync(CHROMIUM))
    return { ok: false, missing: "chromium", reason: `Chromium not found at ${CHROMIUM} (apt-get install chromium)` };
  if (existsSync(DESK_BINARY)) return { ok: true };
  console.warn("\n*** dist/desk is missing: running `bun run build` for the browser tests ***\n");
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  return build.exitCode === 0 && existsSync(DESK_BINARY)
    ? { ok: true }
    : { ok: false, missing: "build", reason: "`bun run build` failed, so dist/desk is missing" };
}

/**
 * Starts dist/desk serve on a fresh data dir; resolves once /healthz answers. `hostname: "localhost"`
 * makes the public URL a name rather than an address (WebAuthn refuses IP addresses as relying party).
 */
/**
 * Whether this file's browser tests can run: when Chromium is missing they are skipped with a
 * warning; when dist/desk is missing a failing test says to build it (never a silent pass).
 */
export function browserTestsReady(): ReturnType<typeof ensureBinary> {
  const ready = ensureBinary();
  if (!ready.ok && ready.missing === "chromium")
    console.warn(`\n*** SKIPPING the browser tests: ${ready.reason} ***\n`);
  if (!ready.ok && ready.missing === "build") {
    test("dist/desk builds for the browser tests", () => {
      throw new Error(ready.reason);
    });
  }
  return ready;
}

export async function startDeskBinary(
  env: Record<string, string> = {},
  options: { hostname?: string } = {},
): Promise<RunningDesk> {
  const dataDir = mkdtempSync(join(tmpdir(), "desk-e2e-"));
  // On PostgreSQL (the test process runs with DESK_DATABASE_URL) each desk gets a migrated database
  // of its own, and the secrets every node of a PostgreSQL desk must be given.
  const database = onPostgres ? await freshPostgresDatabase() : null;
  const port = await freePort();
  const url = `http://${options.hostname ?? "127.0.0.1"}:${port}`;
  const proc = Bun.spawn([DESK_BINARY, "serve"], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dataDir,
      DESK_HOST: "127.0.0.1",
      DESK_PORT: String(port),
      DESK_SMTP_PORT: "0",
      DESK_DATA_DIR: dataDir,
      DESK_BASE_URL: url,
      DESK_LOG_LEVEL: process.env.DESK_E2E_LOG ?? "warn",
      // A scheduled backup landing mid-test would only cost CPU; test/e2e/system.test.ts turns it on.
      DESK_BACKUP_INTERVAL: "off",
      // Browser tests cannot move the binary's clock: the rating request goes out at once here.
      DESK_CSAT_DELAY: "1ms",
      ...(database
        ? {
            DESK_DATABASE_URL: database.url,
            DESK_SECRET: "e2e-secret-that-is-long-enough-0123456789",
            DESK_INBOUND_SECRET: "e2e-inbound-secret-0123456789",
          }
        : {}),
      ...env,
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`dist/desk exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  return {
    url,
    dataDir,
    async stop() {
      proc.kill("SIGTERM");
      await Promise.race([proc.exited, Bun.sleep(5000)]);
      if (proc.exitCode === null) proc.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A JSON call to the running Desk (for the parts a test sets up through the API). */
export async function call<T = any>(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Registers `who` through the API and creates their workspace; answers the headers that act as them in it. */
export async function ownerWithWorkspace(
  url: string,
  who: { name: string; email: string; password: string },
  workspace: string,
): Promise<{ userId: string; token: string; headers: Record<string, string> }> {
  const registered = await call(
    url,
    "POST",
    "/v1/auth/register",
    {},
    {
      name: who.name,
      email: who.email,
      password: who.password,
    },
  );
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const token: string = registered.body.access_token;
  const created = await call(url, "POST", "/v1/workspaces", { authorization: `Bearer ${token}` }, { name: workspace });
  if (created.status !== 201) throw new Error(`creating the workspace answered ${created.status}`);
  return {
    userId: registered.body.user.id,
    token,
    headers: { authorization: `Bearer ${token}`, "desk-workspace": created.body.id },
  };
}

/** Invites `who` with `ownerHeaders` (a person's or a key's) and accepts as them, as the invitation link does. */
export async function memberByInvitation(
  url: string,
  ownerHeaders: Record<string, string>,
  who: { name: string; email: string; password: string },
  role: "admin" | "agent" | "viewer" = "agent",
): Promise<{ userId: string; token: string }> {
  const invitation = await call(url, "POST", "/v1/invitations", ownerHeaders, { email: who.email, role });
  if (invitation.status !== 201) throw new Error(`inviting answered ${invitation.status}`);
  const token = new URL(invitation.body.url).pathname.split("/").pop();
  const accepted = await call(
    url,
    "POST",
    "/v1/invitations/accept",
    { origin: url },
    { token, name: who.name, password: who.password },
  );
  if (accepted.status !== 201) throw new Error(`accepting answered ${accepted.status}`);
  return { userId: accepted.body.user.id, token: accepted.body.access_token };
}

/** Signs `who` in through the sign-in form, like a person, and waits for the inbox. */
export async function signIn(page: Page, url: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${url}/signin`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/inbox\//);
}

/** Waits until the locator is visible (playwright's own auto-wait; bun's expect has no such matcher). */
export async function shown(
  locator: { waitFor(o: { state: "visible"; timeout?: number }): Promise<void> },
  timeout?: number,
): Promise<void> {
  await locator.waitFor({ state: "visible", timeout });
}

/** Polls `read` until it answers `expected` (or the deadline passes), then returns the last value. */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeout = 8000): Promise<T> {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await Bun.sleep(100);
    value = await read();
  }
  return value;
}
