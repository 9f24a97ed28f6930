import { describe, expect, test } from "bun:test";
import { buildApp } from "./app";
import { startTestDesk } from "../test/harness";

const desk = await startTestDesk();

describe("the app's global hooks", () => {
  // Elysia reads a hook's source to decide what every request must have parsed; a hook handing its
  // whole context to a function makes it parse cookies, headers and the query on every request
  // (a quarter of a served GET /v1/me). Routes that use them still get them: that is per route.
  test("ask Elysia to parse only what every request needs", () => {
    const app = buildApp(desk.deps) as unknown as { inference: Record<string, boolean> };
    expect(app.inference).toMatchObject({ cookie: false, headers: false, query: false, server: false, url: false });
  });
});
