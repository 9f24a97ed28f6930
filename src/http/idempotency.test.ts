import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { onPostgres } from "../../test/kit/postgres";
import { untilCommitted } from "../db/tx";
import { sha256Hex } from "../lib/crypto";
import { sql } from "drizzle-orm";
import { execute, rowsOf } from "../db/store";

type StoredRow = { state: string; body: string | null };
const storedRow = async (desk: TestDesk, key: string) =>
  (await rowsOf<StoredRow>(desk.deps.db, sql`SELECT state, body FROM idempotency_keys WHERE key = ${key}`))[0] ?? null;

/**
 * What anyone who reads the stored bytes sees: desk.db and its WAL as text on SQLite; on PostgreSQL
 * (no file here) every stored key's row as text.
 */
async function databaseFiles(desk: TestDesk): Promise<string> {
  if (onPostgres) {
    const rows = await rowsOf<{ row: string }>(desk.deps.db, sql`SELECT k::text AS row FROM idempotency_keys k`);
    return rows.map((r) => r.row).join("\n");
  }
  const path = desk.deps.config.databasePath;
  return [path, `${path}-wal`].map((file) => readFileSync(file).toString("latin1")).join("\n");
}

const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });

describe("idempotency store and one-time secrets", () => {
  test("answers holding an API key's secret, a webhook's signing secret or an invitation link are stored sealed and replayed whole", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const creates = [
      {
        path: "/v1/api-keys",
        body: { name: "ci", scopes: ["tickets:read"] },
        secret: (b: { secret: string }) => b.secret,
      },
      {
        path: "/v1/webhooks",
        body: { url: "http://127.0.0.1:9/hook", events: ["*"] },
        secret: (b: { secret: string }) => b.secret,
      },
      {
        path: "/v1/invitations",
        body: { email: "new@example.test", role: "agent" },
        secret: (b: { url: string }) => new URL(b.url).searchParams.get("token") ?? b.url,
      },
    ];
    for (const [i, create] of creates.entries()) {
      const key = `secret-${i}-${crypto.randomUUID()}`;
      const headers = { ...owner.headers, "idempotency-key": key };
      const first = await desk.api("POST", create.path, { headers, body: create.body });
      expect(first.status).toBe(201);
      const secret = create.secret(first.body);
      expect(secret.length).toBeGreaterThan(10);
      await untilCommitted(desk.deps.db);

      const row = (await storedRow(desk, key))!;
      expect(row.state).toBe("done");
      expect(row.body).not.toContain(secret);
      expect(row.body).not.toContain(first.body.id);
      expect(await databaseFiles(desk)).not.toContain(secret);

      const replay = await desk.api("POST", create.path, { headers, body: create.body });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first.body);
    }
  });
});

// One process on one file knows every running key is its own: a start drops them. On PostgreSQL
// another node may be running them, so they age out instead (the test below).
describe.skipIf(onPostgres)("recovery at start", () => {
  test("a key left running by a crashed process, or an answer stored in plain text, is dropped at start and the retry runs", async () => {
    const first = await startTestDesk({ keepAlive: true });
    const { owner } = await createWorkspaceWithOwner(first);
    const body = JSON.stringify({ name: "after crash", scopes: ["tickets:read"] });
    const scope = `user:${owner.id}:${owner.workspaceId}`;
    const fingerprint = sha256Hex(`POST /v1/api-keys\n${sha256Hex(new TextEncoder().encode(body))}`);
    const insert = async (
      ...row: [string, string, string, string, number | null, string | null, string | null, string]
    ) =>
      await execute(
        first.deps.db,
        sql`INSERT INTO idempotency_keys (scope, key, fingerprint, state, status, content_type, body, created_at) VALUES (${sql.join(
          row.map((value) => sql`${value}`),
          sql`, `,
        )})`,
      );
    const now = new Date().toISOString();
    // What a process killed mid-request leaves: the claim, never an answer.
    await insert(scope, "crashed", fingerprint, "running", null, null, null, now);
    // What an earlier version stored: the answer in plain text.
    await insert(
      scope,
      "legacy",
      fingerprint,
      "done",
      201,
      "application/json",
      '{"secret":"desk_live_plaintext"}',
      now,
    );
    const headers = (key: string) => ({ ...owner.headers, "content-type": "application/json", "idempotency-key": key });
    expect((await first.api("POST", "/v1/api-keys", { headers: headers("crashed"), raw: body })).status).toBe(409);
    await first.stop();

    const second = await startTestDesk({ config: { dataDir: first.dataDir } });
    try {
      const retry = await second.api("POST", "/v1/api-keys", { headers: headers("crashed"), raw: body });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(retry.body.secret).toMatch(/^desk_live_/);
      const replay = await second.api("POST", "/v1/api-keys", { headers: headers("crashed"), raw: body });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.id).toBe(retry.body.id);
      expect(await storedRow(second, "legacy")).toBeNull();
    } finally {
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!onPostgres)("a key left running by a node that died", () => {
  test("blocks a retry while it may still be running, and is taken over once 15 s old, so the retry runs and is then replayed", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const body = JSON.stringify({ name: "after a node died", scopes: ["tickets:read"] });
    const scope = `user:${owner.id}:${owner.workspaceId}`;
    const fingerprint = sha256Hex(`POST /v1/api-keys\n${sha256Hex(new TextEncoder().encode(body))}`);
    const claim = async (key: string, ageMs: number) =>
      await execute(
        desk.deps.db,
        sql`INSERT INTO idempotency_keys (scope, key, fingerprint, state, created_at)
            VALUES (${scope}, ${key}, ${fingerprint}, 'running', ${new Date(Date.now() - ageMs).toISOString()})`,
      );
    const headers = (key: string) => ({ ...owner.headers, "content-type": "application/json", "idempotency-key": key });
    await claim("young", 5_000);
    expect((await desk.api("POST", "/v1/api-keys", { headers: headers("young"), raw: body })).status).toBe(409);
    await claim("abandoned", 16_000);
    const retry = await desk.api("POST", "/v1/api-keys", { headers: headers("abandoned"), raw: body });
    expect(retry.status).toBe(201);
    const replay = await desk.api("POST", "/v1/api-keys", { headers: headers("abandoned"), raw: body });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.id).toBe(retry.body.id);
  });
});
