import { describe, expect, test } from "bun:test";
import { pathOf } from "./server";

describe("pathOf (the outer layer's cheap pathname)", () => {
  test("answers exactly what new URL(...).pathname answers, for plain and for normalised paths", () => {
    const urls = [
      "http://127.0.0.1:3000/v1/me",
      "http://localhost/v1/tickets/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b?limit=5",
      "http://h/v1/../healthz",
      "http://h/v1/./me",
      "http://h/v1/%2e%2e/metrics",
      "http://h/v1/me%20x",
      "http://h//v1//me",
      "http://h?x/v1/me",
      "http://user@h/v1/me",
      "http://[::1]:8080/v1/me#fragment",
      "http://h",
      "https://h/docs/",
      "http://h/v1\\me",
      "http://h/v1/é",
    ];
    for (const url of urls) expect(pathOf(url)).toBe(new URL(url).pathname);
    expect(pathOf("[::1]:443")).toBeNull();
  });
});
