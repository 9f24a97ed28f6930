import { afterAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { execute } from "../db/store";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { customerReply, customerTicket, usageRows } from "../../test/kit/ai";
import { appendEvent } from "../events/append";
import { anyEvent } from "../../test/kit/events";
import { transact } from "../db/tx";
import { modules } from "../registry";
import { deleteTicket, updateTicket } from "../tickets/tickets.public";
import { semanticSearchModuleWith } from "./semantic-search.module";
import { EMBED_BATCH } from "./semantic.jobs";
import { EXACT_SCAN, evictIdleIndexes, IDLE_EVICT_MS, nearest, packVector } from "./semantic.index";
import { fuse } from "./semantic.service";
import { forgetDocument, storeVector } from "./semantic.store";
import { semanticDirty, semanticVectors } from "./semantic.table";

/**
 * Embeddings by topic, so meaning and words can differ: a refund question and "get my money back"
 * share no word but the same direction.
 */
const TOPICS: Array<[RegExp, number]> = [
  [/refund|money back|charged|reimburse/i, 0],
  [/password|log ?in|sign ?in/i, 1],
  [/deliver|parcel|arriv|shipping/i, 2],
];
function topicVector(text: string): number[] {
  const v = [0, 0, 0, 0.05];
  for (const [pattern, axis] of TOPICS) if (pattern.test(text)) v[axis]! += 1;
  return v;
}

const fake = await startFakeAi();
fake.embedding = topicVector;
afterAll(() => fake.stop());
const env = fakeAiEnv(fake, { DESK_AI_MAX_RETRIES: "0" });
const { DESK_AI_EMBEDDING_MODEL: _model, ...envWithoutEmbeddings } = env;
const desk = await startTestDesk({ env });

const vectorsOf = async (d: TestDesk, workspaceId: string) =>
  await d.deps.db.select().from(semanticVectors).where(eq(semanticVectors.workspaceId, workspaceId));
const dirtyOf = async (d: TestDesk, workspaceId: string) =>
  await d.deps.db.select().from(semanticDirty).where(eq(semanticDirty.workspaceId, workspaceId));

/** Consumers, then the embedding jobs (their debounce and a retried job's backoff moved to now). */
async function settle(d: TestDesk) {
  await d.consumers.drain();
  // Twice: the backfill's run enqueues the (debounced) embedding job.
  for (let round = 0; round < 2; round++) {
    await execute(
      d.deps.db,
      sql`UPDATE jobs SET run_at = '2000-01-01T00:00:00.000Z' WHERE kind LIKE 'semantic.%' AND state = 'queued'`,
    );
    await d.jobs.drain();
  }
}

const search = (d: TestDesk, member: { headers: Record<string, string> }, q: string) =>
  d.api("GET", `/v1/ai/search?q=${encodeURIComponent(q)}`, { headers: member.headers });

async function refundWorkspace() {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const refund = await customerTicket(desk, owner, {
    subject: "Charged twice",
    body: "I was charged two times for order 77, please reimburse the second one.",
  });
  const password = await customerTicket(desk, owner, {
    subject: "Cannot log in",
    body: "My password stopped working.",
  });
  const parcel = await customerTicket(desk, owner, { subject: "Where is my parcel", body: "It has not arrived yet." });
  await settle(desk);
  return { workspace, owner, refund, password, parcel };
}

describe("GET /v1/ai/search: access", () => {
  test("401 without a credential, 403 for a key without tickets:read, 422 on a query too long", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/ai/search?q=x")).status).toBe(401);
    const key = await createKey(desk, owner, ["contacts:read"]);
    const forbidden = await search(desk, key, "refund");
    expect([forbidden.status, forbidden.body.code]).toEqual([403, "forbidden"]);
    const long = await search(desk, owner, "x".repeat(501));
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain("query.q");
  });

  test("404 ai_disabled when the instance has no provider", async () => {
    const off = await startTestDesk();
    const { owner } = await createWorkspaceWithOwner(off);
    const res = await search(off, owner, "refund");
    expect([res.status, res.body.code]).toEqual([404, "ai_disabled"]);
    await off.stop();
  });
});

