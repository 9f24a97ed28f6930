import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const script = join(import.meta.dir, "..", "install.sh");
const sha256 = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

function dryRun(args: string[]) {
  const run = Bun.spawnSync(["bash", script, ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

describe("install.sh --dry-run", () => {
  const dir = mkdtempSync(join(tmpdir(), "desk-install-"));
  const binary = join(dir, "desk");
  writeFileSync(binary, "#!/bin/sh\necho desk\n");
  chmodSync(binary, 0o755);

  test("prints the whole plan and changes nothing", () => {
    const { code, out } = dryRun([binary, "--dry-run"]);
    expect(code).toBe(0);
    expect(out).toContain("Dry run: nothing will be changed.");
    expect(out).toContain(`+ install -m 0755 ${binary} /usr/local/bin/desk`);
    expect(out).toMatch(/\+ useradd --system .*desk|user desk exists/);
    expect(out).toContain("+ install -d -m 0750 -o desk -g desk /var/lib/desk");
    expect(out).toContain("+ write /etc/desk/desk.env (mode 0640, owner root:desk)");
    expect(out).toMatch(/DESK_SECRET (generated|kept)/);
    expect(out).toMatch(/DESK_INBOUND_SECRET (generated|kept)/);
    expect(out).toContain("+ write /etc/systemd/system/desk.service");
    for (const line of [
      "NoNewPrivileges=true",
      "ProtectSystem=strict",
      "ReadWritePaths=/var/lib/desk",
      "PrivateTmp=true",
      "User=desk",
      "ExecStart=/usr/local/bin/desk serve",
      "EnvironmentFile=/etc/desk/desk.env",
    ]) {
      expect(out).toContain(line);
    }
    const order = [
      "+ systemctl daemon-reload",
      "+ systemctl enable desk.service",
      "+ systemctl restart desk.service",
    ].map((l) => out.indexOf(l));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // no generated secret is ever printed
    expect(out).not.toMatch(/DESK_SECRET=[A-Za-z0-9_-]{20,}/);
    // the receiver's address and port are in the settings, with the way to port 25 beside them
    expect(out).toContain("DESK_SMTP_HOST=127.0.0.1");
    expect(out).toContain("DESK_SMTP_PORT=2525");
    expect(out).toContain("AmbientCapabilities=CAP_NET_BIND_SERVICE");
    // a dry run says what it would have done, never that it did it
    expect(out).not.toContain("Desk installed");
    expect(out.trimEnd().split("\n").at(-1)).toMatch(
      /^Dry run complete: nothing was changed\. A real run \(as root\) would install Desk as \/usr\/local\/bin\/desk/,
    );
  });

  test("finds dist/desk next to the script and refuses a missing binary or unknown option", () => {
    expect(dryRun([join(dir, "nope"), "--dry-run"]).code).toBe(1);
    expect(dryRun(["--bogus"]).code).toBe(2);
    const scriptDir = mkdtempSync(join(tmpdir(), "desk-install-copy-"));
    copyFileSync(script, join(scriptDir, "install.sh"));
    writeFileSync(join(scriptDir, "desk"), "#!/bin/sh\n");
    const run = Bun.spawnSync(["bash", join(scriptDir, "install.sh"), "--dry-run"], { stdout: "pipe" });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString()).toContain(`+ install -m 0755 ${join(scriptDir, "desk")} /usr/local/bin/desk`);
  });
});

/**
 * A real install, upgrade, failed upgrade and uninstall into a temporary root: the script's paths
 * moved there, the service run by a stand-in for systemctl that starts the installed binary with
 * the settings file (as systemd would), and dist/desk as the binary.
 */
describe("install.sh for real (temporary root, dist/desk)", () => {
  const desk = join(import.meta.dir, "..", "dist", "desk");
  const root = mkdtempSync(join(tmpdir(), "desk-install-root-"));
  const paths = {
    DESK_INSTALL_BIN: join(root, "bin", "desk"),
    DESK_INSTALL_DATA: join(root, "data"),
    DESK_INSTALL_CONF: join(root, "etc"),
    DESK_INSTALL_UNIT: join(root, "desk.service"),
    DESK_INSTALL_USER: "root",
    DESK_INSTALL_SYSTEMCTL: join(root, "systemctl"),
    DESK_INSTALL_HEALTH_TIMEOUT: "15",
  };
  const pidFile = join(root, "desk.pid");
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  mkdirSync(join(root, "bin"));
  mkdirSync(paths.DESK_INSTALL_CONF);
  writeFileSync(
    join(paths.DESK_INSTALL_CONF, "desk.env"),
    `DESK_HOST=127.0.0.1\nDESK_PORT=${port}\nDESK_SMTP_PORT=0\nDESK_DATA_DIR=${paths.DESK_INSTALL_DATA}\nDESK_BACKUP_INTERVAL=off\n`,
  );
  writeFileSync(
    paths.DESK_INSTALL_SYSTEMCTL,
    `#!/usr/bin/env bash
# Stands in for systemctl: restart starts the installed binary with the settings file, as the unit does.
stop() { if [ -f "${pidFile}" ]; then kill "$(cat "${pidFile}")" 2>/dev/null; sleep 0.5; rm -f "${pidFile}"; fi; }
case "$1" in
  restart) stop; (set -a; . "${paths.DESK_INSTALL_CONF}/desk.env"; set +a; cd "${paths.DESK_INSTALL_DATA}"; exec "${paths.DESK_INSTALL_BIN}" serve) >/dev/null 2>&1 & echo $! > "${pidFile}" ;;
  disable) stop ;;
esac
exit 0
`,
  );
  chmodSync(paths.DESK_INSTALL_SYSTEMCTL, 0o755);
  const broken = join(root, "broken-desk");
  writeFileSync(broken, "#!/bin/sh\necho 'this release is broken' >&2\nexit 1\n");
  chmodSync(broken, 0o755);

  const install = (args: string[]) => {
    const run = Bun.spawnSync(["bash", script, ...args], {
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...paths },
    });
    return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
  };
  const health = () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
  afterAll(() => {
    install(["--uninstall", "--purge"]);
    rmSync(root, { recursive: true, force: true });
  });

  test.skipIf(!existsSync(desk))(
    "installs, upgrades with a backup, rolls a broken binary back, and uninstalls keeping or purging data",
    async () => {
      const first = install([desk]);
      expect(first.err).toBe("");
      expect(first.code).toBe(0);
      expect(await health()).toBe(200);
      const settings = readFileSync(join(paths.DESK_INSTALL_CONF, "desk.env"), "utf8");
      expect(settings).toMatch(/^DESK_SECRET=.{20,}$/m);
      // Something stored by the running Desk, to find again after every step.
      const registered = await fetch(`http://127.0.0.1:${port}/v1/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ops@install.test", password: "install-password-1", name: "Ops" }),
      });
      expect(registered.status).toBe(201);

      const failed = install([broken]);
      expect(failed.code).toBe(1);
      expect(failed.err).toContain("putting the previous one back");
      expect(failed.err).toContain("rolled back");
      expect(sha256(paths.DESK_INSTALL_BIN)).toBe(sha256(desk));
      expect(await health()).toBe(200);
      const backups = readdirSync(join(paths.DESK_INSTALL_DATA, "backups"));
      expect(backups.some((f) => /^pre-upgrade-.*\.tar\.gz$/.test(f))).toBe(true);
      expect(readFileSync(join(paths.DESK_INSTALL_CONF, "desk.env"), "utf8")).toBe(settings);

      const upgraded = install([desk]);
      expect(upgraded.code).toBe(0);
      expect(upgraded.out).toContain("== backup before upgrading");
      expect(existsSync(`${paths.DESK_INSTALL_BIN}.previous`)).toBe(true);
      const login = await fetch(`http://127.0.0.1:${port}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ops@install.test", password: "install-password-1" }),
      });
      expect(login.status).toBe(200);

      const removed = install(["--uninstall"]);
      expect(removed.code).toBe(0);
      expect(await health()).toBe(0);
      expect(existsSync(paths.DESK_INSTALL_BIN)).toBe(false);
      expect(existsSync(paths.DESK_INSTALL_UNIT)).toBe(false);
      expect(existsSync(join(paths.DESK_INSTALL_DATA, "desk.db"))).toBe(true);
      expect(existsSync(join(paths.DESK_INSTALL_CONF, "desk.env"))).toBe(true);
      expect(install(["--uninstall", "--purge"]).code).toBe(0);
      expect(existsSync(paths.DESK_INSTALL_DATA)).toBe(false);
      expect(existsSync(paths.DESK_INSTALL_CONF)).toBe(false);
    },
    120_000,
  );
});
