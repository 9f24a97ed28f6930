import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const script = join(import.meta.dir, "..", "install.sh");

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
