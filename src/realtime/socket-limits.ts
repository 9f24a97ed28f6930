import { readFileSync } from "node:fs";
import type { Config } from "../config/config";
import { DeskError } from "../lib/errors";

export type SocketLimits = Config["realtimeLimits"];

/** What an unknown platform is assumed to allow: the common soft limit. */
const FALLBACK_FD_LIMIT = 1024;

/**
 * The process's open-file limit (`ulimit -n`, the soft RLIMIT_NOFILE) as it stands after Bun raised
 * it at start. Linux answers in /proc; elsewhere a shell inherits the same limit and prints it.
 */
export function openFileLimit(): number {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    if (soft === "unlimited") return Number.MAX_SAFE_INTEGER;
    if (soft && /^\d+$/.test(soft)) return Number(soft);
  } catch {
    // not Linux: ask a shell below
  }
  try {
    const out = Bun.spawnSync(["sh", "-c", "ulimit -n"], { stdout: "pipe", stderr: "ignore" }).stdout.toString().trim();
    if (out === "unlimited") return Number.MAX_SAFE_INTEGER;
    if (/^\d+$/.test(out)) return Number(out);
  } catch {
    // no shell: assume the common default
  }
  return FALLBACK_FD_LIMIT;
}

/**
 * Sockets the gateway may hold at once: the open-file limit minus the reserve HTTP, SMTP and the
 * database need (each socket is a descriptor; once they run out nothing else accepts, `/healthz`
 * included). A reserve larger than half the limit leaves half, so a small limit still serves some
 * sockets. DESK_REALTIME_MAX_SOCKETS may only lower it.
 */
export function globalSocketCap(limits: Pick<SocketLimits, "maxSockets" | "fdReserve">, fdLimit: number): number {
  const computed = Math.max(fdLimit - limits.fdReserve, Math.floor(fdLimit / 2));
  return Math.max(1, Math.min(limits.maxSockets ?? computed, computed));
}

/** One cap an upgrade must fit under: what it counts (`key`), how many it allows, and how to say so. */
export type SocketCap = { key: string; max: number; what: string };

/**
 * Open sockets counted per cap key. A socket is counted from the moment its upgrade is accepted
 * (not when it opens) so that upgrades arriving together cannot all pass the same check, and
 * released once when it closes. Keys exist only while they count something, so the map is as
 * bounded as the sockets.
 */
export function createSocketCounter(globalCap: number) {
  const counts = new Map<string, number>();
  let total = 0;
  return {
    /** Counts the socket under every cap, or throws 429 naming the first cap it is over. */
    take(caps: readonly SocketCap[]): void {
      if (total >= globalCap)
        throw tooManySockets("The server holds as many live connections as it may; try again later.");
      for (const cap of caps)
        if ((counts.get(cap.key) ?? 0) >= cap.max)
          throw tooManySockets(`At most ${cap.max} live connections ${cap.what}; close one first.`);
      total++;
      for (const cap of caps) counts.set(cap.key, (counts.get(cap.key) ?? 0) + 1);
    },
    release(caps: readonly SocketCap[]): void {
      total--;
      for (const cap of caps) {
        const left = (counts.get(cap.key) ?? 1) - 1;
        if (left > 0) counts.set(cap.key, left);
        else counts.delete(cap.key);
      }
    },
    total: () => total,
  };
}

const tooManySockets = (detail: string) => new DeskError(429, "too_many_sockets", detail);
