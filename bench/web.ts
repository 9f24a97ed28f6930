/**
 * Web app figures, measured in Chromium against dist/desk with 50 seeded tickets:
 *   1. built JS the first page loads (gzip bytes; aim < 250 KB),
 *   2. navigation → interactive inbox showing 50 tickets (aim < 1 s; median of runs),
 *   3. switching tickets with j/k (aim < 100 ms; median),
 * Run: bun run build && bun bench/web.ts [runs]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { call, ensureBinary, launchChromium, ROOT, startDeskBinary } from "../test/e2e/browser";

const runs = Number(process.argv[2] ?? 5);
const ready = ensureBinary();
if (!ready.ok) {
  console.error(`cannot run: ${ready.reason}`);
  process.exit(1);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const desk = await startDeskBinary();
const browser = await launchChromium();
try {
  // Owner, workspace, key and 50 tickets through the public API.
  const register = await call(
    desk.url,
    "POST",
    "/v1/auth/register",
    {},
    { email: "bench@example.test", password: "bench password 1", name: "Bench Owner" },
  );
  const token = register.body.access_token as string;
  const workspace = await call(
    desk.url,
    "POST",
    "/v1/workspaces",
    { authorization: `Bearer ${token}` },
    { name: "Bench" },
  );
  const asOwner = { authorization: `Bearer ${token}`, "desk-workspace": workspace.body.id };
  for (let i = 1; i <= 50; i++) {
    const res = await call(desk.url, "POST", "/v1/tickets", asOwner, {
      subject: `Bench ticket ${i}: order question`,
      contact: { email: `c${i}@bench.test`, name: `Customer ${i}` },
      body_html: `<p>Message ${i}</p>`,
      kind: "reply",
      priority: i % 7 === 0 ? "urgent" : "normal",
    });
    if (res.status !== 201) throw new Error(`seeding tickets failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  // 1. Bytes of JS the first page loads (entry chunk plus its static imports), gzipped.
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on("request", (r) => r.resourceType() === "script" && scripts.add(new URL(r.url()).pathname));
  await page.goto(desk.url);
  await page.getByLabel("Email").fill("bench@example.test");
  await page.getByLabel("Password").fill("bench password 1");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/inbox\//);
  const dist = join(ROOT, "web", "dist");
  const firstPageGzip = [...scripts].reduce((sum, p) => sum + gzipSync(readFileSync(join(dist, p))).length, 0);
  const allGzip = readdirSync(join(dist, "assets"))
    .filter((f) => f.endsWith(".js"))
    .reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, "assets", f))).length, 0);

  // 2. Navigation start → 50 ticket rows on screen and the list answering keys.
  const inboxTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(`${desk.url}/inbox/all`);
    await page.waitForFunction(
      () =>
        document.querySelectorAll(".ticket-row").length >= 15 &&
        /^50\b/.test(document.querySelector(".page-head .muted")?.textContent ?? ""),
    );
    inboxTimes.push(await page.evaluate(() => performance.now()));
  }

  // 3. Ticket switching: from an open ticket, j moves to the next; time until its subject shows.
  await page.locator(".ticket-row .ticket-main").first().click();
  await page.waitForSelector(".ticket-title");
  await page.waitForTimeout(300);
  const switchTimes: number[] = [];
  for (let i = 0; i < Math.max(10, runs * 2); i++) {
    const before = await page.locator(".ticket-title").textContent();
    const ms = await page.evaluate(
      (previous) =>
        new Promise<number>((resolve) => {
          const start = performance.now();
          const check = () => {
            const now = document.querySelector(".ticket-title")?.textContent;
            if (now && now !== previous) resolve(performance.now() - start);
            else requestAnimationFrame(check);
          };
          window.dispatchEvent(new KeyboardEvent("keydown", { key: "j" }));
          requestAnimationFrame(check);
        }),
      before,
    );
    switchTimes.push(ms);
    await page.waitForSelector(".msg");
  }

  console.log("web app figures (Chromium headless, dist/desk on loopback)");
  console.log(
    `  first page JS, gzip:             ${(firstPageGzip / 1024).toFixed(1)} KB  (${scripts.size} files; all chunks ${(allGzip / 1024).toFixed(1)} KB)   aim < 250 KB`,
  );
  console.log(
    `  navigation → inbox of 50, median: ${median(inboxTimes).toFixed(0)} ms  (runs: ${inboxTimes.map((t) => t.toFixed(0)).join(", ")})   aim < 1000 ms`,
  );
  console.log(
    `  switch ticket (j), median:        ${median(switchTimes).toFixed(1)} ms  (max ${Math.max(...switchTimes).toFixed(1)} ms over ${switchTimes.length})   aim < 100 ms`,
  );
} finally {
  await browser.close();
  await desk.stop();
}
