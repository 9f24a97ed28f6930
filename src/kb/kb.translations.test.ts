import { describe, expect, test } from "bun:test";
import { and, eq, gt } from "drizzle-orm";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { lastSeq } from "../../test/kit/events";
import { events } from "../events/events.table";
import { kbArticleTranslations } from "./kb.table";

const desk: TestDesk = await startTestDesk();

/** A workspace in English whose help center also speaks German and French, with one article. */
async function setup(locales = ["en", "de", "fr"]) {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const patched = await desk.api("PATCH", "/v1/workspace", {
    headers: owner.headers,
    body: { settings: { help_center_enabled: true, locale: "en", locales } },
  });
  expect(patched.status).toBe(200);
  const agent = await addMember(desk, workspace.id, "agent");
  const viewer = await addMember(desk, workspace.id, "viewer");
  const collection = await desk.api("POST", "/v1/kb/collections", {
    headers: owner.headers,
    body: { name: "Billing" },
  });
  const article = await desk.api("POST", "/v1/kb/articles", {
    headers: agent.headers,
    body: {
      collection_id: collection.body.id,
      title: "Get a refund",
      body_html: "<p>Ask us.</p>",
      status: "published",
    },
  });
  expect(article.status).toBe(201);
  const path = `/v1/kb/articles/${article.body.id}/translations`;
  return { workspace, owner, agent, viewer, collection: collection.body, article: article.body, path };
}

const pause = () => Bun.sleep(3);

describe("knowledge base: article translations", () => {
  test("PUT creates (201) then replaces (200), sanitized with body_text derived; GET one, list, DELETE 204", async () => {
    const { agent, path, workspace } = await setup();
    const seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("PUT", `${path}/de`, {
      headers: agent.headers,
      body: {
        title: "Eine Erstattung erhalten",
        body_html: `<p onclick="x()">Fragen Sie uns.</p><script>alert(1)</script>`,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      locale: "de",
      title: "Eine Erstattung erhalten",
      body_html: "<p>Fragen Sie uns.</p>",
      body_text: "Fragen Sie uns.",
      status: "draft",
      updated_at: expect.any(String),
    });
    const replaced = await desk.api("PUT", `${path}/de`, {
      headers: agent.headers,
      body: { title: "Rückerstattung", body_html: "<p>Schreiben Sie uns.</p>", status: "published" },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.status).toBe("published");
    expect((await desk.api("GET", `${path}/de`, { headers: agent.headers })).body.title).toBe("Rückerstattung");
    await desk.api("PUT", `${path}/fr`, { headers: agent.headers, body: { title: "Obtenir un remboursement" } });
    const list = await desk.api("GET", path, { headers: agent.headers });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { locale: string; outdated: boolean }) => [t.locale, t.outdated])).toEqual([
      ["de", false],
      ["fr", false],
    ]);
    expect(list.body.next_cursor).toBeNull();
    const removed = await desk.api("DELETE", `${path}/fr`, { headers: agent.headers });
    expect(removed.status).toBe(204);
    expect((await desk.api("GET", `${path}/fr`, { headers: agent.headers })).status).toBe(404);
    expect((await desk.api("DELETE", `${path}/fr`, { headers: agent.headers })).status).toBe(404);
    // No event: kb_article.* carry the article, which a translation leaves unchanged.
    expect(
      await desk.deps.db
        .select()
        .from(events)
        .where(and(eq(events.workspaceId, workspace.id), gt(events.seq, seq))),
    ).toEqual([]);
  });

  test("outdated once the article changes after the translation was saved; saving it again brings it up to date", async () => {
    const { agent, article, path } = await setup();
    await desk.api("PUT", `${path}/de`, { headers: agent.headers, body: { title: "Erstattung", status: "published" } });
    await pause();
    const edited = await desk.api("PATCH", `/v1/kb/articles/${article.id}`, {
      headers: agent.headers,
      body: { body_html: "<p>Ask us within 30 days.</p>" },
    });
    expect(edited.status).toBe(200);
    expect((await desk.api("GET", path, { headers: agent.headers })).body.data[0].outdated).toBe(true);
    await pause();
    await desk.api("PUT", `${path}/de`, { headers: agent.headers, body: { title: "Erstattung", status: "published" } });
    expect((await desk.api("GET", path, { headers: agent.headers })).body.data[0].outdated).toBe(false);
  });

  test("422 with the location for a locale the help center does not offer, the article's own, or a bad body", async () => {
    const { owner, path } = await setup(["en", "de"]);
    const cases: Array<[string, string, unknown, string]> = [
      ["PUT", `${path}/fr`, { title: "Remboursement" }, "params.locale"],
      ["PUT", `${path}/en`, { title: "Refund" }, "params.locale"],
      ["PUT", `${path}/xx`, { title: "Refund" }, "params.locale"],
      ["PUT", `${path}/DE`, { title: "Refund" }, "params.locale"],
      ["GET", `${path}/en`, undefined, "params.locale"],
      ["DELETE", `${path}/klingon`, undefined, "params.locale"],
      ["PUT", `${path}/de`, {}, "body.title"],
      ["PUT", `${path}/de`, { title: "  " }, "body.title"],
      ["PUT", `${path}/de`, { title: "T", status: "live" }, "body.status"],
      ["PUT", `${path}/de`, { title: "T", body_html: 5 }, "body.body_html"],
      ["PUT", `${path}/de`, { title: "T", extra: 1 }, "body"],
    ];
    for (const [method, url, body, location] of cases) {
      const res = await desk.api(method, url, { headers: owner.headers, body });
      expect({ url, body, status: res.status, code: res.body.code }).toEqual({
        url,
        body,
        status: 422,
        code: "validation_failed",
      });
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect((await desk.api("GET", path, { headers: owner.headers })).body.data).toEqual([]);
  });

  test("a viewer and a kb:read key read but may not write (403); another workspace's article answers 404", async () => {
    const { owner, viewer, agent, article, path } = await setup();
    await desk.api("PUT", `${path}/de`, { headers: agent.headers, body: { title: "Erstattung" } });
    const readKey = await createKey(desk, owner, ["kb:read"]);
    for (const headers of [viewer.headers, readKey.headers]) {
      expect((await desk.api("GET", path, { headers })).status).toBe(200);
      expect((await desk.api("GET", `${path}/de`, { headers })).status).toBe(200);
      expect((await desk.api("PUT", `${path}/de`, { headers, body: { title: "X" } })).status).toBe(403);
      expect((await desk.api("DELETE", `${path}/de`, { headers })).status).toBe(403);
    }
    const other = await setup();
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { title: "Fremd" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await desk.api(method, `${path}/de`, { headers: other.owner.headers, body });
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
    }
    expect((await desk.api("GET", path, { headers: other.owner.headers })).status).toBe(404);
    const stored = (await desk.api("GET", `/v1/kb/articles/${article.id}/translations/de`, { headers: owner.headers }))
      .body;
    expect(stored.title).toBe("Erstattung");
  });

  test("deleting an article deletes its translations", async () => {
    const { agent, article, path } = await setup();
    await desk.api("PUT", `${path}/de`, { headers: agent.headers, body: { title: "Erstattung" } });
    await desk.api("PUT", `${path}/fr`, { headers: agent.headers, body: { title: "Remboursement" } });
    expect((await desk.api("DELETE", `/v1/kb/articles/${article.id}`, { headers: agent.headers })).status).toBe(204);
    expect(
      await desk.deps.db.select().from(kbArticleTranslations).where(eq(kbArticleTranslations.articleId, article.id)),
    ).toEqual([]);
  });
});
