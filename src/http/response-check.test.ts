import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { createLogger } from "../lib/logger";
import { createResponseCheck } from "./response-check";
import { sql } from "drizzle-orm";
import { execute } from "../db/store";

const checked = await startTestDesk({ env: { DESK_JOBS: "off" } });
const production = await startTestDesk({ env: { DESK_JOBS: "off", DESK_RESPONSE_CHECKS: "off" } });

/** A ticket whose stored status is outside the contract: what a presenter drifting from its schema would send. */
async function driftedTicket(desk: typeof checked) {
  const { owner } = await createWorkspaceWithOwner(desk);
  const created = await desk.api("POST", "/v1/tickets", {
    headers: owner.headers,
    body: { subject: "Drift", contact: { email: "drift@example.com" } },
  });
  expect(created.status).toBe(201);
  await execute(desk.deps.db, sql`UPDATE tickets SET status = 'bogus' WHERE id = ${created.body.id}`);
  return desk.api("GET", `/v1/tickets/${created.body.id}`, { headers: owner.headers });
}

describe("response schema checks", () => {
  test("the test harness checks every answer: an answer outside its schema fails with 500", async () => {
    expect(checked.deps.config.responseChecks).toBe(true);
    const answer = await driftedTicket(checked);
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ status: 500, code: "internal_error", detail: "Something went wrong on our side." });
  });

  test("production answers are not checked (nor copied)", async () => {
    expect(production.deps.config.responseChecks).toBe(false);
    const answer = await driftedTicket(production);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe("bogus");
  });

  test("a field the schema does not describe is drift too (production would send it)", () => {
    const schemas = new Map([["GET /v1/things/:id", { 200: z.object({ id: z.string() }) }]]);
    const check = createResponseCheck(schemas, createLogger("silent"));
    const request = new Request("http://x/v1/things/1");
    const at =
      (response: unknown, status = 200) =>
      () =>
        check({ request, route: "/v1/things/:id", response, set: { status } });
    expect(at({ id: "1" })).not.toThrow();
    expect(at({ id: "1", secret_hash: "x" })).toThrow();
    expect(at({ id: 1 })).toThrow();
    // Statuses without a schema, other routes and raw Responses are not checked.
    expect(at({ anything: true }, 404)).not.toThrow();
    expect(() => check({ request, route: "/v1/other", response: { x: 1 }, set: {} })).not.toThrow();
    expect(at(new Response("raw"))).not.toThrow();
  });
});
