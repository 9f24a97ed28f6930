import { expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";

const desk = await startTestDesk();

test("the sign-in and /v1/me routes are documented in the OpenAPI document", async () => {
  const res = await desk.api("GET", "/v1/openapi.json");
  expect(res.status).toBe(200);
  const paths = Object.keys(res.body.paths);
  for (const path of [
    "/v1/auth/register",
    "/v1/auth/login",
    "/v1/auth/mfa",
    "/v1/auth/refresh",
    "/v1/auth/accounts",
    "/v1/auth/logout",
    "/v1/me/mfa/setup",
    "/v1/me/mfa/enable",
    "/v1/me/mfa/disable",
  ]) {
    expect(paths).toContain(path);
  }
  expect(paths.some((p) => p === "/v1/me" || p === "/v1/me/")).toBe(true);
});
