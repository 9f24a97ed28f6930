import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort } from "../../test/peers/dovecot";
import { startTestDesk } from "../../test/harness";
import { diagnose } from "./doctor";
import { doctorEnv, doctorProbes, findingsOf } from "../../test/kit/doctor";

// A tag of SQLite's migration lineage written into the file of a stopped desk.
describe("desk doctor", () => {
  test("a database written by a newer release fails, naming the migrations this binary lacks", async () => {
    const desk = await startTestDesk();
    await desk.stop();
    const sqlite = new Database(join(desk.dataDir, "desk.db"));
    sqlite.run("INSERT INTO __desk_migrations (tag, applied_at) VALUES ('9999_from_the_future', '2030-01-01')");
    sqlite.close();
    const findings = await diagnose(doctorEnv(desk.dataDir, { DESK_PORT: String(await freePort()) }), doctorProbes({}));
    expect(findingsOf(findings, "database version")[0]).toMatchObject({
      verdict: "fail",
      detail: expect.stringContaining("9999_from_the_future"),
    });
  });
});
