import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/peers/dovecot";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { startTestDesk, storeEnvOf } from "../../test/harness";
import { onPostgres } from "../../test/kit/postgres";
import { sql } from "drizzle-orm";
import { execute } from "../db/store";
import { diagnose, formatFindings } from "./doctor";
import { doctorEnv, doctorProbes, findingsOf } from "../../test/kit/doctor";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "desk-doctor-"));
  dirs.push(dir);
  return dir;
};
const sink = await startSmtpSink();
afterAll(() => sink.stop());

describe("desk doctor", () => {
  test("a data dir others can read fails with the chmod that fixes it, before loading the config tightens it", async () => {
    const dir = join(freshDir(), "data");
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, "secret.key"), "x\n", { mode: 0o644 });
    chmodSync(join(dir, "secret.key"), 0o644);
    const findings = await diagnose(doctorEnv(dir, { DESK_PORT: String(await freePort()) }), doctorProbes({}));
    const perms = findingsOf(findings, "data dir permissions");
    expect(perms.map((f) => f.verdict)).toEqual(["fail", "fail"]);
    expect(perms[0]!.fix).toBe(`chmod 700 ${dir}`);
    expect(perms[1]!.detail).toContain("secret.key (0644)");
    expect(formatFindings(findings)).toContain("2 problem(s) to fix");
  });

  test("a reachable relay, an MX record and a free port pass; a dead relay and a missing MX fail with what to do", async () => {
    const dir = join(freshDir(), "data");
    const port = await freePort();
    const good = await diagnose(
      doctorEnv(dir, {
        DESK_PORT: String(port),
        DESK_INBOUND_DOMAIN: "support.example.com",
        DESK_SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      }),
      doctorProbes({ "support.example.com": ["mx1.example.com"] }),
    );
    expect(good.filter((f) => f.verdict === "fail")).toEqual([]);
    expect(findingsOf(good, "system mail relay")[0]!.verdict).toBe("ok");
    expect(findingsOf(good, "inbound mail (MX)")[0]!.detail).toContain("mx1.example.com");
    expect(findingsOf(good, "HTTP")[0]!.detail).toContain("is free");

    const dead = await freePort();
    const bad = await diagnose(
      doctorEnv(dir, {
        DESK_PORT: String(port),
        DESK_INBOUND_DOMAIN: "nomx.example.com",
        DESK_SMTP_URL: `smtp://user:hunter2@127.0.0.1:${dead}`,
      }),
      doctorProbes({}),
    );
    const relay = findingsOf(bad, "system mail relay")[0]!;
    expect(relay.verdict).toBe("fail");
    expect(relay.detail).not.toContain("hunter2");
    expect(relay.fix).toContain("DESK_SMTP_URL");
    const mx = findingsOf(bad, "inbound mail (MX)")[0]!;
    expect(mx.verdict).toBe("fail");
    expect(mx.fix).toContain("add an MX record: nomx.example.com");
  });

  test("a running Desk passes the HTTP check; another server on its port fails", async () => {
    const desk = await startTestDesk();
    const running = await diagnose(
      doctorEnv(desk.dataDir, { ...storeEnvOf(desk), DESK_PORT: new URL(desk.url).port }),
      doctorProbes({}),
    );
    expect(findingsOf(running, "HTTP")[0]).toMatchObject({
      verdict: "ok",
      detail: expect.stringContaining("Desk answers"),
    });
    expect(findingsOf(running, "database integrity")[0]!.verdict).toBe("ok");
    expect(findingsOf(running, "database version")[0]).toMatchObject({ verdict: "ok", detail: "up to date" });

    const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("nope", { status: 404 }) });
    try {
      const taken = await diagnose(
        doctorEnv(join(freshDir(), "data"), { DESK_PORT: String(other.port) }),
        doctorProbes({}),
      );
      expect(findingsOf(taken, "HTTP")[0]!.verdict).toBe("fail");
    } finally {
      other.stop(true);
    }
  });

  test("the command exits 1 and prints the fixes when a check fails", async () => {
    const dir = join(freshDir(), "data");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const run = Bun.spawnSync(["bun", join(import.meta.dir, "..", "main.ts"), "doctor"], {
      env: {
        ...process.env,
        ...doctorEnv(dir, { DESK_PORT: String(await freePort()), DESK_INBOUND_DOMAIN: "localhost" }),
      },
    });
    const out = run.stdout.toString();
    expect(run.exitCode).toBe(1);
    expect(out).toContain(`→ chmod 700 ${dir}`);
    expect(out).toContain("problem(s) to fix");
  });
});

// On PostgreSQL the database is a server, not a file in the data dir: the doctor reports whether it
// answers and which version it runs, and reads the migrations there.
describe.skipIf(!onPostgres)("desk doctor on PostgreSQL", () => {
  test("a reachable server is named with its version, never its password; the migrations are read there", async () => {
    const desk = await startTestDesk();
    const env = storeEnvOf(desk);
    const findings = await diagnose(
      doctorEnv(desk.dataDir, { ...env, DESK_PORT: String(await freePort()) }),
      doctorProbes({}),
    );
    const database = findingsOf(findings, "database")[0]!;
    expect(database.verdict).toBe("ok");
    expect(database.detail).toMatch(/^PostgreSQL \d+(\.\d+)? at .+ answers$/);
    expect(findingsOf(findings, "database integrity")[0]!.verdict).toBe("ok");
    expect(findingsOf(findings, "database version")[0]).toMatchObject({ verdict: "ok", detail: "up to date" });

    // With amcheck installed, the B-tree indexes of the desk's schema are checked.
    await execute(desk.deps.db, sql`CREATE EXTENSION IF NOT EXISTS amcheck`);
    const checked = await diagnose(
      doctorEnv(desk.dataDir, { ...env, DESK_PORT: String(await freePort()) }),
      doctorProbes({}),
    );
    expect(findingsOf(checked, "database integrity")[0]).toMatchObject({
      verdict: "ok",
      detail: expect.stringMatching(/^amcheck passed on [1-9]\d* index\(es\)$/),
    });

    await execute(
      desk.deps.db,
      sql`INSERT INTO __desk_migrations (tag, applied_at) VALUES ('9999_from_the_future', '2030-01-01')`,
    );
    const newer = await diagnose(
      doctorEnv(desk.dataDir, { ...env, DESK_PORT: String(await freePort()) }),
      doctorProbes({}),
    );
    expect(findingsOf(newer, "database version")[0]).toMatchObject({
      verdict: "fail",
      detail: expect.stringContaining("9999_from_the_future"),
    });
  });

  test("a server that does not answer fails with what to check, without the password", async () => {
    const dir = join(freshDir(), "data");
    const dead = await freePort();
    const findings = await diagnose(
      doctorEnv(dir, {
        DESK_PORT: String(await freePort()),
        DESK_DATABASE_URL: `postgres://desk:hunter2@127.0.0.1:${dead}/desk`,
        DESK_INBOUND_SECRET: "doctor-test-inbound-secret-0123456789",
      }),
      doctorProbes({}),
    );
    const database = findingsOf(findings, "database")[0]!;
    expect(database.verdict).toBe("fail");
    expect(database.detail).toContain(`127.0.0.1:${dead}/desk`);
    expect(database.detail).not.toContain("hunter2");
    expect(database.fix).toContain("DESK_DATABASE_URL");
    expect(findingsOf(findings, "database version")).toEqual([]);
  });
});
