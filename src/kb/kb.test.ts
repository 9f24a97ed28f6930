import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, eq, gt } from "drizzle-orm";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { events } from "../events/events.table";
import { kbArticles, kbCollections } from "./kb.table";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();

const eventsSince = async (workspaceId: string, seq: number) =>
  await desk.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), gt(events.seq, seq)))
    .orderBy(events.seq);

async function setup() {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const agent = await addMember(desk, workspace.id, "agent");
  const viewer = await addMember(desk, workspace.id, "viewer");
  const collection = await desk.api("POST", "/v1/kb/collections", {
    headers: owner.headers,
    body: { name: "Getting started" },
  });
  expect(collection.status).toBe(201);
  const article = await desk.api("POST", "/v1/kb/articles", {
    headers: agent.headers,
    body: { collection_id: collection.body.id, title: "Reset your password", body_html: "<p>Click reset.</p>" },
  });
  expect(article.status).toBe(201);
  return { workspace, owner, agent, viewer, collection: collection.body, article: article.body };
}

describe("knowledge base: access", () => {
  test("every route: 401 without a credential, 403 for a viewer writing or a key without the scope, 404 from another workspace", async () => {
    const { owner, viewer, collection, article } = await setup();
    const other = await createWorkspaceWithOwner(desk);
    const readKey = await createKey(desk, owner, ["kb:read"]);
    const writeKey = await createKey(desk, owner, ["kb:write"]);
    const ticketKey = await createKey(desk, owner, ["tickets:read", "tickets:write"]);
    const routes = [
      ["GET", "/v1/kb/collections", undefined, "read"],
      ["POST", "/v1/kb/collections", { name: "X" }, "write"],
      ["GET", `/v1/kb/collections/${collection.id}`, undefined, "read"],
      ["PATCH", `/v1/kb/collections/${collection.id}`, { name: "Y" }, "write"],
      ["DELETE", `/v1/kb/collections/${collection.id}`, undefined, "write"],
      ["GET", "/v1/kb/articles", undefined, "read"],
      ["POST", "/v1/kb/articles", { collection_id: collection.id, title: "T" }, "write"],
      ["GET", `/v1/kb/articles/${article.id}`, undefined, "read"],
      ["PATCH", `/v1/kb/articles/${article.id}`, { title: "T2" }, "write"],
      ["DELETE", `/v1/kb/articles/${article.id}`, undefined, "write"],
    ] as const;
    for (const [method, path, body, kind] of routes) {
      expect({ path, method, status: (await desk.api(method, path, { body })).status }).toEqual({
        path,
        method,
        status: 401,
      });
      expect({
        path,
        method,
        status: (await desk.api(method, path, { headers: ticketKey.headers, body })).status,
      }).toEqual({ path, method, status: 403 });
      if (kind === "write") {
        for (const headers of [viewer.headers, readKey.headers])
          expect({ path, method, status: (await desk.api(method, path, { headers, body })).status }).toEqual({
            path,
            method,
            status: 403,
          });
      } else {
        expect((await desk.api(method, path, { headers: viewer.headers })).status).toBe(200);
        expect((await desk.api(method, path, { headers: readKey.headers })).status).toBe(200);
        expect((await desk.api(method, path, { headers: writeKey.headers })).status).toBe(403);
      }
      if (path.includes(collection.id) || path.includes(article.id))
        expect({
          path,
          method,
          status: (await desk.api(method, path, { headers: other.owner.headers, body })).status,
        }).toEqual({ path, method, status: 404 });
    }
    // Another workspace's lists hold none of these, and its collection id cannot host an article here.
    expect((await desk.api("GET", "/v1/kb/articles", { headers: other.owner.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", "/v1/kb/collections", { headers: other.owner.headers })).body.data).toEqual([]);
    const foreign = await desk.api("POST", "/v1/kb/articles", {
      headers: other.owner.headers,
      body: { collection_id: collection.id, title: "Sneaky" },
    });
    expect(foreign.status).toBe(404);
    // Nothing was changed by any refused request.
    const stored = first(await desk.deps.db.select().from(kbArticles).where(eq(kbArticles.id, article.id)).limit(1));
    expect(stored?.title).toBe("Reset your password");
    expect(
      first(await desk.deps.db.select().from(kbCollections).where(eq(kbCollections.id, collection.id)).limit(1))?.name,
    ).toBe("Getting started");
  });

  test("an API key with kb:write writes", async () => {
    const { owner, collection } = await setup();
    const key = await createKey(desk, owner, ["kb:write"]);
    const res = await desk.api("POST", "/v1/kb/articles", {
      headers: key.headers,
      body: { collection_id: collection.id, title: "From a script" },
    });
    expect(res.status).toBe(201);
  });
});

describe("knowledge base: validation", () => {
  test("422 at the field for bad input, nothing stored", async () => {
    const { workspace, owner, collection, article } = await setup();
    const before = await desk.deps.db.select().from(kbArticles).where(eq(kbArticles.workspaceId, workspace.id));
    const cases: Array<[string, string, unknown, string]> = [
      ["POST", "/v1/kb/collections", {}, "body.name"],
      ["POST", "/v1/kb/collections", { name: "  " }, "body.name"],
      ["POST", "/v1/kb/collections", { name: "x".repeat(201) }, "body.name"],
      ["POST", "/v1/kb/collections", { name: "A", slug: "Not A Slug" }, "body.slug"],
      ["POST", "/v1/kb/collections", { name: "A", position: -1 }, "body.position"],
      ["POST", "/v1/kb/collections", { name: "A", extra: 1 }, "body"],
      ["PATCH", `/v1/kb/collections/${collection.id}`, { slug: "a--b" }, "body.slug"],
      ["POST", "/v1/kb/articles", { title: "No collection" }, "body.collection_id"],
      ["POST", "/v1/kb/articles", { collection_id: collection.id }, "body.title"],
      ["POST", "/v1/kb/articles", { collection_id: collection.id, title: "T", status: "live" }, "body.status"],
      ["POST", "/v1/kb/articles", { collection_id: collection.id, title: "T", body_html: 5 }, "body.body_html"],
      ["PATCH", `/v1/kb/articles/${article.id}`, { slug: "-x" }, "body.slug"],
      ["PATCH", `/v1/kb/articles/${article.id}`, { title: "" }, "body.title"],
      ["GET", "/v1/kb/articles?limit=0", undefined, "query.limit"],
      ["GET", "/v1/kb/articles?status=archived", undefined, "query.status"],
      ["GET", "/v1/kb/articles?cursor=nonsense", undefined, "query.cursor"],
    ];
    for (const [method, path, body, location] of cases) {
      const res = await desk.api(method, path, { headers: owner.headers, body });
      expect({ path, body, status: res.status, code: res.body.code }).toEqual({
        path,
        body,
        status: 422,
        code: "validation_failed",
      });
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect(await desk.deps.db.select().from(kbArticles).where(eq(kbArticles.workspaceId, workspace.id))).toEqual(
      before,
    );
  });
});

describe("knowledge base: collections", () => {
  test("CRUD with derived, unique and stable slugs, positions and events", async () => {
    const { workspace, owner, agent } = await createWorkspaceWithOwner(desk).then(async (w) => ({
      ...w,
      agent: await addMember(desk, w.workspace.id, "agent"),
    }));
    const seq = await lastSeq(desk, workspace.id);
    const a = await desk.api("POST", "/v1/kb/collections", {
      headers: agent.headers,
      body: { name: "Billing & Payments", description: "Invoices, cards" },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: "Billing & Payments", slug: "billing-payments", position: 0 });
    const b = await desk.api("POST", "/v1/kb/collections", {
      headers: agent.headers,
      body: { name: "Billing  payments!" },
    });
    expect(b.body).toMatchObject({ slug: "billing-payments-2", position: 1 });
    const accents = await desk.api("POST", "/v1/kb/collections", {
      headers: agent.headers,
      body: { name: "Crème brûlée" },
    });
    expect(accents.body.slug).toBe("creme-brulee");
    const symbols = await desk.api("POST", "/v1/kb/collections", { headers: agent.headers, body: { name: "???" } });
    expect(symbols.body.slug).toBe("collection");
    const taken = await desk.api("POST", "/v1/kb/collections", {
      headers: agent.headers,
      body: { name: "Other", slug: "billing-payments" },
    });
    expect(taken.status).toBe(409);
    // Renaming keeps the slug; a slug change is explicit.
    const renamed = await desk.api("PATCH", `/v1/kb/collections/${a.body.id}`, {
      headers: agent.headers,
      body: { name: "Billing", position: 5 },
    });
    expect(renamed.body).toMatchObject({ name: "Billing", slug: "billing-payments", position: 5 });
    expect(
      (
        await desk.api("PATCH", `/v1/kb/collections/${a.body.id}`, {
          headers: agent.headers,
          body: { slug: "creme-brulee" },
        })
      ).status,
    ).toBe(409);
    const reslugged = await desk.api("PATCH", `/v1/kb/collections/${a.body.id}`, {
      headers: agent.headers,
      body: { slug: "billing" },
    });
    expect(reslugged.body.slug).toBe("billing");
    const list = await desk.api("GET", "/v1/kb/collections", { headers: owner.headers });
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual([
      "Billing  payments!",
      "Crème brûlée",
      "???",
      "Billing",
    ]);
    expect(list.body.next_cursor).toBeNull();
    const stored = first(
      await desk.deps.db.select().from(kbCollections).where(eq(kbCollections.id, a.body.id)).limit(1),
    );
    expect(stored).toMatchObject({ name: "Billing", slug: "billing", description: "Invoices, cards", position: 5 });
    // A collection holding an article is not deleted; an empty one is.
    await desk.api("POST", "/v1/kb/articles", {
      headers: agent.headers,
      body: { collection_id: b.body.id, title: "In b" },
    });
    expect((await desk.api("DELETE", `/v1/kb/collections/${b.body.id}`, { headers: agent.headers })).status).toBe(409);
    expect((await desk.api("DELETE", `/v1/kb/collections/${a.body.id}`, { headers: agent.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/kb/collections/${a.body.id}`, { headers: agent.headers })).status).toBe(404);
    const emitted = await eventsSince(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual([
      "kb_collection.created",
      "kb_collection.created",
      "kb_collection.created",
      "kb_collection.created",
      "kb_collection.updated",
      "kb_collection.updated",
      "kb_article.created",
      "kb_collection.deleted",
    ]);
    expect(emitted[0]!.data).toEqual({ kb_collection: a.body });
    expect(emitted.at(-1)!.data).toEqual({ kb_collection_id: a.body.id });
  });
});

describe("knowledge base: articles", () => {
  test("drafts, publishing, slugs, sanitized bodies, positions and events", async () => {
    const { workspace, agent, collection, article } = await setup();
    const seq = await lastSeq(desk, workspace.id);
    const hostile =
      '<h2 onclick="steal()">Steps</h2><p>Open <a href="javascript:alert(1)">settings</a> and <a href="https://example.com/x">docs</a>.</p><script>alert(document.cookie)</script><img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe><style>body{display:none}</style><form action="https://evil.example"><input name="p"></form>';
    const created = await desk.api("POST", "/v1/kb/articles", {
      headers: agent.headers,
      body: { collection_id: collection.id, title: "Set up two-factor sign-in", body_html: hostile },
    });
    expect(created.status).toBe(201);
    const body = created.body;
    expect(body).toMatchObject({
      collection_id: collection.id,
      title: "Set up two-factor sign-in",
      slug: "set-up-two-factor-sign-in",
      status: "draft",
      views: 0,
      published_at: null,
    });
    for (const bad of ["<script", "onclick", "onerror", "javascript:", "<iframe", "<style", "<form", "<input"])
      expect(body.body_html).not.toContain(bad);
    expect(body.body_html).toContain("<h2>Steps</h2>");
    expect(body.body_html).toContain('href="https://example.com/x"');
    expect(body.body_text).toBe("Steps\nOpen settings and docs.");
    // Same title again: the next free slug; a given slug that is taken: 409.
    const twin = await desk.api("POST", "/v1/kb/articles", {
      headers: agent.headers,
      body: { collection_id: collection.id, title: "Set up two-factor sign-in", status: "published" },
    });
    expect(twin.body).toMatchObject({ slug: "set-up-two-factor-sign-in-2", status: "published" });
    expect(twin.body.published_at).toBe(twin.body.created_at);
    expect(
      (
        await desk.api("POST", "/v1/kb/articles", {
          headers: agent.headers,
          body: { collection_id: collection.id, title: "Z", slug: "reset-your-password" },
        })
      ).status,
    ).toBe(409);
    // Publishing sets published_at; a later edit keeps it and keeps the slug; unpublishing clears it.
    const published = await desk.api("PATCH", `/v1/kb/articles/${body.id}`, {
      headers: agent.headers,
      body: { status: "published" },
    });
    expect(published.body.status).toBe("published");
    expect(typeof published.body.published_at).toBe("string");
    const edited = await desk.api("PATCH", `/v1/kb/articles/${body.id}`, {
      headers: agent.headers,
      body: { title: "Two-factor sign-in", body_html: "<p>New <b>text</b></p>" },
    });
    expect(edited.body).toMatchObject({
      title: "Two-factor sign-in",
      slug: "set-up-two-factor-sign-in",
      published_at: published.body.published_at,
      body_html: "<p>New <b>text</b></p>",
      body_text: "New text",
    });
    const drafted = await desk.api("PATCH", `/v1/kb/articles/${body.id}`, {
      headers: agent.headers,
      body: { status: "draft" },
    });
    expect(drafted.body).toMatchObject({ status: "draft", published_at: null });
    const stored = first(await desk.deps.db.select().from(kbArticles).where(eq(kbArticles.id, body.id)).limit(1));
    expect(stored).toMatchObject({
      status: "draft",
      publishedAt: null,
      bodyText: "New text",
      title: "Two-factor sign-in",
    });
    // Positions: created last in their collection; listing follows positions; moving puts it last.
    const list = await desk.api("GET", `/v1/kb/articles?collection_id=${collection.id}`, { headers: agent.headers });
    expect(list.body.data.map((a: { title: string }) => a.title)).toEqual([
      "Reset your password",
      "Two-factor sign-in",
      "Set up two-factor sign-in",
    ]);
    const other = await desk.api("POST", "/v1/kb/collections", { headers: agent.headers, body: { name: "Security" } });
    const moved = await desk.api("PATCH", `/v1/kb/articles/${twin.body.id}`, {
      headers: agent.headers,
      body: { collection_id: other.body.id },
    });
    expect(moved.body.collection_id).toBe(other.body.id);
    const toFront = await desk.api("PATCH", `/v1/kb/articles/${body.id}`, {
      headers: agent.headers,
      body: { position: 0 },
    });
    expect(toFront.status).toBe(200);
    const drafts = await desk.api("GET", "/v1/kb/articles?status=draft", { headers: agent.headers });
    expect(drafts.body.data.map((a: { id: string }) => a.id)).toEqual([article.id, body.id]);
    expect((await desk.api("DELETE", `/v1/kb/articles/${twin.body.id}`, { headers: agent.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/kb/articles/${twin.body.id}`, { headers: agent.headers })).status).toBe(404);
    const emitted = await eventsSince(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual([
      "kb_article.created",
      "kb_article.created",
      "kb_article.updated",
      "kb_article.updated",
      "kb_article.updated",
      "kb_collection.created",
      "kb_article.updated",
      "kb_article.updated",
      "kb_article.deleted",
    ]);
    expect(emitted[0]!.data).toEqual({ kb_article: body });
    expect(emitted.at(-1)!.data).toEqual({ kb_article_id: twin.body.id });
  });

  test("pages by position with a cursor", async () => {
    const { owner, collection } = await setup();
    for (let i = 0; i < 4; i++)
      await desk.api("POST", "/v1/kb/articles", {
        headers: owner.headers,
        body: { collection_id: collection.id, title: `Article ${i}` },
      });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/v1/kb/articles?limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const res = await desk.api("GET", path, { headers: owner.headers });
      seen.push(...res.body.data.map((a: { title: string }) => a.title));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(["Reset your password", "Article 0", "Article 1", "Article 2", "Article 3"]);
  });

  test("full-text: q on the list, and GET /v1/search finds up to five articles, drafts included, only with kb:read", async () => {
    const { workspace, owner, viewer, collection } = await setup();
    for (let i = 0; i < 7; i++)
      await desk.api("POST", "/v1/kb/articles", {
        headers: owner.headers,
        body: { collection_id: collection.id, title: `Invoice guide ${i}`, body_html: "<p>About refunds.</p>" },
      });
    await desk.api("POST", "/v1/kb/articles", {
      headers: owner.headers,
      body: { collection_id: collection.id, title: "Shipping", body_html: "<p>When an invoice is late</p>" },
    });
    const other = await createWorkspaceWithOwner(desk);
    const oc = await desk.api("POST", "/v1/kb/collections", { headers: other.owner.headers, body: { name: "C" } });
    await desk.api("POST", "/v1/kb/articles", {
      headers: other.owner.headers,
      body: { collection_id: oc.body.id, title: "Invoice elsewhere" },
    });
    const listed = await desk.api("GET", "/v1/kb/articles?q=invoic", { headers: viewer.headers });
    expect(listed.body.data).toHaveLength(8);
    // The title weighs more than the body: the article with the word only in its body comes last.
    expect(listed.body.data.at(-1).title).toBe("Shipping");
    const search = await desk.api("GET", "/v1/search?q=invoice", { headers: viewer.headers });
    expect(search.status).toBe(200);
    expect(search.body.articles).toHaveLength(5);
    expect(search.body.articles.every((a: { title: string }) => a.title.startsWith("Invoice guide"))).toBe(true);
    const renamed = (await desk.api("GET", "/v1/kb/articles?q=shipping", { headers: viewer.headers })).body.data[0];
    await desk.api("PATCH", `/v1/kb/articles/${renamed.id}`, { headers: owner.headers, body: { title: "Deliveries" } });
    expect((await desk.api("GET", "/v1/kb/articles?q=shipping", { headers: viewer.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", "/v1/kb/articles?q=deliveries", { headers: viewer.headers })).body.data).toHaveLength(
      1,
    );
    await desk.api("DELETE", `/v1/kb/articles/${renamed.id}`, { headers: owner.headers });
    expect((await desk.api("GET", "/v1/kb/articles?q=deliveries", { headers: viewer.headers })).body.data).toEqual([]);
    const ticketsOnly = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/search?q=invoice", { headers: ticketsOnly.headers })).body.articles).toEqual([]);
    expect(workspace.id).not.toBe(other.workspace.id);
  });
});
