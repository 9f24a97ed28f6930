import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";

describe("GET /v1/auth/status on a closed instance", async () => {
  const desk = await startTestDesk();

  test("a fresh instance: sign-up open, no users, no credential needed", async () => {
    const res = await desk.api("GET", "/v1/auth/status");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signup_open: true, has_users: false });
  });

  test("once a person exists: sign-up closed (and register agrees), has_users true", async () => {
    await createUser(desk);
    const res = await desk.api("GET", "/v1/auth/status");
    expect(res.body).toEqual({ signup_open: false, has_users: true });
    const register = await desk.api("POST", "/v1/auth/register", {
      body: { email: "late@example.test", password: "password-9", name: "Late" },
    });
    expect(register.status).toBe(403);
  });

  test("a bearer credential changes nothing and an invalid one is not rejected (public route)", async () => {
    const res = await desk.api("GET", "/v1/auth/status", { headers: { authorization: "Bearer not-a-token" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ signup_open: false, has_users: true });
  });

  test("it is in the OpenAPI document without a security requirement", async () => {
    const doc = await desk.api("GET", "/v1/openapi.json");
    const op = doc.body.paths["/v1/auth/status"]?.get;
    expect(op).toBeDefined();
    expect(op.security).toEqual([]);
  });
});

describe("GET /v1/auth/status with DESK_OPEN_SIGNUP=true", async () => {
  const desk = await startTestDesk({ env: { DESK_OPEN_SIGNUP: "true" } });

  test("sign-up stays open after the first person", async () => {
    expect((await desk.api("GET", "/v1/auth/status")).body).toEqual({ signup_open: true, has_users: false });
    await createUser(desk);
    expect((await desk.api("GET", "/v1/auth/status")).body).toEqual({ signup_open: true, has_users: true });
    const register = await desk.api("POST", "/v1/auth/register", {
      body: { email: "second@example.test", password: "password-9", name: "Second" },
    });
    expect(register.status).toBe(201);
    expect((await desk.api("GET", "/v1/auth/status")).body).toEqual({ signup_open: true, has_users: true });
  });
});
