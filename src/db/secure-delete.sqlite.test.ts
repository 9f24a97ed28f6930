import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { webhooks } from "../webhooks/webhooks.table";
import { commitPending } from "./tx";

const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });

const fileHolds = (path: string, needle: string) => readFileSync(path).includes(Buffer.from(needle));

test("secure_delete is on for the desk's connection", () => {
  const row = desk.deps.db.$client.query<{ secure_delete: number }, []>("PRAGMA secure_delete").get();
  expect(row?.secure_delete).toBe(1);
});

test("a deleted webhook's sealed signing secret leaves no bytes in the database file", async () => {
  const { owner } = await createWorkspaceWithOwner(desk);
  const created = await desk.api("POST", "/v1/webhooks", {
    headers: owner.headers,
    body: { url: "http://127.0.0.1:9/hook", events: ["ticket.created"] },
  });
  expect(created.status).toBe(201);
  const sqlite = desk.deps.db.$client;
  const [row] = await desk.deps.db
    .select({ s: webhooks.secretSealed })
    .from(webhooks)
    .where(eq(webhooks.id, created.body.id));
  const sealed = row!.s;
  commitPending(desk.deps.db);
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const path = `${desk.dataDir}/desk.db`;
  // The control: the secret is really in the file before the delete.
  expect(fileHolds(path, sealed)).toBe(true);

  expect((await desk.api("DELETE", `/v1/webhooks/${created.body.id}`, { headers: owner.headers })).status).toBe(204);
  commitPending(desk.deps.db);
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  expect(fileHolds(path, sealed)).toBe(false);
});
