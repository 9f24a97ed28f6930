import { first } from "../db/store";
import { afterAll, describe, expect, test } from "bun:test";
import { createHash, createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { events } from "../events/events.table";
import { pictureLookups } from "./pictures.table";

const PNG = await sharp({ create: { width: 120, height: 120, channels: 3, background: { r: 10, g: 120, b: 200 } } })
  .png()
  .toBuffer();
const hits = new Map<string, number>();
/** Stands in for Gravatar (/avatar/<sha256>) and company sites (/sites/<domain>/…). */
const remote = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request): Response {
    const path = new URL(request.url).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const png = () => new Response(PNG, { headers: { "content-type": "image/png" } });
    if (path === `/avatar/${sha("face@example.test")}`) return png();
    if (path.startsWith("/faces/")) return png();
    if (path === "/sites/acme.test/")
      return new Response(
        '<html><head><link rel="icon" href="/sites/acme.test/small.ico"><link rel="apple-touch-icon" sizes="180x180" href="touch.png"></head></html>',
        { headers: { "content-type": "text/html" } },
      );
    if (path === "/sites/acme.test/touch.png") return png();
    if (path === "/sites/moved.test/")
      return Response.redirect(`http://127.0.0.1:${remote.port}/sites/acme.test/`, 302);
    if (path === "/sites/svg.test/apple-touch-icon.png")
      return new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { headers: { "content-type": "image/png" } });
    if (path.startsWith("/sites/dead.test/")) return new Response("down", { status: 503 });
    return new Response("no", { status: 404 });
  },
});
afterAll(() => remote.stop(true));
function sha(email: string) {
  return createHash("sha256").update(email).digest("hex");
}

const desk = await startTestDesk({
  env: {
    DESK_GRAVATAR_URL: `http://127.0.0.1:${remote.port}/avatar`,
    DESK_DOMAIN_ICONS_URL: `http://127.0.0.1:${remote.port}/sites/{domain}`,
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  },
});

async function settle() {
  for (let i = 0; i < 3; i++) {
    await desk.consumers.drain();
    await desk.jobs.drain();
  }
}
const typesOf = async (workspaceId: string) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).map((e) => e.type);

async function workspace(settings: Record<string, unknown> = {}) {
  const { owner, workspace } = await createWorkspaceWithOwner(desk);
  if (Object.keys(settings).length) {
    const res = await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings } });
    expect(res.status).toBe(200);
  }
  return { owner, workspace };
}

describe("Gravatar for contacts", () => {
  test("off by default: no lookup at all", async () => {
    const { owner } = await workspace();
    const before = hits.get(`/avatar/${sha("face@example.test")}`) ?? 0;
    const c = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "face@example.test" } });
    await settle();
    expect((await desk.api("GET", `/v1/contacts/${c.body.id}`, { headers: owner.headers })).body.avatar_url).toBeNull();
    expect(hits.get(`/avatar/${sha("face@example.test")}`) ?? 0).toBe(before);
  });

  test("with gravatar on, a new contact gets its picture (source gravatar), contact.updated follows; a miss is remembered", async () => {
    const { owner, workspace: ws } = await workspace({ gravatar: true });
    const c = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "face@example.test" } });
    const none = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "nobody@example.test" },
    });
    await settle();
    const found = await desk.api("GET", `/v1/contacts/${c.body.id}`, { headers: owner.headers });
    expect(found.body.avatar_source).toBe("gravatar");
    expect(found.body.avatar_url).toContain("/v1/images/img_");
    const image = await desk.api(
      "GET",
      new URL(found.body.avatar_url).pathname + new URL(found.body.avatar_url).search,
    );
    expect(image.status).toBe(200);
    expect((await typesOf(ws.id)).filter((t) => t === "contact.updated")).toHaveLength(1);
    const missing = await desk.api("GET", `/v1/contacts/${none.body.id}`, { headers: owner.headers });
    expect(missing.body.avatar_url).toBeNull();
    const row = first(
      await desk.deps.db
        .select()
        .from(pictureLookups)
        .where(eq(pictureLookups.key, `gravatar:${sha("nobody@example.test")}`))
        .limit(1),
    )!;
    expect(row.status).toBe("missing");
    // Another contact with the same unknown email elsewhere does not ask Gravatar again.
    const path = `/avatar/${sha("nobody@example.test")}`;
    const asked = hits.get(path);
    const { owner: other } = await workspace({ gravatar: true });
    await desk.api("POST", "/v1/contacts", { headers: other.headers, body: { email: "nobody@example.test" } });
    await settle();
    expect(hits.get(path)).toBe(asked);
  });

  test("an uploaded picture always wins: a refresh does not replace it", async () => {
    const { owner } = await workspace({ gravatar: true });
    const c = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { email: "face@example.test" } });
    const form = new FormData();
    form.append("file", new File([PNG], "a.png", { type: "image/png" }));
    const up = await desk.api("PUT", `/v1/contacts/${c.body.id}/avatar`, { headers: owner.headers, raw: form });
    expect(up.body.avatar_source).toBe("upload");
    await settle();
    const refresh = await desk.api("POST", `/v1/contacts/${c.body.id}/avatar/refresh`, { headers: owner.headers });
    expect(refresh.status).toBe(202);
    await settle();
    const after = await desk.api("GET", `/v1/contacts/${c.body.id}`, { headers: owner.headers });
    expect(after.body).toMatchObject({ avatar_source: "upload", avatar_url: up.body.avatar_url });
  });
});

