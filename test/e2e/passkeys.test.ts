/**
 * Passkeys in a real browser: Chromium's virtual authenticator (CDP WebAuthn domain) stands in for
 * a platform authenticator with user verification. A person adds a named passkey on the profile
 * page, signs out, and signs in again with "Sign in with a passkey" and no email or password.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import {
  call,
  browserTestsReady,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const person = { name: "Kim Passkey", email: "kim@example.test", password: "kim password 1" };
let desk: RunningDesk;
let browser: Browser;

describe.skipIf(!ready.ok)("passkeys (Chromium virtual authenticator against dist/desk)", () => {
  beforeAll(async () => {
    // WebAuthn needs a host name as relying party, not 127.0.0.1.
    desk = await startDeskBinary({}, { hostname: "localhost" });
    browser = await launchChromium();
    await ownerWithWorkspace(desk.url, person, "Passkey Co");
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  });

  test(
    "add a passkey on the profile, sign out, sign in with it (no password, no code)",
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });

      await signIn(page, desk.url, person);
      await page.goto(`${desk.url}/profile`);
      const section = page.getByRole("region", { name: "Passkeys" });
      await shown(section.getByText("No passkeys yet."));
      await section.getByRole("button", { name: "Add a passkey" }).click();
      await section.getByLabel("Passkey name").fill("Work laptop");
      await section.getByRole("button", { name: "Create passkey" }).click();
      const table = section.getByRole("table", { name: "Your passkeys" });
      await shown(table.getByRole("cell", { name: "Work laptop", exact: true }));

      // The authenticator holds one discoverable credential for this site.
      const held = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
      expect(held.credentials).toHaveLength(1);
      expect(held.credentials[0]!.isResidentCredential).toBe(true);
      expect(held.credentials[0]!.rpId).toBe("localhost");

      // Signed out: no refresh cookie, no session in the page.
      await context.clearCookies();
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await page.goto(`${desk.url}/signin`);
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.waitForURL(/\/inbox\//);

      // The server saw the passkey used, and the new session counts as two-factor.
      const cookies = await context.cookies();
      expect(cookies.some((c) => c.name.startsWith("desk_rt_"))).toBe(true);
      const login = await call(
        desk.url,
        "POST",
        "/v1/auth/login",
        { origin: desk.url },
        {
          email: person.email,
          password: person.password,
        },
      );
      const list = await call(desk.url, "GET", "/v1/me/passkeys", {
        authorization: `Bearer ${login.body.access_token}`,
      });
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0].name).toBe("Work laptop");
      expect(list.body.data[0].last_used_at).not.toBeNull();
      expect(held.credentials[0]!.signCount).toBeGreaterThanOrEqual(0);

      // Removing it from the profile.
      await page.goto(`${desk.url}/profile`);
      await page.getByRole("button", { name: "Remove passkey Work laptop" }).click();
      await shown(page.getByRole("region", { name: "Passkeys" }).getByText("No passkeys yet."));
      await context.close();
    },
    STEP * 2,
  );
});
