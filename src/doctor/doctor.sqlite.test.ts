import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort } from "../../test/peers/dovecot";
import { startTestDesk } from "../../test/harness";
import { type DoctorProbes, diagnose, realProbes } from "./doctor";

/** The real probes, but DNS answers from a table: this machine has no resolver for public names. */
const probes = (mx: Record<string, string[]>): DoctorProbes => ({
  ...realProbes,
  mx: async (domain) => {
    const hosts = mx[domain];
    if (!hosts) throw new Error(`queryMx ENOTFOUND ${domain}`);
    return hosts;
  },
});

const env = (dataDir: string, extra: Record<string, string> = {}) => ({
  DESK_DATA_DIR: dataDir,
  DESK_HOST: "127.0.0.1",
  DESK_SECRET: "doctor-test-secret-long-enough-0123456789",
  ...extra,
});
const find = (findings: Awaited<ReturnType<typeof diagnose>>, check: string) =>
  findings.filter((f) => f.check === check);

// A tag of SQLite's migration lineage written into the file of a stopped desk.
describe("desk doctor", () => {
  test("a database written by a newer release fails, naming the migrations this binary lacks", async () => {
    const desk = await startTestDesk();
    await desk.stop();
    const sqlite = new Database(join(desk.dataDir, "desk.db"));
    sqlite.run("INSERT INTO __desk_migrations (tag, applied_at) VALUES ('9999_from_the_future', '2030-01-01')");
    sqlite.close();
    const findings = await diagnose(env(desk.dataDir, { DESK_PORT: String(await freePort()) }), probes({}));
    expect(find(findings, "database version")[0]).toMatchObject({
      verdict: "fail",
      detail: expect.stringContaining("9999_from_the_future"),
    });
  });
});
