import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort } from "./dovecot";

export type SmtpSink = {
  port: number;
  /** Every message received so far, raw (smtp-sink prepends its X-Client-Addr/X-Rcpt-Args lines). */
  messages(): string[];
  /** Waits until at least `count` messages arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<string[]>;
  /**
   * Waits for a message the predicate accepts and answers it once its file stops growing (smtp-sink
   * lists a file while it still writes it, so a message found early may be cut short).
   */
  waitForMatch(predicate: (message: string) => boolean, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
};

/** Postfix's smtp-sink on a free port (PEERS.md §2); `extraArgs` injects faults (e.g. ["-f", "DATA"]). */
export async function startSmtpSink(extraArgs: string[] = []): Promise<SmtpSink> {
  const dir = mkdtempSync(join(tmpdir(), "desk-sink-"));
  // smtp-sink drops to user nobody, which must reach the output folder.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "out"), { recursive: true });
  Bun.spawnSync(["chown", "nobody", join(dir, "out")]);
  const port = await freePort();
  const child: Subprocess = Bun.spawn(
    ["smtp-sink", "-u", "nobody", ...extraArgs, "-d", `${dir}/out/%Y%m%d%H%M%S.`, `127.0.0.1:${port}`, "64"],
    {
      stdout: "ignore",
      stderr: "ignore",
    },
  );
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      socket.end();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("smtp-sink did not start");
      await Bun.sleep(30);
    }
  }
  const messages = () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const entry of readdirSync(d)) {
        const p = join(d, entry);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(join(dir, "out"));
    return files.sort().map((f) => readFileSync(f, "utf8"));
  };
  return {
    port,
    messages,
    async waitFor(count, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        // smtp-sink creates a message's file before it writes it: an empty one has not arrived yet.
        const found = messages().filter((m) => m.length > 0);
        if (found.length >= count) {
          // smtp-sink lists a file while it still writes it: answer once the files stop growing.
          await Bun.sleep(100);
          const again = messages().filter((m) => m.length > 0);
          if (again.length === found.length && again.every((m, i) => m === found[i])) return found;
          continue;
        }
        if (Date.now() > until) throw new Error(`smtp-sink: ${found.length} of ${count} messages arrived`);
        await Bun.sleep(25);
      }
    },
    async waitForMatch(predicate, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = messages().find(predicate);
        if (found !== undefined) {
          await Bun.sleep(100);
          if (messages().find(predicate) === found) return found;
        } else await Bun.sleep(25);
        if (Date.now() > until) throw new Error("smtp-sink: no complete message matched");
      }
    },
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
