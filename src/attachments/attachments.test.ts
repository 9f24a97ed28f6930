import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { eq } from "drizzle-orm";
import { manualClock } from "../lib/clock";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { newTicket } from "../../test/kit/tickets";
import { attachments } from "./attachments.table";
import {
  attachmentFilePath,
  discardAttachments,
  removeOrphanAttachments,
  storeAttachmentAsync,
} from "./attachments.service";
import { sniffContentType } from "./attachments.sniff";

const clock = manualClock(new Date());
const desk = await startTestDesk({ clock });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

function upload(
  headers: Record<string, string>,
  bytes: Uint8Array | string,
  filename: string,
  type = "application/octet-stream",
  field = "file",
) {
  const form = new FormData();
  form.append(field, new File([bytes as BlobPart], filename, { type }));
  return desk.api("POST", "/v1/attachments", { headers, raw: form });
}
const row = async (id: string) =>
  first(await desk.deps.db.select().from(attachments).where(eq(attachments.id, id)).limit(1));

describe("attachments", () => {
  test("access: 401, viewer 403, read key 403; another workspace's upload is 404 and cannot be attached", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await upload({}, "x", "a.txt")).status).toBe(401);
    expect((await upload(viewer.headers, "x", "a.txt")).status).toBe(403);
    expect((await upload((await createKey(desk, owner, ["tickets:read"])).headers, "x", "a.txt")).status).toBe(403);
    const mine = await upload(owner.headers, "hello", "a.txt");
    expect(mine.status).toBe(201);
    expect((await desk.api("GET", `/v1/attachments/${mine.body.id}`, { headers: other.owner.headers })).status).toBe(
      404,
    );
    const theirTicket = await newTicket(desk, other.owner);
    const res = await desk.api("POST", `/v1/tickets/${theirTicket.id}/messages`, {
      headers: other.owner.headers,
      body: { kind: "reply", body_html: "x", attachment_ids: [mine.body.id] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.attachment_ids.0");
    expect((await row(mine.body.id))!.messageId).toBeNull();
  });

  test("upload: type sniffed from bytes, file stored, bad input 422, over 25 MB 413", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const png = await upload(owner.headers, PNG, "../../etc/photo.png", "text/html");
    expect(png.status).toBe(201);
    expect(png.body).toMatchObject({
      filename: "photo.png",
      content_type: "image/png",
      size_bytes: PNG.length,
      inline: false,
    });
    expect(png.body.url).toContain(`/v1/attachments/${png.body.id}/content?token=`);
    expect(existsSync(attachmentFilePath(desk.deps, (await row(png.body.id))!))).toBe(true);
    const html = await upload(owner.headers, "<script>alert(1)</script>", "x.html", "text/html");
    expect(html.body.content_type).toBe("text/plain");
    expect((await upload(owner.headers, "x", "a.txt", "text/plain", "other")).status).toBe(422);
    expect(
      (await desk.api("POST", "/v1/attachments", { headers: owner.headers, body: { file: "x" } })).status,
    ).toBeGreaterThanOrEqual(415);
    const big = await upload(owner.headers, new Uint8Array(25 * 1024 * 1024 + 1), "big.bin");
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("too_large");
  });

  test("sniffing", () => {
    expect(sniffContentType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffContentType(new TextEncoder().encode("%PDF-1.7"))).toBe("application/pdf");
    expect(sniffContentType(new Uint8Array([0, 1, 2, 3]))).toBe("application/octet-stream");
    expect(sniffContentType(new TextEncoder().encode("héllo"))).toBe("text/plain");
  });

  test("attached by a message; redirect to a signed URL that serves the bytes with safe headers", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const file = await upload(owner.headers, PNG, "photo.png");
    const reply = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "see", attachment_ids: [file.body.id] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.attachments.map((a: { id: string }) => a.id)).toEqual([file.body.id]);
    expect((await row(file.body.id))!.messageId).toBe(reply.body.id);
    const again = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "x", attachment_ids: [file.body.id] },
    });
    expect(again.status).toBe(422);
    const redirect = await desk.api("GET", `/v1/attachments/${file.body.id}`, { headers: owner.headers });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get("location")!);
    expect(location.pathname).toBe(`/v1/attachments/${file.body.id}/content`);
    const content = await desk.fetch(new Request(`http://localhost${location.pathname}${location.search}`));
    expect(content.status).toBe(200);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(PNG);
    expect(content.headers.get("content-type")).toBe("image/png");
    expect(content.headers.get("x-content-type-options")).toBe("nosniff");
    expect(content.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(content.headers.get("content-disposition")).toContain('filename="photo.png"');
    // a token for another attachment, a wrong-purpose token or a tampered token are refused
    const other = await upload(owner.headers, "x", "b.txt");
    expect((await desk.api("GET", `/v1/attachments/${other.body.id}/content${location.search}`)).status).toBe(404);
    expect((await desk.api("GET", `/v1/attachments/${file.body.id}/content?token=${owner.token}`)).status).toBe(401);
    expect((await desk.api("GET", `/v1/attachments/${file.body.id}/content${location.search}x`)).status).toBe(401);
    clock.advance(20 * 60_000);
    expect((await desk.api("GET", `/v1/attachments/${file.body.id}/content${location.search}`)).status).toBe(401);
  });

  test("orphans older than a day are removed with their files; attached ones stay", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const orphan = await upload(owner.headers, "o", "o.txt");
    const kept = await upload(owner.headers, "k", "k.txt");
    await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: "x", attachment_ids: [kept.body.id] },
    });
    const fresh = await upload(owner.headers, "f", "f.txt");
    clock.advance(25 * 3600_000);
    // (the session token has expired by now: store through the service, as inbound mail does)
    const young = {
      body: await storeAttachmentAsync(
        owner.ctx,
        { filename: "y.txt", bytes: new TextEncoder().encode("y") },
        desk.deps,
      ),
    };
    const path = attachmentFilePath(desk.deps, (await row(orphan.body.id))!);
    expect(await removeOrphanAttachments(desk.deps)).toBeGreaterThanOrEqual(2);
    expect(await row(orphan.body.id)).toBeUndefined();
    expect(await row(fresh.body.id)).toBeUndefined();
    expect(existsSync(path)).toBe(false);
    expect(await row(kept.body.id)).toBeDefined();
    expect(await row(young.body.id)).toBeDefined();
  });
});

