/**
 * The test suite on PostgreSQL: every test file but those about SQLite itself (`*.sqlite.test.ts`),
 * or only those under the paths given, in a process whose DESK_DATABASE_URL is the server database
 * the tests create one database per desk from (DESK_TEST_POSTGRES_URL; `.ci/postgres.sh` starts a
 * server and sets it).
 *   bash .ci/postgres.sh bun scripts/test-postgres.ts [path …]
 */
import { Glob } from "bun";

const server = process.env.DESK_TEST_POSTGRES_URL;
if (!/^postgres(ql)?:\/\//.test(server ?? "")) {
  console.error(
    "DESK_TEST_POSTGRES_URL must name a PostgreSQL server (bash .ci/postgres.sh bun scripts/test-postgres.ts)",
  );
  process.exit(2);
}
const under = process.argv.slice(2);
const files: string[] = [];
for (const pattern of ["src/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"])
  for (const file of new Glob(pattern).scanSync("."))
    if (!file.endsWith(".sqlite.test.ts") && (under.length === 0 || under.some((p) => file.startsWith(p))))
      files.push(`./${file}`);
files.sort();
const run = Bun.spawnSync(["bun", "test", ...files], {
  stdio: ["inherit", "inherit", "inherit"],
  env: { ...process.env, DESK_DATABASE_URL: server },
});
process.exit(run.exitCode ?? 1);
