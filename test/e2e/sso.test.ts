/**
 * Single sign-on in a real browser: the sign-in page's provider button, the provider's own login and
 * consent pages (the `oidc-provider` package, started here), and back to the inbox with the
 * refresh cookie set, against the real executable.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { reserveIssuer, startOidcProvider, type TestOidcProvider } from "../../src/sso/sso.testkit";
import {
  call,
  browserTestsReady,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const person = { name: "Sam Single", email: "sam@example.test", password: "sam password 1" };
let desk: RunningDesk;
let idp: TestOidcProvider;
let browser: Browser;

describe.skipIf(!ready.ok)("single sign-on (Chromium, oidc-provider, dist/desk)", () => {
  beforeAll(async () => {
    const issuer = await reserveIssuer();
    desk = await startDeskBinary({
      DESK_SSO_PROVIDERS: "corp",
      DESK_SSO_CORP_ISSUER: issuer,
      DESK_SSO_CORP_CLIENT_ID: "desk-e2e",
      DESK_SSO_CORP_CLIENT_SECRET: "e2e-secret",
      DESK_SSO_CORP_NAME: "Corp ID",
    });
    idp = await startOidcProvider({
      issuer,
      clientId: "desk-e2e",
      clientSecret: "e2e-secret",
      redirectUris: [`${desk.url}/v1/auth/oauth/corp/callback`],
      accounts: { "corp-sam": { email: person.email, email_verified: true, name: person.name } },
    });
    browser = await launchChromium();
    await ownerWithWorkspace(desk.url, person, "SSO Co");
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await desk?.stop();
  });

  test(
    "Sign in with Corp ID: provider login and consent, back in the inbox, the account linked",
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${desk.url}/signin`);
      await page.getByRole("link", { name: "Sign in with Corp ID" }).click();
      // The provider's own pages.
      await page.locator('input[name="login"]').fill("corp-sam");
      await page.locator('input[name="password"]').fill("anything");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(/\/inbox\//);
      expect(new URL(page.url()).hash).toBe("");
      const cookies = await context.cookies();
      expect(cookies.some((c) => c.name.startsWith("desk_rt_"))).toBe(true);
      expect(cookies.some((c) => c.name === "desk_sso")).toBe(false);
      await context.close();
    },
    STEP * 2,
  );

  test(
    "an account the provider does not vouch for comes back to the sign-in page with the reason",
    async () => {
      idp.accounts.set("corp-unverified", { email: person.email, email_verified: false });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${desk.url}/signin`);
      await page.getByRole("link", { name: "Sign in with Corp ID" }).click();
      await page.locator('input[name="login"]').fill("corp-unverified");
      await page.locator('input[name="password"]').fill("anything");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await shown(page.getByRole("alert").filter({ hasText: "did not confirm your email" }));
      expect(new URL(page.url()).searchParams.get("sso_error")).toBe("email_not_verified");
      const providers = await call(desk.url, "GET", "/v1/auth/oauth/providers", {});
      expect(providers.body.providers[0].name).toBe("Corp ID");
      await context.close();
    },
    STEP * 2,
  );
});
