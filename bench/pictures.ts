/**
 * Picture uploads against the real executable (dist/desk, sharp loaded on first use):
 * upload-to-served latency of a 3000×2000 JPEG (PUT /v1/me/avatar, then GET the 256 px picture it
 * answers), and the server's resident memory while 8 such uploads run at once.
 * Run: bun run build && bun bench/pictures.ts [rounds=30]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { DESK_BINARY } from "../test/e2e/browser";

const ROUNDS = Number(process.argv[2] ?? 30);
if (!existsSync(DESK_BINARY)) throw new Error("dist/desk is missing: run `bun run build` first");

// A photo-like 3000×2000 JPEG: a gradient with noise, so it does not compress to nothing.
const width = 3000;
const height = 2000;
const raw = Buffer.alloc(width * height * 3);
for (let i = 0, p = 0; i < width * height; i++) {
  const x = i % width;
  const y = (i / width) | 0;
  const n = (Math.random() * 40) | 0;
  raw[p++] = ((x * 255) / width + n) & 255;
  raw[p++] = ((y * 255) / height + n) & 255;
  raw[p++] = (128 + n) & 255;
}
const JPEG = await sharp(raw, { raw: { width, height, channels: 3 } })
  .jpeg({ quality: 85 })
  .toBuffer();
console.log(`input: ${width}×${height} JPEG, ${(JPEG.length / 1024 / 1024).toFixed(2)} MB`);

const dataDir = mkdtempSync(join(tmpdir(), "desk-bench-pictures-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const url = `http://127.0.0.1:${port}`;
const proc = Bun.spawn([DESK_BINARY, "serve"], {
  cwd: dataDir,
  env: {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dataDir,
    DESK_HOST: "127.0.0.1",
    DESK_PORT: String(port),
    DESK_SMTP_PORT: "0",
    DESK_DATA_DIR: dataDir,
    DESK_BASE_URL: url,
    DESK_LOG_LEVEL: "warn",
  },
  stdout: "inherit",
  stderr: "inherit",
});
const rssMb = (field: "VmRSS" | "VmHWM") => {
  const line = readFileSync(`/proc/${proc.pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+) kB`));
  return line ? Number(line[1]) / 1024 : Number.NaN;
};

try {
  for (let i = 0; i < 200; i++) {
    if ((await fetch(`${url}/healthz`).catch(() => null))?.ok) break;
    await Bun.sleep(100);
  }
  await Bun.sleep(1000);
  const fresh = rssMb("VmRSS");
  const registered = await fetch(`${url}/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "bench@example.test", password: "bench password 1", name: "Bench" }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const headers = { authorization: `Bearer ${registered.access_token}` };
  await Bun.sleep(1000);
  const idle = rssMb("VmRSS");

  const upload = async () => {
    const form = new FormData();
    form.append("file", new File([JPEG], "photo.jpg", { type: "image/jpeg" }));
    const res = await fetch(`${url}/v1/me/avatar`, { method: "PUT", headers, body: form });
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { user: { avatar_url: string } }).user.avatar_url;
  };

  // First upload loads sharp; measured apart.
  let started = performance.now();
  let served = await fetch(await upload());
  await served.arrayBuffer();
  console.log(`first upload-to-served (loads sharp): ${(performance.now() - started).toFixed(0)} ms`);

  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    started = performance.now();
    served = await fetch(await upload());
    if (served.status !== 200) throw new Error(`GET picture answered ${served.status}`);
    await served.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(0);
  console.log(
    `upload-to-served over ${ROUNDS} sequential uploads: p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${pct(100)} ms`,
  );

  const before = rssMb("VmRSS");
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb("VmRSS"));
  }, 10);
  started = performance.now();
  await Promise.all(Array.from({ length: 8 }, upload));
  const wall = performance.now() - started;
  clearInterval(sampler);
  await Bun.sleep(2000);
  console.log(
    `8 concurrent uploads: ${wall.toFixed(0)} ms wall; RSS idle ${fresh.toFixed(1)} MB at start, ${idle.toFixed(1)} MB after sign-up, before ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB (VmHWM ${rssMb("VmHWM").toFixed(1)} MB), 2 s after ${rssMb("VmRSS").toFixed(1)} MB`,
  );
} finally {
  proc.kill("SIGTERM");
  await Promise.race([proc.exited, Bun.sleep(5000)]);
  rmSync(dataDir, { recursive: true, force: true });
}
