import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { attachmentFilePath, findAttachment } from "../attachments/attachments.public";
import { manualClock } from "../lib/clock";
import { WIDGET_UPLOAD_VOLUME } from "./widget.limits";
import { sweepVisitorUploads } from "./widget.uploads";

const clock = manualClock(new Date("2026-05-04T10:00:00Z"));
const desk = await startTestDesk({ clock });

/** A PNG by its first bytes, `mb` megabytes long (a little under, so it counts as exactly `mb`). */
const png = (mb: number) => {
  const bytes = new Uint8Array(mb * 1024 * 1024 - 1024);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
};

/** A visitor session over a real socket, so the client address (127.0.0.1) counts. */
async function visitorOf(key: string) {
  const res = await fetch(`${desk.url}/v1/widget/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { visitor_token: string };
  return { authorization: `Visitor ${body.visitor_token}` };
}

async function upload(headers: Record<string, string>, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], "shot.png", { type: "image/png" }));
  const res = await fetch(`${desk.url}/v1/widget/attachments`, { method: "POST", headers, body: form });
  return { status: res.status, body: (await res.json()) as { id?: string; code?: string } };
}

describe("visitor upload volume", () => {
  test("per visitor session and per client address, per hour; a refused file stores nothing", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const key = workspace.widgetKey;
    const one = await visitorOf(key);
    const perFile = 9;
    const fits = Math.floor(WIDGET_UPLOAD_VOLUME.mbPerVisitor / perFile);
    for (let i = 0; i < fits; i++) expect((await upload(one, png(perFile))).status).toBe(201);
    const refused = await upload(one, png(perFile));
    expect([refused.status, refused.body.code]).toEqual([429, "rate_limited"]);
    // Fresh sessions from the same address share the address's volume.
    let sent = fits * perFile;
    let last = 0;
    while (sent + perFile <= WIDGET_UPLOAD_VOLUME.mbPerAddress) {
      const other = await visitorOf(key);
      last = (await upload(other, png(perFile))).status;
      expect(last).toBe(201);
      sent += perFile;
    }
    const overAddress = await upload(await visitorOf(key), png(perFile));
    expect(overAddress.status).toBe(429);
    // An hour later the budget is back.
    clock.advance(3_600_001);
    expect((await upload(await visitorOf(key), png(1))).status).toBe(201);
  }, 30_000);

  test("uploads no message took are swept within the hour; attached ones stay", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const visitor = { authorization: (await visitorOf(workspace.widgetKey)).authorization };
    const left = await upload(visitor, png(1));
    const kept = await upload(visitor, png(1));
    const chat = await fetch(`${desk.url}/v1/widget/conversations`, {
      method: "POST",
      headers: { ...visitor, "content-type": "application/json" },
      body: JSON.stringify({ body: "See the screenshot", attachment_ids: [kept.body.id] }),
    });
    expect(chat.status).toBe(201);
    const leftRow = await findAttachment(desk.deps.db, workspace.id, left.body.id!);
    const path = attachmentFilePath(desk.deps, leftRow);
    expect(existsSync(path)).toBe(true);
    clock.advance(30 * 60_000);
    await sweepVisitorUploads(desk.deps);
    expect(existsSync(path)).toBe(true);
    clock.advance(31 * 60_000);
    expect(await sweepVisitorUploads(desk.deps)).toBeGreaterThanOrEqual(2);
    await expect(findAttachment(desk.deps.db, workspace.id, left.body.id!)).rejects.toThrow();
    expect(existsSync(path)).toBe(false);
    expect((await findAttachment(desk.deps.db, workspace.id, kept.body.id!)).messageId).not.toBeNull();
  });
});