describe("inline images", () => {
  test("cid: images in a message point at their attachment's signed URL", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const { systemContext } = await import("../auth/context");
    const { addMessage } = await import("../tickets/tickets.public");
    const ticket = await newTicket(desk, owner);
    const ctx = systemContext(workspace.id);
    const image = await storeAttachmentAsync(
      ctx,
      { filename: "logo.png", bytes: PNG, inline: true, content_id: "<logo@mail>" },
      desk.deps,
    );
    await addMessage(
      ctx,
      ticket.id,
      {
        kind: "reply",
        body_html: '<p><img src="cid:logo@mail" alt="logo"></p>',
        attachment_ids: [image.id],
        direction: "inbound",
        author: { type: "system" },
      },
      desk.deps,
    );
    const [message] = (await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: owner.headers })).body
      .data;
    expect(message.attachments[0]).toMatchObject({ id: image.id, inline: true });
    expect(message.body_html).toContain(`/v1/attachments/${image.id}/content?token=`);
    expect(message.body_html).not.toContain("cid:");
  });
});

describe("discardAttachments", () => {
  test("removes the rows and files of uploads nothing used; an attached one stays", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const { systemContext } = await import("../auth/context");
    const { addMessage } = await import("../tickets/tickets.public");
    const ctx = systemContext(workspace.id);
    const ticket = await newTicket(desk, owner);
    const unused = await storeAttachmentAsync(ctx, { filename: "a.png", bytes: PNG }, desk.deps);
    const used = await storeAttachmentAsync(ctx, { filename: "b.png", bytes: PNG }, desk.deps);
    await addMessage(
      ctx,
      ticket.id,
      { kind: "note", body_html: "<p>x</p>", attachment_ids: [used.id], author: { type: "system" } },
      desk.deps,
    );
    await discardAttachments(desk.deps, [unused.id, used.id]);
    const rowOf = async (id: string) =>
      first(await desk.deps.db.select().from(attachments).where(eq(attachments.id, id)).limit(1));
    expect(await rowOf(unused.id)).toBeUndefined();
    expect(existsSync(attachmentFilePath(desk.deps, unused))).toBe(false);
    expect(await rowOf(used.id)).toBeDefined();
    expect(existsSync(attachmentFilePath(desk.deps, used))).toBe(true);
  });
});
