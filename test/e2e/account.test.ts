/**
 * A person's own account in a real browser against the real executable: the profile page (name,
 * password change, two-factor enrolment with its QR code and one-time recovery codes, signing
 * other sessions out, turning two-factor off) and the forgotten-password flow from the sign-in
 * page through the mailed link (read from the outbox, as no relay is configured).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import * as OTPAuth from "otpauth";
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
const person = { name: "Pat Profile", email: "pat@example.test", password: "first password 1" };
let desk: RunningDesk;
let browser: Browser;

/** The newest outbox mail to the person, as text (quoted-printable decoded). */
async function resetMailText(): Promise<string> {
  const outbox = join(desk.dataDir, "outbox");
  for (let i = 0; i < 100; i++) {
    const files = existsSync(outbox) ? readdirSync(outbox).sort() : [];
    const raw = files
      .map((f) => readFileSync(join(outbox, f), "utf8"))
      .reverse()
      .find((m) => m.includes("Reset your Desk password"));
    if (raw) return (await simpleParser(raw)).text ?? "";
    await Bun.sleep(100);
  }
  throw new Error("no reset mail in the outbox");
}

describe.skipIf(!ready.ok)("account pages (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    await ownerWithWorkspace(desk.url, person, "Profile Co");
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test("profile: name, two-factor with QR code and recovery codes, other sessions signed out, password changed, two-factor off", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, desk.url, person);
    // Another sign-in elsewhere (a script standing in for a second device).
    const elsewhere = await call(
      desk.url,
      "POST",
      "/v1/auth/login",
      {},
      { email: person.email, password: person.password },
    );
    expect(elsewhere.status).toBe(200);
    const asElsewhere = { authorization: `Bearer ${elsewhere.body.access_token}` };

    await page.getByRole("button", { name: person.name }).click();
    await page.getByRole("menuitem", { name: "Your profile" }).click();
    await page.waitForURL(/\/profile$/);
    await shown(page.getByRole("heading", { name: "Your profile" }));

    // Name
    await page.getByLabel("Your name").fill("Pat Renamed");
    await page.getByRole("button", { name: "Save name" }).click();
    await shown(page.getByRole("button", { name: "Saved" }));
    expect((await call(desk.url, "GET", "/v1/me", asElsewhere)).body.user.name).toBe("Pat Renamed");

    // Two-factor: QR code, a code from the authenticator, recovery codes shown once.
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
    await shown(qr);
    expect(((await qr.locator("path").getAttribute("d")) ?? "").length).toBeGreaterThan(1000);
    const secret = (await page.getByTestId("mfa-secret").textContent())!.trim();
    const totp = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(secret),
      digits: 6,
      period: 30,
      algorithm: "SHA1",
    });
    await page.getByLabel("Code from the app").fill("000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await shown(page.locator(".field-invalid .field-error"));
    await page.getByLabel("Code from the app").fill(totp.generate());
    await page.getByRole("button", { name: "Turn on" }).click();
    const codes = page.getByRole("list", { name: "Recovery code list" }).getByRole("listitem");
    await shown(codes.first());
    const recovery = await codes.allTextContents();
    expect(recovery).toHaveLength(10);
    for (const code of recovery) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await shown(page.getByText("Two-factor sign-in is on"));
    expect(await page.getByRole("list", { name: "Recovery code list" }).count()).toBe(0);
    // Signing in now asks for the second factor, and a recovery code from the page works once.
    const login = await call(
      desk.url,
      "POST",
      "/v1/auth/login",
      {},
      { email: person.email, password: person.password },
    );
    expect(login.body).toMatchObject({ mfa_required: true });
    expect(
      (await call(desk.url, "POST", "/v1/auth/mfa", {}, { mfa_token: login.body.mfa_token, code: recovery[0] })).status,
    ).toBe(200);
    const viaRecovery = await call(
      desk.url,
      "POST",
      "/v1/auth/login",
      {},
      { email: person.email, password: person.password },
    );

    // Sessions: this one is marked; sign out every other.
    const sessions = page.getByRole("table", { name: "Active sessions" });
    await page.reload();
    await shown(sessions.getByText("(this session)"));
    // Registration, this browser, the script, and the recovery-code sign-in.
    expect(await sessions.locator("tbody tr").count()).toBe(4);
    await page.getByRole("button", { name: "Sign out all other sessions" }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="Active sessions"] tbody tr').length === 1,
    );
    expect((await call(desk.url, "GET", "/v1/me", asElsewhere)).status).toBe(401);
    expect(viaRecovery.body.mfa_required).toBe(true);

    // Password: the wrong current one is refused beside its field; then changed.
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password").fill("second password 2");
    await page.getByRole("button", { name: "Change password" }).click();
    await shown(page.locator(".field-error", { hasText: "The current password is wrong." }));
    await page.getByLabel("Current password").fill(person.password);
    await page.getByRole("button", { name: "Change password" }).click();
    await shown(page.getByText("Password changed."));
    person.password = "second password 2";

    // Two-factor off with the password.
    await page.getByLabel("Password or code").fill(person.password);
    await page.getByRole("button", { name: "Turn off two-factor sign-in" }).click();
    await shown(page.getByRole("button", { name: "Set up two-factor sign-in" }));
    const plain = await call(
      desk.url,
      "POST",
      "/v1/auth/login",
      {},
      { email: person.email, password: person.password },
    );
    expect(plain.status).toBe(200);
    expect(plain.body.access_token).toEqual(expect.any(String));
    await context.close();
  }, 60_000);

  test("forgot password: the sign-in page's link, the mailed reset link, and signing in with the new password", async () => {
    const signedIn = await browser.newContext();
    const old = await signedIn.newPage();
    await signIn(old, desk.url, person);

    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(`${desk.url}/signin`);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByLabel("Email").fill(person.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await shown(page.getByRole("status").getByText("a link to choose a new password is on its way"));

    const text = await resetMailText();
    const link = /(http:\/\/\S+\/reset-password#[A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(link).toStartWith(desk.url);
    await page.goto(link!);
    await shown(page.getByRole("heading", { name: "Choose a new password" }));
    // The token leaves the address bar at once.
    expect(new URL(page.url()).hash).toBe("");
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set new password" }).click();
    await shown(page.locator(".field-invalid .field-error"));
    await page.getByLabel("New password").fill("third password 3");
    await page.getByRole("button", { name: "Set new password" }).click();
    await shown(page.getByText("Your password is changed"));

    // Every session ended: the other browser's refresh cookie no longer works.
    await old.reload();
    await old.waitForURL(/\/signin/);

    await page.getByRole("link", { name: "Sign in" }).click();
    person.password = "third password 3";
    await signIn(page, desk.url, person);
    await shown(page.getByRole("heading", { name: "Unassigned" }));

    // The link was single use.
    await page.goto(link!);
    await page.getByLabel("New password").fill("fourth password 4");
    await page.getByRole("button", { name: "Set new password" }).click();
    await shown(page.locator(".form-error", { hasText: "This reset link is invalid, expired or already used" }));
    await context.close();
    await signedIn.close();
  }, 60_000);
});
