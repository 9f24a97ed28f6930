/**
 * The test suite on PostgreSQL (DESK_DATABASE_URL names a server database the tests may create
 * databases from; `.ci/postgres.sh` starts one): every test file but those about SQLite itself
 * (`*.sqlite.test.ts`), or only those under the paths given.
 *   bash .ci/postgres.sh bun scripts/test-postgres.ts [path …]
 */
import { Glob } from "bun";

if (!/^postgres(ql)?:\/\//.test(process.env.DESK_DATABASE_URL ?? "")) {
  console.error("DESK_DATABASE_URL must name a PostgreSQL server (bash .ci/postgres.sh bun scripts/test-postgres.ts)");
  process.exit(2);
}
const under = process.argv.slice(2);
const files: string[] = [];
for (const pattern of ["src/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"])
  for (const file of new Glob(pattern).scanSync("."))
    if (!file.endsWith(".sqlite.test.ts") && (under.length === 0 || under.some((p) => file.startsWith(p))))
      files.push(`./${file}`);
files.sort();
const run = Bun.spawnSync(["bun", "test", ...files], { stdio: ["inherit", "inherit", "inherit"], env: process.env });
process.exit(run.exitCode ?? 1);
