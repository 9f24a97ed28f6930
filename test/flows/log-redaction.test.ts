import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../peers/dovecot";

/**
 * Secrets never reach the log. Desk runs as a real process at debug level while a person signs up,
 * fails and succeeds to sign in, creates an API key and uses it, creates a webhook whose deliveries
 * fail, a mailbox with an SMTP password whose relay is down, and asks for a password reset; then
 * every secret the run handled (passwords, tokens, key and webhook secrets, the reset token from
 * the mail written to disk, the refresh cookie) is looked for in everything the process printed.
 */

const ROOT = join(import.meta.dir, "..", "..");
const BINARY = join(ROOT, "dist", "desk");
const SECRET = "log-redaction-secret-that-is-long-enough-42";
const work = mkdtempSync(join(tmpdir(), "desk-redaction-"));
const dataDir = join(work, "data");
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A webhook receiver that always fails, so deliveries are retried and logged.
const failing = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("no", { status: 500 }) });
afterAll(() => failing.stop(true));

test("passwords, tokens, keys, webhook and mailbox secrets and reset links never appear in the log", async () => {
  const port = await freePort();
  const deadSmtpPort = await freePort();
  const command = existsSync(BINARY) ? [BINARY, "serve"] : ["bun", join(ROOT, "src", "main.ts"), "serve"];
  const child = Bun.spawn(command, {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? work,
      DESK_DATA_DIR: dataDir,
      DESK_HOST: "127.0.0.1",
      DESK_PORT: String(port),
      DESK_SMTP_PORT: "0",
      DESK_SECRET: SECRET,
      DESK_LOG_LEVEL: "debug",
      DESK_OPEN_SIGNUP: "true",
      DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await Bun.sleep(100);
    }
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(base + path, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as any };
    };

    const password = "correct-horse-battery-staple-7781";
    const email = "owner@redaction.test";
    const registered = await call("POST", "/v1/auth/register", {}, { email, password, name: "Owner" });
    expect(registered.status).toBe(201);
    const cookie = registered.headers.get("set-cookie") ?? "";
    const refresh = /=([^;]+)/.exec(cookie)?.[1] ?? "";
    expect(refresh.length).toBeGreaterThan(10);
    expect((await call("POST", "/v1/auth/login", {}, { email, password: "wrong-password-9917" })).status).toBe(401);
    const login = await call("POST", "/v1/auth/login", {}, { email, password });
    expect(login.status).toBe(200);
    const token: string = login.body.access_token;
    const workspace = await call("POST", "/v1/workspaces", { authorization: `Bearer ${token}` }, { name: "Acme" });
    expect(workspace.status).toBe(201);
    const person = { authorization: `Bearer ${token}`, "desk-workspace": workspace.body.id as string };

    const key = await call("POST", "/v1/api-keys", person, { name: "ci", scopes: ["tickets:read", "tickets:write"] });
    expect(key.status).toBe(201);
    const keySecret: string = key.body.secret;
    expect((await call("GET", "/v1/tickets", { authorization: `Bearer ${keySecret}` })).status).toBe(200);
    expect((await call("GET", "/v1/tickets", { authorization: `Bearer ${keySecret}x` })).status).toBe(401);

    const hook = await call("POST", "/v1/webhooks", person, {
      url: `http://127.0.0.1:${failing.port}/hook`,
      events: ["ticket.created"],
    });
    expect(hook.status).toBe(201);
    const hookSecret: string = hook.body.secret;

    const smtpPassword = "relay-password-5531-zz";
    const mailbox = await call("POST", "/v1/mailboxes", person, {
      name: "Support",
      email: "support@redaction.test",
      smtp_password: smtpPassword,
      outbound_kind: "smtp",
      config: { smtp_host: "127.0.0.1", smtp_port: deadSmtpPort, smtp_tls: "none", smtp_username: "support" },
    });
    expect(mailbox.status).toBe(201);
    // A ticket with a reply: the webhook delivery fails and the reply's send fails against the dead relay.
    const ticket = await call("POST", "/v1/tickets", person, {
      subject: "Where is my order?",
      mailbox_id: mailbox.body.id,
      contact: { email: "customer@example.com" },
      body_html: "<p>Hello</p>",
    });
    expect(ticket.status).toBe(201);
    expect(
      (
        await call("POST", `/v1/tickets/${ticket.body.id}/messages`, person, {
          kind: "reply",
          body_html: "<p>On its way</p>",
        })
      ).status,
    ).toBe(201);

    expect((await call("POST", "/v1/auth/password/forgot", {}, { email })).status).toBeLessThan(300);
    // Give the jobs (webhook delivery, send, reset mail) time to run and fail.
    let resetToken = "";
    for (let i = 0; i < 50 && !resetToken; i++) {
      await Bun.sleep(100);
      resetToken = readResetToken(dataDir);
    }
    expect(resetToken.length).toBeGreaterThan(10);
    await Bun.sleep(1_500);

    child.kill("SIGTERM");
    await child.exited;
    const log = (await output).join("\n");
    // The run did log what happened: requests and the failures that carry credentials nearby.
    expect(log).toContain("/v1/api-keys");
    const secrets = { password, refresh, token, keySecret, hookSecret, smtpPassword, resetToken, SECRET };
    for (const [name, value] of Object.entries(secrets)) {
      expect({ name, leaked: log.includes(value) }).toEqual({ name, leaked: false });
    }
    expect(log).not.toContain("wrong-password-9917");
  } finally {
    child.kill("SIGKILL");
  }
}, 60_000);

/** The reset token from the password-reset mail Desk wrote to disk (no relay configured). */
function readResetToken(dir: string): string {
  const files: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".eml")) files.push(full);
    }
  };
  if (existsSync(dir)) walk(dir);
  for (const file of files) {
    const text = readFileSync(file, "utf8")
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=");
    const match = /reset-password#([A-Za-z0-9_.-]{16,})/.exec(text);
    if (match) return match[1]!;
  }
  return "";
}