describe("embedding tickets", () => {
  test("new tickets are embedded by a job from subject and customer text, free but recorded", async () => {
    const { workspace, refund, password, parcel } = await refundWorkspace();
    const rows = await vectorsOf(desk, workspace.id);
    expect(rows.map((r) => r.docId).sort()).toEqual([refund.id, password.id, parcel.id].sort());
    expect(rows.every((r) => r.model === "text-embedding-3-small" && r.vector?.byteLength === 16)).toBe(true);
    expect(await dirtyOf(desk, workspace.id)).toHaveLength(0);
    const embedded = fake.requests
      .filter((r) => r.path.endsWith("/embeddings"))
      .flatMap((r) => r.body.input as string[]);
    expect(embedded).toContain(
      "Charged twice\n\nI was charged two times for order 77, please reimburse the second one.",
    );
    const usage = await usageRows(desk, workspace.id);
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((u) => u.feature === "search_index" && u.usdMicros === 0 && u.ok)).toBe(true);
  });

  test("re-embedded on a customer reply and a new subject, not on an agent's note; a deleted ticket leaves", async () => {
    const { workspace, owner, refund, password } = await refundWorkspace();
    const seqOf = async (id: string) => (await vectorsOf(desk, workspace.id)).find((r) => r.docId === id)!.seq;
    const before = await seqOf(refund.id);
    await customerReply(desk, workspace.id, refund.id, "Still waiting for the money.");
    await settle(desk);
    const afterReply = await seqOf(refund.id);
    expect(afterReply).toBeGreaterThan(before);
    const embedded = fake.requests.filter((r) => r.path.endsWith("/embeddings")).at(-1)!.body.input as string[];
    expect(embedded).toEqual([
      "Charged twice\n\nI was charged two times for order 77, please reimburse the second one.\n\nStill waiting for the money.",
    ]);
    await desk.api("POST", `/v1/tickets/${refund.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_text: "Checking with billing." },
    });
    await settle(desk);
    expect(await seqOf(refund.id)).toBe(afterReply);
    await updateTicket(owner.ctx, refund.id, { subject: "Double charge" }, desk.deps);
    await settle(desk);
    expect(await seqOf(refund.id)).toBeGreaterThan(afterReply);
    await deleteTicket(owner.ctx, password.id, desk.deps);
    await settle(desk);
    expect((await vectorsOf(desk, workspace.id)).find((r) => r.docId === password.id)!.vector).toBeNull();
    const res = await search(desk, owner, "sign in trouble");
    expect(res.body.tickets.map((t: { id: string }) => t.id)).not.toContain(password.id);
  });

  test("the backfill embeds tickets created before; a provider failure mid-way resumes where it stopped", async () => {
    const cold = await startTestDesk({ env: envWithoutEmbeddings });
    const { workspace, owner } = await createWorkspaceWithOwner(cold);
    const total = EMBED_BATCH + 6;
    for (let i = 0; i < total; i++)
      await customerTicket(cold, owner, { subject: `Question ${i}`, body: "refund please" });
    await settle(cold);
    expect(await vectorsOf(cold, workspace.id)).toHaveLength(0);
    await cold.stop();
    // The same data with an embedding model: the first search starts the backfill (on PostgreSQL the
    // data is the cold desk's database, not its data dir).
    const coldDatabase = cold.deps.config.databaseUrl;
    const warm = await startTestDesk({
      env: { ...env, DESK_DATA_DIR: cold.dataDir, ...(coldDatabase ? { DESK_DATABASE_URL: coldDatabase } : {}) },
    });
    let budget = EMBED_BATCH;
    fake.embedding = (text) => {
      if (budget-- <= 0) return null;
      return topicVector(text);
    };
    const first = await search(warm, owner, "money back");
    expect(first.headers.get("desk-search-mode")).toBe("full_text");
    await settle(warm);
    expect(await vectorsOf(warm, workspace.id)).toHaveLength(EMBED_BATCH);
    expect(await dirtyOf(warm, workspace.id)).toHaveLength(6);
    fake.embedding = topicVector;
    await settle(warm);
    expect(await vectorsOf(warm, workspace.id)).toHaveLength(total);
    expect(await dirtyOf(warm, workspace.id)).toHaveLength(0);
    const res = await search(warm, owner, "money back");
    expect(res.headers.get("desk-search-mode")).toBe("hybrid");
    expect(res.body.tickets).toHaveLength(5);
    await warm.stop();
    // 70 tickets made one change each: seconds on PostgreSQL, where each is a round trip of its own.
  }, 30_000);
});

describe("searching", () => {
  test("hybrid: a ticket found by meaning though no word matches, best first, in /v1/search's shape", async () => {
    const { owner, refund } = await refundWorkspace();
    const res = await search(desk, owner, "get my money back");
    expect(res.status).toBe(200);
    expect(res.headers.get("desk-search-mode")).toBe("hybrid");
    expect(Object.keys(res.body).sort()).toEqual(["articles", "contacts", "tickets"]);
    expect(res.body.tickets[0]).toMatchObject({ id: refund.id, subject: "Charged twice" });
    const words = await desk.api("GET", "/v1/search?q=money", { headers: owner.headers });
    expect(words.body.tickets).toHaveLength(0);
  });

  test("full-text hits and semantic hits are fused; a word hit alone still shows", async () => {
    const { owner, parcel, password } = await refundWorkspace();
    const res = await search(desk, owner, "parcel");
    expect(res.body.tickets[0].id).toBe(parcel.id);
    const both = await search(desk, owner, "password");
    expect(both.body.tickets[0].id).toBe(password.id);
  });

  test("another workspace's tickets never appear, even with the same text", async () => {
    const mine = await refundWorkspace();
    const theirs = await refundWorkspace();
    const res = await search(desk, mine.owner, "get my money back");
    const ids = res.body.tickets.map((t: { id: string }) => t.id);
    expect(ids).toContain(mine.refund.id);
    expect(ids).not.toContain(theirs.refund.id);
    expect(res.body.tickets.every((t: { workspace_id?: string }) => !t.workspace_id)).toBe(true);
  });

  test("a private team's tickets only for its members, as in the tickets list", async () => {
    const { workspace, owner, refund } = await refundWorkspace();
    const insider: Member = await addMember(desk, workspace.id, "agent");
    const outsider: Member = await addMember(desk, workspace.id, "agent");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Billing", member_ids: [insider.id], private: true },
    });
    expect(team.status).toBe(201);
    await updateTicket(owner.ctx, refund.id, { team_id: team.body.id }, desk.deps);
    await settle(desk);
    const idsFor = async (m: Member) =>
      (await search(desk, m, "get my money back")).body.tickets.map((t: { id: string }) => t.id);
    expect(await idsFor(insider)).toContain(refund.id);
    expect(await idsFor(outsider)).not.toContain(refund.id);
  });

  test("full text alone when the provider fails on the query, with the same answer as /v1/search", async () => {
    const { owner, parcel } = await refundWorkspace();
    fake.embedding = () => null;
    const res = await search(desk, owner, "parcel").finally(() => {
      fake.embedding = topicVector;
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("desk-search-mode")).toBe("full_text");
    const words = await desk.api("GET", "/v1/search?q=parcel", { headers: owner.headers });
    expect(res.body.tickets.map((t: { id: string }) => t.id)).toEqual([parcel.id]);
    expect(res.body).toEqual(words.body);
  });

  test("full text alone without an embedding model: nothing is embedded", async () => {
    const plain = await startTestDesk({ env: envWithoutEmbeddings });
    const { workspace, owner } = await createWorkspaceWithOwner(plain);
    const refund = await customerTicket(plain, owner, { subject: "Refund", body: "refund please" });
    await settle(plain);
    const res = await search(plain, owner, "refund");
    expect(res.headers.get("desk-search-mode")).toBe("full_text");
    expect(res.body.tickets.map((t: { id: string }) => t.id)).toEqual([refund.id]);
    expect(await vectorsOf(plain, workspace.id)).toHaveLength(0);
    await plain.stop();
  });

  test("reciprocal rank fusion favours what both rankings agree on", () => {
    expect(
      fuse([
        ["a", "b", "c"],
        ["b", "c"],
      ]),
    ).toEqual(["b", "c", "a"]);
    expect(fuse([[], ["x"]])).toEqual(["x"]);
  });
});

describe("articles (the knowledge base's events)", () => {
  test("published articles are embedded and found through the seam; drafts and deleted ones leave", async () => {
    const presented: string[][] = [];
    const kb = await startTestDesk({
      env,
      modules: modules.map((m) =>
        m.name === "semantic-search"
          ? semanticSearchModuleWith((_db, _ctx, ids) => {
              presented.push(ids);
              return ids.map((id) => ({ id }));
            })
          : m,
      ),
    });
    const { workspace, owner } = await createWorkspaceWithOwner(kb);
    await customerTicket(kb, owner, { subject: "Hello", body: "A question about shipping" });
    const article = (id: string, status: string, title: string) => ({
      kb_article: { id, title, body_text: `${title} in detail.`, status },
    });
    const emit = async (type: string, data: Record<string, unknown>) =>
      await transact(
        kb.deps.db,
        async (tx) => await appendEvent(tx, anyEvent(type), { workspaceId: workspace.id, data }),
      );
    await emit("kb_article.created", article("art-refunds", "published", "How refunds work"));
    await emit("kb_article.created", article("art-draft", "draft", "Refund policy draft"));
    await settle(kb);
    const articles = async () => (await vectorsOf(kb, workspace.id)).filter((r) => r.kind === "article" && r.vector);
    expect((await articles()).map((r) => r.docId)).toEqual(["art-refunds"]);
    expect((await articles())[0]!.sourceText).toBe("How refunds work\n\nHow refunds work in detail.");
    const res = await search(kb, owner, "money back");
    expect(res.body.articles).toEqual([{ id: "art-refunds" }]);
    expect(presented.at(-1)).toEqual(["art-refunds"]);
    await emit("kb_article.updated", article("art-refunds", "draft", "How refunds work"));
    await settle(kb);
    expect(await articles()).toHaveLength(0);
    await emit("kb_article.updated", article("art-refunds", "published", "How refunds work"));
    await emit("kb_article.deleted", { kb_article_id: "art-refunds" });
    await settle(kb);
    expect(await articles()).toHaveLength(0);
    expect((await search(kb, owner, "money back")).body.articles).toEqual([]);
    await kb.stop();
  });
});

describe("the vector index past EXACT_SCAN documents (binary prefilter, exact rescoring)", () => {
  test("loads a long backlog in the background, finds what an exact scan finds, catches up with later writes", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const dims = 128;
    let seed = 1;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const topics = Array.from({ length: 50 }, () => Array.from({ length: dims }, next));
    const docs = Array.from({ length: EXACT_SCAN + 5000 }, (_, i) => topics[i % 50]!.map((x) => x + next() * 0.8));
    // In one change, a thousand rows a statement: row by row would take seconds.
    await transact(desk.deps.db, async (tx) => {
      for (let from = 0; from < docs.length; from += 1000) {
        const rows = docs
          .slice(from, from + 1000)
          .map(
            (v, k) =>
              sql`(${workspace.id}, 'ticket', ${`doc-${from + k}`}, 'm', ${packVector(v)}, NULL, ${from + k + 1}, '')`,
          );
        await execute(
          tx,
          sql`INSERT INTO semantic_vectors (workspace_id, kind, doc_id, model, vector, source_text, seq, embedded_at) VALUES ${sql.join(rows, sql`, `)}`,
        );
      }
    });
    const exact = (q: number[]) => {
      const unit = new Float32Array(new Uint8Array(packVector(q)).buffer);
      return docs
        .map((v, i) => {
          const d = new Float32Array(new Uint8Array(packVector(v)).buffer);
          let dot = 0;
          for (let k = 0; k < dims; k++) dot += d[k]! * unit[k]!;
          return { id: `doc-${i}`, dot };
        })
        .sort((a, b) => b.dot - a.dot)
        .slice(0, 10)
        .map((h) => h.id);
    };
    // A backlog longer than a page loads in the background: meanwhile the index answers null (full text).
    expect(
      await nearest(desk.deps.db, workspace.id, "m", topics[0]!, {
        limit: 10,
        minScore: -1,
        kind: "ticket",
        at: Date.now(),
      }),
    ).toBeNull();
    const deadline = performance.now() + 10_000;
    while (
      !(await nearest(desk.deps.db, workspace.id, "m", topics[0]!, {
        limit: 1,
        minScore: -1,
        kind: "ticket",
        at: Date.now(),
      })) &&
      performance.now() < deadline
    )
      await Bun.sleep(10);
    let found = 0;
    for (let t = 0; t < 5; t++) {
      const q = topics[t * 7]!.map((x) => x + next() * 0.8);
      const hits = (await nearest(desk.deps.db, workspace.id, "m", q, {
        limit: 10,
        minScore: -1,
        kind: "ticket",
        at: Date.now(),
      }))!;
      const want = new Set(exact(q));
      found += hits.filter((h) => want.has(h.id)).length;
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    }
    expect(found).toBeGreaterThanOrEqual(48);
    // A later write (a new document exactly on the query) is seen by the next query.
    const q = topics[3]!;
    await transact(
      desk.deps.db,
      async (tx) =>
        await storeVector(tx, {
          workspaceId: workspace.id,
          kind: "ticket",
          docId: "fresh",
          model: "m",
          vector: packVector(q),
          now: "",
        }),
    );
    expect(
      (await nearest(desk.deps.db, workspace.id, "m", q, {
        limit: 1,
        minScore: 0,
        kind: "ticket",
        at: Date.now(),
      }))![0],
    ).toMatchObject({
      id: "fresh",
    });
    await transact(
      desk.deps.db,
      async (tx) => await forgetDocument(tx, { workspaceId: workspace.id, kind: "ticket", docId: "fresh", now: "" }),
    );
    expect(
      (await nearest(desk.deps.db, workspace.id, "m", q, {
        limit: 1,
        minScore: 0,
        kind: "ticket",
        at: Date.now(),
      }))![0]!.id,
    ).not.toBe("fresh");
    // Nobody searching for IDLE_EVICT_MS drops the index from memory; the next query loads it again.
    const lastQuery = Date.now();
    await nearest(desk.deps.db, workspace.id, "m", q, { limit: 1, minScore: 0, kind: "ticket", at: lastQuery });
    const probe = async () =>
      await nearest(desk.deps.db, workspace.id, "m", q, { limit: 1, minScore: 0, kind: "ticket", at: lastQuery });
    evictIdleIndexes(desk.deps.db, lastQuery + IDLE_EVICT_MS - 1000);
    expect(await probe()).not.toBeNull();
    expect(evictIdleIndexes(desk.deps.db, lastQuery + IDLE_EVICT_MS)).toBeGreaterThanOrEqual(1);
    expect(await probe()).toBeNull();
  });
});
