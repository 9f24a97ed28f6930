import { describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { imagePath } from "./pictures.store";

const desk = await startTestDesk();

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });
const PNG = await solid(100, 80).png().toBuffer();
const JPEG = await solid(100, 80).jpeg().toBuffer();
const GIF = await solid(100, 80).gif().toBuffer();
const WEBP = await solid(100, 80).webp().toBuffer();

function put(
  path: string,
  headers: Record<string, string>,
  bytes: Uint8Array | string,
  name = "a.png",
  type = "image/png",
) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], name, { type }));
  return desk.api("PUT", path, { headers, raw: form });
}
const eventTypes = async (workspaceId: string) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).map((e) => e.type);
const auditActions = async (workspaceId: string) =>
  (await desk.deps.db.select().from(auditLogs).where(eq(auditLogs.workspaceId, workspaceId))).map((e) => e.action);
/** A PNG whose header claims `width`×`height` with a few bytes of data: a decompression bomb's shape. */
function bombPng(width: number, height: number): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new DataView(new ArrayBuffer(body.length + 8));
    out.setUint32(0, data.length);
    new Uint8Array(out.buffer).set(body, 4);
    out.setUint32(body.length + 4, crc(body));
    return new Uint8Array(out.buffer);
  };
  const ihdr = new DataView(new ArrayBuffer(13));
  ihdr.setUint32(0, width);
  ihdr.setUint32(4, height);
  new Uint8Array(ihdr.buffer).set([8, 2, 0, 0, 0], 8);
  const idat = Bun.deflateSync(new Uint8Array(4096));
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk("IHDR", new Uint8Array(ihdr.buffer)),
    ...chunk("IDAT", idat),
    ...chunk("IEND", new Uint8Array()),
  ]);
}

