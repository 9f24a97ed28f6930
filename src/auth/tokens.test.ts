import { describe, expect, test } from "bun:test";
import { manualClock } from "../lib/clock";
import { createTokenService } from "./tokens";

const SECRET = "tokens-test-secret-that-is-long-enough-0123456789";

describe("token verification, remembered after the first check", () => {
  test("a remembered token still ends at its expiry and still names one purpose", async () => {
    const clock = manualClock();
    const tokens = createTokenService(SECRET, clock.now);
    const token = await tokens.sign("access", { sub: "u1", sid: "s1" });
    expect(await tokens.verify(token, "access")).toMatchObject({ sub: "u1", sid: "s1", purpose: "access" });
    // Asked again: the same answer, and the purpose check holds on a remembered token too.
    expect(await tokens.verify(token, "access")).toMatchObject({ sub: "u1" });
    expect(await tokens.verify(token, "ws")).toBeNull();
    clock.advance(15 * 60 * 1000);
    expect(await tokens.verify(token, "access")).toBeNull();
    // Expired is expired, however often it is presented.
    expect(await tokens.verify(token, "access")).toBeNull();
  });

  test("a changed token, or one signed with another secret, never verifies", async () => {
    const clock = manualClock();
    const tokens = createTokenService(SECRET, clock.now);
    const token = await tokens.sign("access", { sub: "u1", sid: "s1" });
    expect(await tokens.verify(token, "access")).not.toBeNull();
    const [header, , signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "admin", sid: "s1", purpose: "access", exp: 9e9 })).toString(
      "base64url",
    );
    expect(await tokens.verify(`${header}.${forged}.${signature}`, "access")).toBeNull();
    expect(await tokens.verify(`${token}x`, "access")).toBeNull();
    const other = createTokenService(`${SECRET}-other`, clock.now);
    expect(await other.verify(token, "access")).toBeNull();
  });
});
