import { expect, test } from "bun:test";
import { join } from "node:path";
import { startTestDesk, storeEnvOf } from "../../test/harness";
import { createUser } from "../../test/factories";

// The operator's command runs as its own process against the data dir of a running Desk.
const desk = await startTestDesk({ env: { DESK_BASE_URL: "http://desk.test" } });
const MAIN = join(import.meta.dir, "..", "main.ts");

function desk_cli(...args: string[]) {
  const run = Bun.spawnSync(["bun", MAIN, ...args], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      ...storeEnvOf(desk),
      DESK_BASE_URL: "http://desk.test",
      DESK_LOG_LEVEL: "silent",
    },
  });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

test("desk user reset-password <email> prints a one-time link that sets a new password and ends the sessions", async () => {
  const person = await createUser(desk, { password: "forgotten-password" });
  const run = desk_cli("user", "reset-password", person.email.toUpperCase());
  expect(run.err).toContain("valid until");
  expect(run.code).toBe(0);
  const link = run.out.trim();
  expect(link).toMatch(/^http:\/\/desk\.test\/reset-password#[A-Za-z0-9_-]{40,}$/);
  const token = link.split("#")[1]!;

  const reset = await desk.api("POST", "/v1/auth/password/reset", { body: { token, password: "chosen-by-them" } });
  expect(reset.status).toBe(204);
  expect((await desk.api("GET", "/v1/me", { headers: { authorization: `Bearer ${person.token}` } })).status).toBe(401);
  expect(
    (await desk.api("POST", "/v1/auth/login", { body: { email: person.email, password: "chosen-by-them" } })).status,
  ).toBe(200);
  expect(
    (await desk.api("POST", "/v1/auth/password/reset", { body: { token, password: "chosen-again-1" } })).status,
  ).toBe(422);
});

test("an unknown email exits 1; wrong usage exits 2", () => {
  const unknown = desk_cli("user", "reset-password", "nobody@example.test");
  expect(unknown.code).toBe(1);
  expect(unknown.out).toBe("");
  expect(unknown.err).toContain("no user with the email nobody@example.test");
  expect(desk_cli("user").code).toBe(2);
  expect(desk_cli("user", "delete", "x@example.test").code).toBe(2);
});
