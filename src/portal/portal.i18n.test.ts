import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey as deriveSha } from "altcha-lib/algorithms/sha";
import { simpleParser } from "mailparser";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { manualClock } from "../lib/clock";

const clock = manualClock(new Date("2026-11-28T10:00:00Z"));
const desk = await startTestDesk({ clock });
// Every test runs from 127.0.0.1: a fresh quarter hour gives each the client's whole link budget.
beforeEach(() => clock.advance(16 * 60_000));

async function seed(settings: Record<string, unknown> = {}) {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const body = { settings: { help_center_enabled: true, ...settings } };
  expect((await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body })).status).toBe(200);
  await desk.api("POST", "/v1/mailboxes", {
    headers: owner.headers,
    body: { name: "Support", email: `support@${workspace.slug}.test`, outbound_kind: "outbox" },
  });
  return { owner, slug: workspace.slug as string };
}
type Site = Awaited<ReturnType<typeof seed>>;

async function http(path: string, init: RequestInit & { cookie?: string; language?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.language) headers.set("accept-language", init.language);
  const res = await fetch(`${desk.url}${path}`, { ...init, headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function outboxMailsTo(address: string): Promise<string[]> {
  const outbox = join(desk.dataDir, "outbox");
  const found: string[] = [];
  for (const f of existsSync(outbox) ? readdirSync(outbox).sort() : []) {
    const raw = readFileSync(join(outbox, f), "utf8");
    if (!raw.toLowerCase().includes(address)) continue;
    const parsed = await simpleParser(raw);
    found.push(`${parsed.subject}\n${parsed.text}`);
  }
  return found;
}

const contactOf = async (site: Site, email: string) =>
  (
    (await desk.api("GET", `/v1/contacts?q=${encodeURIComponent(email)}`, { headers: site.owner.headers })).body
      .data as Array<{ id: string; email: string; locale: string | null }>
  ).find((c) => c.email === email);

/** Asks for a link with the browser's language, then spends it: the session cookie. */
async function signIn(site: Site, email: string, language: string): Promise<{ cookie: string; mail: string }> {
  const asked = await http(`/portal/${site.slug}/sign-in`, {
    method: "POST",
    body: new URLSearchParams({ email }),
    language,
  });
  expect(asked.status).toBe(200);
  await desk.jobs.drain();
  const mail = (await outboxMailsTo(email)).at(-1)!;
  const path = new URL(/(https?:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+)/.exec(mail)![1]!).pathname;
  const used = await http(path, { method: "POST", language });
  expect(used.status).toBe(303);
  return { cookie: used.headers.get("set-cookie")!.split(";")[0]!, mail };
}

async function solvedAltcha(html: string): Promise<string> {
  const raw = /data-challenge="([^"]+)"/.exec(html)![1]!.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
  const challenge = JSON.parse(raw) as Challenge;
  return JSON.stringify({ challenge, solution: await solveChallenge({ challenge, deriveKey: deriveSha }) });
}

describe("the portal in the customer's language", () => {
  test("Accept-Language picks among the workspace's languages, else its locale; lang is set", async () => {
    const site = await seed({ locale: "de", locales: ["de", "fr"] });
    const french = await http(`/portal/${site.slug}`, { language: "fr-CH, en;q=0.5" });
    expect(french.text).toContain('<html lang="fr">');
    expect(french.text).toContain("Vos demandes");
    expect(french.text).toContain("M’envoyer un lien de connexion");
    // Spanish is shipped but not among this workspace's languages: its locale answers.
    const other = await http(`/portal/${site.slug}`, { language: "es" });
    expect(other.text).toContain('<html lang="de">');
    expect(other.text).toContain("Anmeldelink senden");
    expect(other.text).not.toContain("Email me a sign-in link");
    const refused = await http(`/portal/${site.slug}/sign-in`, {
      method: "POST",
      body: new URLSearchParams({ email: "nope" }),
      language: "fr",
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("Saisissez une adresse e-mail valide.");
  });

  test("the sign-in mail and the signed-in pages speak the contact's language; signing in teaches it once", async () => {
    const site = await seed({ locale: "en", locales: ["en", "de", "fr"] });
    const { cookie, mail } = await signIn(site, "lena@example.test", "de-DE");
    expect(mail).toContain("Anmeldung zu Ihren Anfragen bei");
    expect(mail).toContain("Er funktioniert einmal und 15 Minuten lang.");
    expect((await contactOf(site, "lena@example.test"))?.locale).toBe("de");
    // Signed in, the contact's own language wins over the browser's.
    const home = await http(`/portal/${site.slug}`, { cookie, language: "fr" });
    expect(home.text).toContain('<html lang="de">');
    expect(home.text).toContain("Neue Anfrage");
    expect(home.text).toContain("Abmelden");
    // A later sign-in from a French browser keeps the language learnt first.
    const again = await signIn(site, "lena@example.test", "fr");
    expect(again.mail).toContain("Anmeldung zu Ihren Anfragen bei");
    expect((await contactOf(site, "lena@example.test"))?.locale).toBe("de");
    // An agent's choice changes the pages at once.
    const contact = await contactOf(site, "lena@example.test");
    await desk.api("PATCH", `/v1/contacts/${contact!.id}`, { headers: site.owner.headers, body: { locale: "fr" } });
    expect((await http(`/portal/${site.slug}`, { cookie })).text).toContain("Nouvelle demande");
  });

  test("a refused file is explained in the contact's language", async () => {
    const site = await seed({ locale: "en", locales: ["en", "de"] });
    const { cookie } = await signIn(site, "otto@example.test", "de-DE");
    const form = new FormData();
    form.set("subject", "Rechnung");
    form.set("message", "Siehe Anhang");
    form.set("file", new File([new TextEncoder().encode("<html><script>x</script>")], "x.png", { type: "image/png" }));
    const refused = await http(`/portal/${site.slug}/new`, { method: "POST", body: form, cookie, language: "en" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("Hängen Sie ein Bild (PNG, JPEG, GIF, WebP), ein PDF oder eine reine Textdatei an.");
    expect(refused.text).not.toContain("Attach a picture");
  });

  test("the contact form in French; its confirmation mail and the contact's language follow", async () => {
    const site = await seed({ locale: "en", locales: ["en", "fr"] });
    const page = await http(`/help/${site.slug}/contact`, { language: "fr-FR" });
    expect(page.text).toContain('<html lang="fr">');
    expect(page.text).toContain("Nous contacter");
    expect(page.text).toContain('Vous pouvez suivre votre demande dans <a href="');
    const fields = { name: "Chloé", email: "chloe@example.test", subject: "Commande 12", message: "Où est-elle ?" };
    const invalid = await http(`/help/${site.slug}/contact`, {
      method: "POST",
      body: (() => {
        const data = new FormData();
        for (const [k, v] of Object.entries({ ...fields, subject: "" })) data.set(k, v);
        return data;
      })(),
      language: "fr",
    });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain("Saisissez un objet.");
    const data = new FormData();
    for (const [k, v] of Object.entries({ ...fields, altcha: await solvedAltcha(page.text) })) data.set(k, v);
    const sent = await http(`/help/${site.slug}/contact`, { method: "POST", body: data, language: "fr" });
    expect(sent.status).toBe(303);
    expect((await contactOf(site, "chloe@example.test"))?.locale).toBe("fr");
    const thanks = await http(`/help/${site.slug}/contact?sent=1`, { language: "fr" });
    expect(thanks.text).toContain("Nous avons bien reçu votre message");
    await desk.jobs.drain();
    const [confirmation] = await outboxMailsTo("chloe@example.test");
    expect(confirmation).toContain("Nous avons bien reçu votre demande : Commande 12");
    expect(confirmation).toContain("Voir votre demande");
  });

  test("a German contact's confirmation is German even from an English page", async () => {
    const site = await seed({ locale: "en", locales: ["en"] });
    const made = await desk.api("POST", "/v1/contacts", {
      headers: site.owner.headers,
      body: { email: "gerd@example.test", locale: "de" },
    });
    expect(made.status).toBe(201);
    const page = await http(`/help/${site.slug}/contact`, { language: "en" });
    expect(page.text).toContain('<html lang="en">');
    const data = new FormData();
    const fields = { name: "Gerd", email: "gerd@example.test", subject: "Rechnung", message: "Bitte prüfen." };
    for (const [k, v] of Object.entries({ ...fields, altcha: await solvedAltcha(page.text) })) data.set(k, v);
    expect((await http(`/help/${site.slug}/contact`, { method: "POST", body: data })).status).toBe(303);
    await desk.jobs.drain();
    const [confirmation] = await outboxMailsTo("gerd@example.test");
    expect(confirmation).toContain("Wir haben Ihre Anfrage erhalten: Rechnung");
    expect(confirmation).toContain("Vielen Dank, dass Sie");
    expect((await contactOf(site, "gerd@example.test"))?.locale).toBe("de");
  });
});
