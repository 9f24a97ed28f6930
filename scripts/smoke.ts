/**
 * Smoke test of the single executable: copies dist/desk into an empty folder, serves it on a free
 * port, waits for /healthz, then registers a user, creates a workspace and an API key and calls the
 * API with that key. Exits non-zero on any failure.   bun scripts/smoke.ts [path/to/desk]
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";

const source = process.argv[2] ?? join(import.meta.dir, "..", "dist", "desk");
if (!existsSync(source)) {
  console.error(`smoke: ${source} does not exist; run 'bun run build' first`);
  process.exit(1);
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

const dir = mkdtempSync(join(tmpdir(), "desk-smoke-"));
const binary = join(dir, "desk");
copyFileSync(source, binary);
const port = freePort();
const base = `http://127.0.0.1:${port}`;
const child = Bun.spawn([binary, "serve"], {
  cwd: dir,
  env: {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    DESK_PORT: String(port),
    DESK_HOST: "127.0.0.1",
    DESK_SMTP_PORT: "0",
    DESK_DATA_DIR: join(dir, "data"),
    DESK_BASE_URL: base,
    DESK_LOG_LEVEL: "warn",
  },
  stdout: "inherit",
  stderr: "inherit",
});

function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`smoke: ${what}`);
}

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

let failed = false;
try {
  const started = performance.now();
  for (;;) {
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    check(child.exitCode === null, `desk exited with ${child.exitCode} before becoming healthy`);
    check(performance.now() - started < 20_000, "healthz not ready within 20 s");
    await Bun.sleep(50);
  }
  console.log(`healthy after ${Math.round(performance.now() - started)} ms`);

  const reg = await call(
    "POST",
    "/v1/auth/register",
    {},
    { email: "smoke@example.test", password: "smoke-test-password", name: "Smoke" },
  );
  check(reg.status === 201 && reg.body.access_token, `register answered ${reg.status} ${reg.text}`);
  const person = { authorization: `Bearer ${reg.body.access_token}` };
  const ws = await call("POST", "/v1/workspaces", person, { name: "Smoke Test" });
  check(ws.status === 201 && ws.body.id, `create workspace answered ${ws.status} ${ws.text}`);
  const key = await call(
    "POST",
    "/v1/api-keys",
    { ...person, "desk-workspace": ws.body.id },
    { name: "smoke", scopes: ["settings:read"] },
  );
  check(key.status === 201 && key.body.secret, `create API key answered ${key.status} ${key.text}`);
  const viaKey = await call("GET", "/v1/workspace", { authorization: `Bearer ${key.body.secret}` });
  check(
    viaKey.status === 200 && viaKey.body.id === ws.body.id,
    `GET /v1/workspace with the key answered ${viaKey.status} ${viaKey.text}`,
  );
  // A picture upload proves sharp (and libvips) load inside the executable.
  const form = new FormData();
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  form.append("file", new File([new Uint8Array(png)], "me.png"));
  const avatar = await fetch(`${base}/v1/me/avatar`, { method: "PUT", headers: person, body: form });
  const avatarText = await avatar.text();
  check(avatar.status === 200, `PUT /v1/me/avatar answered ${avatar.status} ${avatarText}`);
  const image = await fetch(JSON.parse(avatarText).user.avatar_url.replace("?s=256", "?s=64"));
  check(image.status === 200 && image.headers.get("content-type") === "image/png", `image answered ${image.status}`);
  check((await sharp(new Uint8Array(await image.arrayBuffer())).metadata()).width === 64, "image is not 64 px");
  const spec = await call("GET", "/v1/openapi.json", {});
  check(spec.status === 200 && spec.body.openapi, "openapi.json missing");
  console.log("smoke: ok");
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  child.kill("SIGTERM");
  const exited = await Promise.race([child.exited, Bun.sleep(5000).then(() => null)]);
  if (exited === null) {
    child.kill("SIGKILL");
    failed = true;
    console.error("smoke: desk did not stop within 5 s of SIGTERM");
  }
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
