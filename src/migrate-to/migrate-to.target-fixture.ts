// Started by migrate-to.test.ts as a process of its own (one process runs one engine): a desk on the
// PostgreSQL database the test migrated to (DESK_DATABASE_URL in this process's environment). It
// answers the GETs the test names, creates one more ticket, and prints both as JSON.
import { loadConfig } from "../config/config";
import { startDesk } from "../start";

const input = JSON.parse(process.env.MIGRATE_TO_FIXTURE ?? "{}") as {
  headers: Record<string, string>;
  gets: string[];
  create: unknown;
};
const config = loadConfig({
  ...process.env,
  DESK_HOST: "127.0.0.1",
  DESK_PORT: "0",
  DESK_SMTP_PORT: "0",
  DESK_LOG_LEVEL: "silent",
  DESK_JOBS: "off",
  DESK_BACKUP_INTERVAL: "off",
  DESK_RESPONSE_CHECKS: "on",
});
const desk = await startDesk(config, { webAssets: null });
const call = async (method: string, path: string, body?: unknown) => {
  const response = await desk.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...input.headers, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  return { status: response.status, text: await response.text() };
};
const answers: Record<string, { status: number; text: string }> = {};
for (const path of input.gets) answers[path] = await call("GET", path);
const created = await call("POST", "/v1/tickets", input.create);
await desk.stop();
console.log(JSON.stringify({ answers, created }));
process.exit(0);
