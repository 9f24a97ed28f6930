import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A free TCP port on 127.0.0.1 (bound then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type Dovecot = {
  dir: string;
  imapPort: number;
  imapsPort: number;
  ca: string;
  users: Record<string, string>;
  /** Puts a raw message into a user's INBOX or `folder` (doveadm save, as the LDA would). */
  deliver(user: string, raw: string | Uint8Array, folder?: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops and removes the temp dir. */
  dispose(): Promise<void>;
};

function run(cmd: string[], input?: string | Uint8Array): void {
  const result = Bun.spawnSync(cmd, {
    stdin: input === undefined ? "ignore" : Buffer.from(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${result.stderr.toString()}`);
}

/** The mail owner Dovecot needs (it refuses uid 0); created once when missing. */
function ensureVmailUser(): void {
  if (Bun.spawnSync(["id", "vmail"]).exitCode === 0) return;
  run(["useradd", "-r", "-M", "-d", "/nonexistent", "-s", "/usr/sbin/nologin", "vmail"]);
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`port ${port} did not open`);
}

export type DovecotOptions = {
  /**
   * XOAUTH2 logins checked by Dovecot's oauth2 passdb against this RFC 7662
   * introspection endpoint (POST token=…; it answers `{"active": true, "username": …}`).
   * Password logins of the passwd-file users keep working beside it.
   */
  oauth2IntrospectionUrl?: string;
  /** A folder created for every user with this special-use flag, e.g. `{ "Sent Items": "\\Sent" }`. */
  specialUse?: Record<string, string>;
};

/** The oauth2 passdb, asked before the passwd-file one; only the OAuth mechanisms reach it. */
function oauth2Config(dir: string, introspectionUrl: string): { mechanisms: string; passdb: string } {
  writeFileSync(
    join(dir, "oauth2.conf.ext"),
    `introspection_mode = post
introspection_url = ${introspectionUrl}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
`,
  );
  return {
    mechanisms: " xoauth2",
    passdb: `passdb {\n  driver = oauth2\n  mechanisms = xoauth2\n  args = ${dir}/oauth2.conf.ext\n}\n`,
  };
}

/**
 * Dovecot with its own config in a temp dir (PEERS.md §1): passwd-file users, Maildir,
 * STARTTLS and IMAPS with a self-signed cert, IDLE. Started and stopped by pid.
 */
export async function startDovecot(
  users: Record<string, string> = { "alice@example.test": "alicepw" },
  options: DovecotOptions = {},
): Promise<Dovecot> {
  ensureVmailUser();
  const dir = mkdtempSync(join(tmpdir(), "desk-dovecot-"));
  // Dovecot's auth process runs as its own user and must reach the users file.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "run"), { recursive: true });
  mkdirSync(join(dir, "mail"), { recursive: true });
  run(["chown", "vmail:vmail", join(dir, "mail")]);
  run([
    "openssl",
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout",
    join(dir, "key.pem"),
    "-out",
    join(dir, "cert.pem"),
  ]);
  writeFileSync(
    join(dir, "users"),
    Object.entries(users)
      .map(([u, p]) => `${u}:{PLAIN}${p}\n`)
      .join(""),
  );
  const imapPort = await freePort();
  const imapsPort = await freePort();
  const conf = join(dir, "dovecot.conf");
  const oauth2 = options.oauth2IntrospectionUrl
    ? oauth2Config(dir, options.oauth2IntrospectionUrl)
    : { mechanisms: "", passdb: "" };
  writeFileSync(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/run/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <${dir}/cert.pem
ssl_key = <${dir}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login${oauth2.mechanisms}
${oauth2.passdb}passdb {
  driver = passwd-file
  args = ${dir}/users
}
userdb {
  driver = static
  args = uid=vmail gid=vmail home=${dir}/mail/%u
}
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
${Object.entries(options.specialUse ?? {})
  .map(([name, flag]) => `  mailbox "${name}" {\n    auto = create\n    special_use = ${flag}\n  }\n`)
  .join("")}}
service imap-login {
  inet_listener imap {
    port = ${imapPort}
  }
  inet_listener imaps {
    port = ${imapsPort}
    ssl = yes
  }
}
`,
  );
  const pidFile = join(dir, "run", "master.pid");
  const dovecot: Dovecot = {
    dir,
    imapPort,
    imapsPort,
    ca: readFileSync(join(dir, "cert.pem"), "utf8"),
    users,
    deliver(user, raw, folder = "INBOX") {
      run(["doveadm", "-c", conf, "save", "-u", user, "-m", folder], raw);
    },
    async start() {
      // The daemon keeps inherited pipes open: give it none, or spawnSync would wait forever.
      const started = Bun.spawnSync(["dovecot", "-c", conf], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
      if (started.exitCode !== 0)
        throw new Error(`dovecot did not start (exit ${started.exitCode}); see ${dir}/dovecot.log`);
      await waitForPort(imapPort);
    },
    async stop() {
      if (!existsSync(pidFile)) return;
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        return;
      }
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        try {
          process.kill(pid, 0);
          await Bun.sleep(50);
        } catch {
          return;
        }
      }
    },
    async dispose() {
      await dovecot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await dovecot.start();
  return dovecot;
}