describe("company logos from the domain", () => {
  test("on by default: the home page's apple-touch-icon becomes the logo (source domain)", async () => {
    const { owner, workspace: ws } = await workspace();
    const co = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Acme", domain: "acme.test" },
    });
    await settle();
    const got = await desk.api("GET", `/v1/companies/${co.body.id}`, { headers: owner.headers });
    expect(got.body.avatar_source).toBe("domain");
    expect(got.body.avatar_url).toContain("/v1/images/");
    expect(hits.get("/sites/acme.test/touch.png")).toBeGreaterThanOrEqual(1);
    expect(await typesOf(ws.id)).toContain("company.updated");
  });

  test("redirects are followed (and re-checked); with domain_logos off nothing is fetched", async () => {
    const { owner } = await workspace();
    const co = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "M", domain: "moved.test" },
    });
    await settle();
    expect((await desk.api("GET", `/v1/companies/${co.body.id}`, { headers: owner.headers })).body.avatar_source).toBe(
      "domain",
    );
    const { owner: off } = await workspace({ domain_logos: false });
    const before = hits.get("/sites/dead.test/") ?? 0;
    await desk.api("POST", "/v1/companies", { headers: off.headers, body: { name: "D", domain: "dead.test" } });
    await settle();
    expect(hits.get("/sites/dead.test/") ?? 0).toBe(before);
  });

  test("a dead domain is remembered (no hammering); refresh answers 202 but asks again at most once a minute", async () => {
    const { owner } = await workspace();
    const co = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Dead", domain: "dead.test" },
    });
    await settle();
    const row = first(
      await desk.deps.db.select().from(pictureLookups).where(eq(pictureLookups.key, "domain:dead.test")).limit(1),
    )!;
    expect(row.status).toBe("failed");
    expect(new Date(row.retryAfter).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    const asked = hits.get("/sites/dead.test/");
    await desk.api("POST", "/v1/companies", { headers: owner.headers, body: { name: "Dead 2", domain: "dead.test" } });
    await settle();
    expect(hits.get("/sites/dead.test/")).toBe(asked);
    const refresh = await desk.api("POST", `/v1/companies/${co.body.id}/avatar/refresh`, { headers: owner.headers });
    expect(refresh.status).toBe(202);
    expect(refresh.body).toEqual({ queued: true });
    await settle();
    expect(hits.get("/sites/dead.test/")).toBe(asked); // within a minute of the last look
  });

  test("an SVG served as PNG is not taken", async () => {
    const { owner } = await workspace();
    const co = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "S", domain: "svg.test" },
    });
    await settle();
    expect(
      (await desk.api("GET", `/v1/companies/${co.body.id}`, { headers: owner.headers })).body.avatar_url,
    ).toBeNull();
    expect(
      first(await desk.deps.db.select().from(pictureLookups).where(eq(pictureLookups.key, "domain:svg.test")).limit(1))!
        .status,
    ).toBe("missing");
  });
});

describe("refresh routes", () => {
  test("401 without credential, 403 for a viewer or a read-only key, 404 for another workspace's record", async () => {
    const { owner, workspace: ws } = await workspace();
    const co = await desk.api("POST", "/v1/companies", { headers: owner.headers, body: { name: "X" } });
    const c = await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "Y" } });
    for (const path of [`/v1/companies/${co.body.id}/avatar/refresh`, `/v1/contacts/${c.body.id}/avatar/refresh`]) {
      expect((await desk.api("POST", path)).status).toBe(401);
      const viewer = await addMember(desk, ws.id, "viewer");
      expect((await desk.api("POST", path, { headers: viewer.headers })).status).toBe(403);
      expect(
        (await desk.api("POST", path, { headers: (await createKey(desk, owner, ["contacts:read"])).headers })).status,
      ).toBe(403);
      const { owner: stranger } = await workspace();
      const foreign = await desk.api("POST", path, { headers: stranger.headers });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe("not_found");
    }
  });
});

