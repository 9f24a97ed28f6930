/**
 * JavaScriptCore collects when allocation asks it to, not when a server goes quiet: after a burst
 * of requests the heap the burst grew stays resident until the next load (measured in-process after
 * 8 s of ticket creates: a 52 MB heap, 29 MB of it garbage, and RSS 187 MB that one full collection
 * brought to 153 MB). So a timer looks every `intervalMs`: when the heap has grown by `growthBytes`
 * since the last full collection and the process used under `quietShare` of a core during the last
 * interval, it collects and hands the freed heap back. Under load it never runs (no pause lands on
 * a busy server); idle it costs one timer per interval and two counter reads.
 */
export type QuietCollectorOptions = {
  intervalMs?: number;
  growthBytes?: number;
  /** CPU time over wall time below which the last interval counts as quiet. */
  quietShare?: number;
  /** Full collection and heap shrink (Bun.gc(true) and Bun.shrink by default; tests count calls). */
  collect?: () => void;
  heapUsed?: () => number;
  cpuMicros?: () => number;
};

const MB = 1024 * 1024;

export function startQuietCollector(options: QuietCollectorOptions = {}): { tick(): boolean; stop(): void } {
  const intervalMs = options.intervalMs ?? 2_000;
  const growthBytes = options.growthBytes ?? 16 * MB;
  const quietShare = options.quietShare ?? 0.1;
  const collect =
    options.collect ??
    (() => {
      Bun.gc(true);
      Bun.shrink();
    });
  const heapUsed = options.heapUsed ?? (() => process.memoryUsage().heapUsed);
  const cpuMicros =
    options.cpuMicros ??
    (() => {
      const usage = process.cpuUsage();
      return usage.user + usage.system;
    });
  let baseline = heapUsed();
  let lastCpu = cpuMicros();

  /** One look; answers whether it collected. */
  const tick = (): boolean => {
    const cpu = cpuMicros();
    const busy = (cpu - lastCpu) / 1000 / intervalMs;
    lastCpu = cpu;
    const used = heapUsed();
    // A heap that shrank on its own (the collector ran under load) is the new starting point.
    if (used < baseline) baseline = used;
    if (busy >= quietShare || used - baseline < growthBytes) return false;
    collect();
    baseline = heapUsed();
    lastCpu = cpuMicros();
    return true;
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}
