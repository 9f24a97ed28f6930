/**
 * Runs one bench in two checkouts, alternating, and prints each figure's median per checkout and
 * their ratio: a change's cost measured side by side in one run (the machine's noise shared).
 *   bun bench/ab.ts <before-dir> <after-dir> [rounds=3] -- <bench file> [args…]
 * Figures are read from the bench's output lines as `<label> … <number><unit>`: write-path's
 * `cpu X ms/op` and `/s`, me.bench's `req/s`. Example, the store seam's cost on creates:
 *   git worktree add --detach /tmp/before <commit>; ln -s $PWD/node_modules /tmp/before/
 *   BENCH_JOBS=off bun bench/ab.ts /tmp/before . 3 -- bench/write-path.ts 2000
 */
import { resolve } from "node:path";

const args = process.argv.slice(2);
const split = args.indexOf("--");
if (split < 2) {
  console.error("usage: bun bench/ab.ts <before-dir> <after-dir> [rounds] -- <bench> [args…]");
  process.exit(2);
}
const [beforeDir, afterDir, roundsArg] = args.slice(0, split);
const bench = args.slice(split + 1);
const rounds = Number(roundsArg ?? 3);
const trees = { before: resolve(beforeDir!), after: resolve(afterDir!) };

/** Figures worth comparing: per line, its label and every "<number> <unit>" that follows. */
function figuresOf(output: string): Map<string, number> {
  const figures = new Map<string, number>();
  for (const line of output.split("\n")) {
    const label = line.match(/^([A-Za-z][^\d]*?)\s{2,}/)?.[1]?.trim();
    if (!label) continue;
    for (const match of line.matchAll(/(cpu )?([\d.]+)\s*(ms\/op|req\/s|\/s)/g))
      figures.set(`${label} ${match[1] ?? ""}${match[3]}`, Number(match[2]));
  }
  return figures;
}

const samples = { before: new Map<string, number[]>(), after: new Map<string, number[]>() };
for (let round = 0; round < rounds; round++) {
  for (const side of ["before", "after"] as const) {
    const proc = Bun.spawnSync(["bun", ...bench], {
      cwd: trees[side],
      env: process.env,
      stdout: "pipe",
      stderr: "pipe",
    });
    for (const [name, value] of figuresOf(proc.stdout.toString())) {
      const list = samples[side].get(name) ?? [];
      list.push(value);
      samples[side].set(name, list);
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`${bench.join(" ")}: medians of ${rounds} alternating runs (after / before)`);
for (const [name, before] of samples.before) {
  const after = samples.after.get(name);
  if (!after) continue;
  const ratio = median(after) / median(before);
  console.log(
    `${name.padEnd(64)} before ${median(before).toFixed(2).padStart(9)}  after ${median(after).toFixed(2).padStart(9)}  ratio ${ratio.toFixed(3)}`,
  );
}
