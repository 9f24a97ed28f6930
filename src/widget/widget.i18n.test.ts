import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";

const desk = await startTestDesk();

describe("the widget's language", () => {
  test("config answers the asked language's texts only, else the workspace's; a bad tag is 422", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const config = (locale: string) =>
      desk.api("GET", `/v1/widget/config?key=${workspace.widgetKey}&locale=${encodeURIComponent(locale)}`);

    const german = await config("de-AT");
    expect(german.status).toBe(200);
    expect(german.body.locale).toBe("de");
    expect(german.body.greeting).toBe("Hallo! Wie können wir Ihnen helfen?");
    expect(german.body.messages.open_chat).toBe("Chat öffnen");
    expect(german.body.messages.open_chat_unread).toContain("{count, plural,");
    // One language, one surface: no other catalogue rides along.
    expect(Object.keys(german.body.messages)).not.toContain("help.search");
    expect(JSON.stringify(german.body.messages)).not.toContain("Open chat");

    expect((await config("pt")).body.locale).toBe("pt-BR");
    expect((await config("ja")).body.locale).toBe("en");
    expect((await desk.api("GET", `/v1/widget/config?key=${workspace.widgetKey}`)).body.messages.send).toBe("Send");

    const bad = await config("<script>");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { location: string }) => e.location)).toContain("query.locale");

    await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings: { locale: "nl" } } });
    const dutch = await config("ja");
    expect(dutch.body.locale).toBe("nl");
    expect(dutch.body.messages.send).toBe("Versturen");
    // A greeting the workspace wrote is shown as written, in every language.
    await desk.api("PATCH", "/v1/widget/settings", { headers: owner.headers, body: { greeting: "Moin!" } });
    expect((await config("fr")).body.greeting).toBe("Moin!");
  });
});

describe("the widget teaches the contact's language", () => {
  test("a new visitor's contact takes the widget's language; a later one never replaces it or an agent's", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const session = (body: Record<string, string>) =>
      desk.api("POST", "/v1/widget/session", { body: { key: workspace.widgetKey, ...body } });
    const localeOf = async (id: string) =>
      (await desk.api("GET", `/v1/contacts/${id}`, { headers: owner.headers })).body.locale;

    const first = await session({ locale: "de", name: "Lena" });
    expect(first.status).toBe(200);
    expect(await localeOf(first.body.contact.id)).toBe("de");
    const again = await session({ locale: "fr", visitor_token: first.body.visitor_token });
    expect(again.body.contact.id).toBe(first.body.contact.id);
    expect(await localeOf(first.body.contact.id)).toBe("de");

    // A language Desk does not ship teaches nothing (the widget spoke the workspace's to them).
    const unshipped = await session({ locale: "ja", name: "Aiko" });
    expect(await localeOf(unshipped.body.contact.id)).toBeNull();

    const chosen = await session({ name: "Chosen" });
    await desk.api("PATCH", `/v1/contacts/${chosen.body.contact.id}`, {
      headers: owner.headers,
      body: { locale: "es" },
    });
    await session({ locale: "nl", visitor_token: chosen.body.visitor_token });
    expect(await localeOf(chosen.body.contact.id)).toBe("es");

    const bad = await session({ locale: "<x>" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.locale");
  });
});