describe("pictures", () => {
  test("each format is accepted whatever its name and declared type; stored 256 and 64 px PNGs, owner-only files", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    for (const [bytes, name] of [
      [PNG, "x.svg"],
      [JPEG, "x.txt"],
      [GIF, "x.gif"],
      [WEBP, "x"],
    ] as const) {
      const res = await put("/v1/me/avatar", owner.headers, bytes, name, "text/plain");
      expect(res.status).toBe(200);
      const url: string = res.body.user.avatar_url;
      expect(url).toMatch(/\/v1\/images\/img_[A-Za-z0-9_-]{22}\?s=256$/);
      expect(res.body.user.avatar_source).toBe("upload");
      const id = new URL(url).pathname.split("/").pop()!;
      for (const size of [256, 64] as const) {
        const meta = await sharp(await Bun.file(imagePath(desk.deps, id, size)).arrayBuffer()).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(["png", size, size]);
        expect(statSync(imagePath(desk.deps, id, size)).mode & 0o777).toBe(0o600);
      }
      const image = await desk.api("GET", `/v1/images/${id}?s=64`, {});
      expect(image.status).toBe(200);
      expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(image.headers.get("content-type")).toBe("image/png");
    }
    expect((await eventTypes(workspace.id)).filter((t) => t === "member.updated")).toHaveLength(4);
    expect(await auditActions(workspace.id)).toContain("user.avatar_updated");
    const removed = await desk.api("DELETE", "/v1/me/avatar", { headers: owner.headers });
    expect(removed.status).toBe(200);
    expect(removed.body.user).toMatchObject({ avatar_url: null, avatar_source: null });
    expect(await auditActions(workspace.id)).toContain("user.avatar_removed");
  });

  test("SVG, text and a renamed SVG are 422 unsupported_image; a 6 MB upload is 413 too_large", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>';
    for (const [bytes, name, type] of [
      [svg, "a.svg", "image/svg+xml"],
      [svg, "a.png", "image/png"],
      ["hello", "a.png", "image/png"],
      [PNG.subarray(0, 40), "cut.png", "image/png"],
    ] as const) {
      const res = await put("/v1/me/avatar", owner.headers, bytes, name, type);
      expect([res.status, res.body.code]).toEqual([422, "unsupported_image"]);
    }
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(PNG);
    const res = await put("/v1/me/avatar", owner.headers, big);
    expect([res.status, res.body.code]).toEqual([413, "too_large"]);
    const missing = new FormData();
    missing.append("other", new File([PNG], "a.png"));
    expect((await desk.api("PUT", "/v1/me/avatar", { headers: owner.headers, raw: missing })).status).toBe(422);
  });

  test("out of bounds: 5000×10 and 10×10 are 422 image_too_large; a bomb header is refused without decoding", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (const bytes of [await solid(5000, 10).png().toBuffer(), await solid(10, 10).png().toBuffer()]) {
      const res = await put("/v1/me/avatar", owner.headers, bytes);
      expect([res.status, res.body.code]).toEqual([422, "image_too_large"]);
    }
    const bomb = bombPng(60_000, 60_000);
    expect(bomb.length).toBeLessThan(1000);
    const started = performance.now();
    const res = await put("/v1/me/avatar", owner.headers, bomb);
    expect([res.status, res.body.code]).toEqual([422, "image_too_large"]);
    // Decoding 3.6 gigapixels would take seconds and gigabytes; reading the header takes milliseconds.
    expect(performance.now() - started).toBeLessThan(500);
    const wide = bombPng(4000, 4001);
    expect((await put("/v1/me/avatar", owner.headers, wide)).body.code).toBe("image_too_large");
  });

  test("EXIF (with GPS) is stripped and its orientation applied", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    // Left half red, right half blue; orientation 6 shows it turned a quarter clockwise: red above blue.
    const red = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const photo = await sharp({ create: { width: 64, height: 32, channels: 3, background: "#0000ff" } })
      .composite([{ input: red, left: 0, top: 0 }])
      .jpeg()
      .withExif({ IFD0: { Copyright: "secret place" }, IFD3: { GPSLatitudeRef: "N" } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    expect(Buffer.from(photo).includes("secret place")).toBe(true);
    const res = await put("/v1/me/avatar", owner.headers, photo, "p.jpg", "image/jpeg");
    expect(res.status).toBe(200);
    const id = new URL(res.body.user.avatar_url).pathname.split("/").pop()!;
    const stored = new Uint8Array(await Bun.file(imagePath(desk.deps, id, 256)).arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(Buffer.from(stored).includes("secret place")).toBe(false);
    const { data, info } = await sharp(stored).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const isRed = ([r, , b]: number[]) => r! > 200 && b! < 60;
    const isBlue = ([r, , b]: number[]) => b! > 200 && r! < 60;
    expect(isRed(pixel(250, 5))).toBe(true);
    expect(isRed(pixel(5, 5))).toBe(true);
    expect(isBlue(pixel(128, 250))).toBe(true);
  });

  test("contacts, companies and workspace images: events, audit, another workspace 404, wrong role 403", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const agent = await addMember(desk, workspace.id, "agent");
    const contact = (
      await desk.api("POST", "/v1/contacts", {
        headers: owner.headers,
        body: { email: `c${Math.random()}@example.test` },
      })
    ).body;
    const company = (
      await desk.api("POST", "/v1/companies", { headers: owner.headers, body: { name: `Co ${Math.random()}` } })
    ).body;

    const workspaceEventsBefore = (await eventTypes(workspace.id)).filter((t) => t === "workspace.updated").length;
    const c = await put(`/v1/contacts/${contact.id}/avatar`, agent.headers, JPEG);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: contact.id, avatar_source: "upload" });
    expect(c.body.avatar_url).toContain("/v1/images/");
    const co = await put(`/v1/companies/${company.id}/avatar`, agent.headers, PNG);
    expect(co.status).toBe(200);
    expect(co.body).toMatchObject({ id: company.id, avatar_source: "upload" });
    const logo = await put("/v1/workspace/images/logo", owner.headers, PNG);
    expect(logo.status).toBe(200);
    expect(logo.body).toMatchObject({ id: workspace.id, avatar_source: "upload" });
    const favicon = await put("/v1/workspace/images/help_center_favicon", owner.headers, WEBP);
    expect(favicon.body.images.help_center_favicon).toContain("/v1/images/");
    expect(favicon.body.avatar_url).toBe(logo.body.avatar_url);
    expect((await put("/v1/workspace/images/banner", owner.headers, PNG)).status).toBe(422);

    expect((await put(`/v1/contacts/${contact.id}/avatar`, other.owner.headers, PNG)).status).toBe(404);
    expect((await put(`/v1/companies/${company.id}/avatar`, other.owner.headers, PNG)).status).toBe(404);
    expect(
      (await desk.api("DELETE", `/v1/contacts/${contact.id}/avatar`, { headers: other.owner.headers })).status,
    ).toBe(404);
    expect((await put(`/v1/contacts/${contact.id}/avatar`, viewer.headers, PNG)).status).toBe(403);
    expect((await put("/v1/workspace/images/logo", agent.headers, PNG)).status).toBe(403);
    expect(
      (await put("/v1/workspace/images/logo", (await createKey(desk, owner, ["contacts:write"])).headers, PNG)).status,
    ).toBe(403);

    const cleared = await desk.api("DELETE", `/v1/contacts/${contact.id}/avatar`, { headers: agent.headers });
    expect(cleared.body).toMatchObject({ avatar_url: null, avatar_source: null });
    expect(
      (await desk.api("DELETE", "/v1/workspace/images/logo", { headers: owner.headers })).body.avatar_url,
    ).toBeNull();
    const types = await eventTypes(workspace.id);
    expect(types.filter((t) => t === "contact.updated")).toHaveLength(2);
    expect(types.filter((t) => t === "company.updated")).toHaveLength(1);
    expect(types.filter((t) => t === "workspace.updated")).toHaveLength(workspaceEventsBefore + 3);
    expect(await auditActions(workspace.id)).toEqual(
      expect.arrayContaining([
        "contact.avatar_updated",
        "contact.avatar_removed",
        "company.avatar_updated",
        "workspace.image_updated",
        "workspace.image_removed",
      ]),
    );
  });
});
