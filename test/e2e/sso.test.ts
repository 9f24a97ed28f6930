/**
 * Single sign-on in a real browser: the sign-in page's provider button, the provider's own login and
 * consent pages (the `oidc-provider` package, started here), linking an existing account (by the
 * mailed confirmation, or from the profile while signed in) and back to the inbox with the refresh
 * cookie set, against the real executable.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { reserveIssuer, startOidcProvider, type TestOidcProvider } from "../kit/sso";
import {
  call,
  browserTestsReady,
  launchChromium,
  memberByInvitation,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 30_000;
const person = { name: "Sam Single", email: "sam@example.test", password: "sam password 1" };
const pat = { name: "Pat Profile", email: "pat@example.test", password: "pat password 1" };

/** The provider's own login and consent pages, as a person fills them in. */
async function providerLogin(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

/** The confirmation link in the system mail to `address` (no relay: an .eml file in the outbox). */
async function mailedLink(address: string): Promise<string> {
  const dir = join(desk.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    for (const file of existsSync(dir) ? readdirSync(dir) : []) {
      const mail = await simpleParser(readFileSync(join(dir, file)));
      const link = /(\S+\/sso\/confirm#\S+)/.exec(mail.text ?? "")?.[1];
      if (link && JSON.stringify(mail.to).includes(address)) return link;
    }
    await Bun.sleep(100);
  }
  throw new Error(`no confirmation mail to ${address}`);
}
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
      accounts: {
        "corp-sam": { email: person.email, email_verified: true, name: person.name },
        "corp-pat": { email: "pat.personal@elsewhere.test", email_verified: false, name: pat.name },
      },
    });
    browser = await launchChromium();
    const owner = await ownerWithWorkspace(desk.url, person, "SSO Co");
    await memberByInvitation(desk.url, owner.headers, pat);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await desk?.stop();
  });

  test(
    "a provider account with an existing person's email is not linked silently: the mail's link links it, then Sign in with Corp ID lands in the inbox",
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${desk.url}/signin`);
      await page.getByRole("link", { name: "Sign in with Corp ID" }).click();
      await providerLogin(page, "corp-sam");
      await shown(page.getByRole("alert").filter({ hasText: "We sent a mail to that address" }));
      expect(new URL(page.url()).searchParams.get("sso_error")).toBe("confirm_link_by_mail");
      expect((await context.cookies()).some((c) => c.name.startsWith("desk_rt_"))).toBe(false);
      await context.close();

      // The mail, opened in another browser as from a phone: the page asks before linking.
      const link = await mailedLink(person.email);
      const mailContext = await browser.newContext();
      const mailPage = await mailContext.newPage();
      await mailPage.goto(link);
      await shown(mailPage.getByRole("heading", { name: "Link a sign-in account" }));
      expect(new URL(mailPage.url()).hash).toBe("");
      await mailPage.getByRole("button", { name: "Yes, link it to my account" }).click();
      await shown(mailPage.getByRole("status").filter({ hasText: "now linked" }));
      await mailPage.getByRole("link", { name: "Sign in with Corp ID" }).click();
      await providerLogin(mailPage, "corp-sam");
      await mailPage.waitForURL(/\/inbox\//);
      expect(new URL(mailPage.url()).hash).toBe("");
      const cookies = await mailContext.cookies();
      expect(cookies.some((c) => c.name.startsWith("desk_rt_"))).toBe(true);
      expect(cookies.some((c) => c.name === "desk_sso")).toBe(false);
      await mailContext.close();
    },
    STEP * 2,
  );

  test(
    "signed in, Link Corp ID from the profile: any provider account becomes yours, and signs you in next time",
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, desk.url, pat);
      await page.goto(`${desk.url}/profile`);
      await shown(page.getByRole("heading", { name: "Single sign-on" }));
      await page.getByRole("button", { name: "Link Corp ID" }).click();
      await providerLogin(page, "corp-pat");
      await page.waitForURL(/\/profile\?sso_linked=corp/);
      await shown(page.getByRole("status").filter({ hasText: "Linked to Corp ID" }));
      await shown(page.getByRole("cell", { name: /^Linked on / }));
      await context.close();

      const next = await browser.newContext();
      const again = await next.newPage();
      await again.goto(`${desk.url}/signin`);
      await again.getByRole("link", { name: "Sign in with Corp ID" }).click();
      await providerLogin(again, "corp-pat");
      await again.waitForURL(/\/inbox\//);
      expect((await next.cookies()).some((c) => c.name.startsWith("desk_rt_"))).toBe(true);
      await next.close();
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
      await providerLogin(page, "corp-unverified");
      await shown(page.getByRole("alert").filter({ hasText: "did not confirm your email" }));
      expect(new URL(page.url()).searchParams.get("sso_error")).toBe("email_not_verified");
      const providers = await call(desk.url, "GET", "/v1/auth/oauth/providers", {});
      expect(providers.body.providers[0].name).toBe("Corp ID");
      await context.close();
    },
    STEP * 2,
  );
});