describe("PATCH /v1/me { avatar_url }", () => {
  test("copies the picture server-side; member.updated follows in the person's workspace", async () => {
    const { owner, workspace: ws } = await workspace();
    const url = `http://127.0.0.1:${remote.port}/sites/acme.test/touch.png`;
    const res = await desk.api("PATCH", "/v1/me", { headers: owner.headers, body: { avatar_url: url } });
    expect(res.status).toBe(200);
    expect(res.body.user.avatar_url).toBeNull(); // not yet: the copy is a job
    await settle();
    const me = await desk.api("GET", "/v1/me", { headers: owner.headers });
    expect(me.body.user.avatar_url).toContain("/v1/images/img_");
    expect(me.body.user.avatar_source).toBe("upload");
    expect(await typesOf(ws.id)).toContain("member.updated");
  });

  test("a URL that can never be fetched is 422 at body.avatar_url; a dead one leaves the picture as it was", async () => {
    const { owner } = await workspace();
    for (const url of ["https://10.1.2.3/a.png", "http://example.com/a.png", "not a url", "ftp://example.com/a.png"]) {
      const res = await desk.api("PATCH", "/v1/me", { headers: owner.headers, body: { avatar_url: url } });
      expect({ url, status: res.status }).toEqual({ url, status: 422 });
      expect(res.body.errors[0].location).toBe("body.avatar_url");
    }
    const dead = `http://127.0.0.1:${remote.port}/sites/dead.test/me.png`;
    expect((await desk.api("PATCH", "/v1/me", { headers: owner.headers, body: { avatar_url: dead } })).status).toBe(
      200,
    );
    await settle();
    expect((await desk.api("GET", "/v1/me", { headers: owner.headers })).body.user.avatar_url).toBeNull();
  });
});

describe("chat visitors' pictures", () => {
  test("a verified visitor's avatar_url becomes the contact's widget picture, fetched once, over Gravatar; an upload stays; unverified 422", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings: { gravatar: true } } });
    const rotated = await desk.api("POST", "/v1/workspace/widget-secret/rotate", { headers: owner.headers });
    const hash = createHmac("sha256", rotated.body.secret).update("u-1").digest("hex");
    const face = `http://127.0.0.1:${remote.port}/faces/u-1.png`;
    const start = (body: Record<string, unknown>) =>
      desk.api("POST", "/v1/widget/session", { body: { key: workspace.widgetKey, ...body } });
    // Gravatar knows this email too: the site's own picture of its user wins.
    const verified = { user_id: "u-1", user_hash: hash, email: "face@example.test", avatar_url: face };
    const first = await start(verified);
    expect(first.status).toBe(200);
    const contactId = first.body.contact.id as string;
    await settle();
    const contact = async () =>
      (await desk.api("GET", `/v1/contacts/${contactId}`, { headers: owner.headers })).body as {
        avatar_url: string | null;
        avatar_source: string | null;
      };
    expect(await contact()).toMatchObject({
      avatar_source: "widget",
      avatar_url: expect.stringContaining("/v1/images/"),
    });
    const picture = await fetch(`${desk.url}${new URL((await contact()).avatar_url!).pathname}?s=64`);
    expect(picture.headers.get("content-type")).toBe("image/png");
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(64);
    // The visitor back the next day: the picture comes from the cache, not from the site again.
    expect((await start(verified)).status).toBe(200);
    await settle();
    expect(hits.get("/faces/u-1.png")).toBe(1);

    // Only a verified identity gives a picture; a URL the guard refuses is 422; nothing is stored.
    const contactsBefore = (await desk.api("GET", "/v1/contacts", { headers: owner.headers })).body.data.length;
    const unverified = await start({ email: "anon@example.test", avatar_url: face });
    expect([unverified.status, unverified.body.errors?.[0]?.location]).toEqual([422, "body.avatar_url"]);
    const local = await start({ ...verified, avatar_url: "file:///etc/passwd" });
    expect([local.status, local.body.errors?.[0]?.location]).toEqual([422, "body.avatar_url"]);
    expect((await desk.api("GET", "/v1/contacts", { headers: owner.headers })).body.data.length).toBe(contactsBefore);

    // An agent's upload is never replaced by the site's picture.
    const form = new FormData();
    form.append("file", new File([PNG], "face.png", { type: "image/png" }));
    expect(
      (await desk.api("PUT", `/v1/contacts/${contactId}/avatar`, { headers: owner.headers, raw: form })).status,
    ).toBe(200);
    const uploaded = (await contact()).avatar_url;
    expect((await start({ ...verified, avatar_url: `http://127.0.0.1:${remote.port}/faces/other.png` })).status).toBe(
      200,
    );
    await settle();
    expect(await contact()).toMatchObject({ avatar_source: "upload", avatar_url: uploaded });
  });
});
