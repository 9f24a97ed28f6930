import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";

const parent = mkdtempSync(join(tmpdir(), "desk-perm-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** Every path under `dir` with its permission bits. */
function modes(dir: string, root = dir): { path: string; dir: boolean; mode: string }[] {
  const found: { path: string; dir: boolean; mode: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    found.push({
      path: path.slice(root.length),
      dir: entry.isDirectory(),
      mode: (statSync(path).mode & 0o777).toString(8),
    });
    if (entry.isDirectory()) found.push(...modes(path, root));
  }
  return found;
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const until = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

describe("data dir permissions", () => {
  test("`desk serve` started under umask 022 makes the data dir 0700 and every file it creates 0600", async () => {
    const dataDir = join(parent, "data");
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    // The real entry point, started by a shell with the common umask (files 0644, folders 0755).
    const child = Bun.spawn(
      ["sh", "-c", `umask 022 && exec "${process.execPath}" "${join(import.meta.dir, "..", "main.ts")}" serve`],
      {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: parent,
          DESK_DATA_DIR: dataDir,
          DESK_PORT: String(port),
          DESK_HOST: "127.0.0.1",
          DESK_SMTP_PORT: "0",
          DESK_BASE_URL: base,
          DESK_LOG_LEVEL: "warn",
        },
        stdout: "ignore",
        stderr: "inherit",
      },
    );
    try {
      await waitFor("healthz", () =>
        fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      );
      const call = async (method: string, path: string, headers: Record<string, string>, body?: BodyInit | object) => {
        const json = body !== undefined && !(body instanceof FormData) && typeof body !== "string";
        const res = await fetch(base + path, {
          method,
          headers: { ...headers, ...(json ? { "content-type": "application/json" } : {}) },
          body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
        });
        const text = await res.text();
        return { status: res.status, body: text.startsWith("{") ? JSON.parse(text) : text };
      };
      const user = await call(
        "POST",
        "/v1/auth/register",
        {},
        { email: "perm@example.test", password: "perm-test-password", name: "Perm" },
      );
      expect(user.status).toBe(201);
      const person = { authorization: `Bearer ${user.body.access_token}` };
      const workspace = await call("POST", "/v1/workspaces", person, { name: "Perm" });
      const member = { ...person, "desk-workspace": workspace.body.id };

      const upload = new FormData();
      upload.set("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
      expect((await call("POST", "/v1/attachments", member, upload)).status).toBe(201);
      expect(
        (await call("POST", "/v1/mailboxes", member, { name: "Support", email: "support@perm.test" })).status,
      ).toBe(201);
      const raw = [
        "From: carol@customer.test",
        "To: support@perm.test",
        "Subject: Hi",
        "Message-ID: <perm@customer.test>",
        "",
        "Hello",
        "",
      ].join("\r\n");
      const inboundSecret = readFileSync(join(dataDir, "inbound-secret.key"), "utf8").trim();
      const inbound = await call(
        "POST",
        "/v1/inbound/email?to=support@perm.test",
        { "content-type": "message/rfc822", "desk-inbound-secret": inboundSecret },
        raw,
      );
      expect(inbound.status).toBeLessThan(300);
      expect((await call("POST", "/v1/invitations", member, { email: "new@perm.test", role: "agent" })).status).toBe(
        201,
      );
      await waitFor(
        "the invitation in the outbox",
        () => existsSync(join(dataDir, "outbox")) && readdirSync(join(dataDir, "outbox")).length > 0,
      );

      const found = modes(dataDir);
      const names = found.map((f) => f.path);
      for (const expected of ["/desk.db", "/desk.db-wal", "/desk.db-shm", "/secret.key", "/inbound-secret.key"])
        expect(names).toContain(expected);
      for (const folder of ["/attachments", "/mail", "/outbox"])
        expect(found.some((f) => f.path.startsWith(`${folder}/`) && !f.dir)).toBe(true);
      expect((statSync(dataDir).mode & 0o777).toString(8)).toBe("700");
      expect(found.filter((f) => f.mode !== (f.dir ? "700" : "600"))).toEqual([]);
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
  }, 60_000);

  test("a data dir an earlier version made 0755 is tightened to 0700", () => {
    const old = join(parent, "old");
    const env = {
      DESK_DATA_DIR: old,
      DESK_SECRET: "test-secret-that-is-long-enough-0123456789",
      DESK_INBOUND_SECRET: "x".repeat(8),
    };
    loadConfig(env);
    chmodSync(old, 0o755);
    loadConfig(env);
    expect((statSync(old).mode & 0o777).toString(8)).toBe("700");
  });
});
