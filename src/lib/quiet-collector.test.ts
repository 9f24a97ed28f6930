import { describe, expect, test } from "bun:test";
import { startQuietCollector } from "./quiet-collector";

const MB = 1024 * 1024;

function harness() {
  const state = { heap: 50 * MB, cpu: 0, collections: 0 };
  const collector = startQuietCollector({
    intervalMs: 1000,
    growthBytes: 16 * MB,
    quietShare: 0.1,
    heapUsed: () => state.heap,
    cpuMicros: () => state.cpu,
    collect: () => {
      state.collections++;
      state.heap = 30 * MB;
    },
  });
  return { state, collector };
}

describe("quiet-time collector", () => {
  test("collects once the heap grew and the process went quiet; never while busy", () => {
    const { state, collector } = harness();
    try {
      state.heap += 40 * MB;
      // A busy interval: 900 ms of CPU in a 1 s interval.
      state.cpu += 900_000;
      expect(collector.tick()).toBe(false);
      // Quiet now (20 ms of CPU): the grown heap is collected.
      state.cpu += 20_000;
      expect(collector.tick()).toBe(true);
      expect(state.collections).toBe(1);
      // Nothing grew since: quiet intervals cost no further collection.
      state.cpu += 1_000;
      expect(collector.tick()).toBe(false);
      expect(state.collections).toBe(1);
    } finally {
      collector.stop();
    }
  });

  test("a small growth is left to the engine", () => {
    const { state, collector } = harness();
    try {
      state.heap += 8 * MB;
      expect(collector.tick()).toBe(false);
      expect(state.collections).toBe(0);
    } finally {
      collector.stop();
    }
  });
});
