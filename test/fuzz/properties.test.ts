import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";
import { storedState } from "./fingerprint";

/**
 * Properties of the list filters and their SQL, keyset cursors, custom-field values, label names
 * and idempotency keys, checked by fast-check against a model kept in the test. `FUZZ_SEED`
 * replays a run; a failure prints the smallest case fast-check found.
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
const { owner } = await createWorkspaceWithOwner(desk);
const headers = owner.headers;

const STATUSES = ["open", "pending", "on_hold", "solved", "closed"] as const;
const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
const TAGS = ["billing", "bug", "vip"] as const;
type Model = { id: string; status: string; priority: string; tags: string[] };

for (const name of TAGS) {
  const created = await desk.api("POST", "/v1/tags", { headers, body: { name } });
  expect(created.status).toBe(201);
}

// 60 tickets with random status, priority and labels: the model every list is checked against.
const model: Model[] = [];
const seedTickets = fc.sample(
  fc.record({
    status: fc.constantFrom(...STATUSES),
    priority: fc.constantFrom(...PRIORITIES),
    tags: fc.subarray([...TAGS]),
  }),
  { numRuns: 60, seed: SEED ?? 42 },
);
for (const [i, t] of seedTickets.entries()) {
  const res = await desk.api("POST", "/v1/tickets", {
    headers,
    body: { subject: `Property ticket ${i}`, priority: t.priority, tags: t.tags },
  });
  expect(res.status).toBe(201);
  if (t.status !== "open") {
    const moved = await desk.api("PATCH", `/v1/tickets/${res.body.id}`, { headers, body: { status: t.status } });
    expect(moved.status).toBe(200);
  }
  model.push({ id: res.body.id, ...t });
}

/** Every page of a list, following next_cursor. */
async function walk(path: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const res = await desk.api("GET", `${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers,
    });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((t: { id: string }) => t.id));
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor && pages < 200);
  return { ids, pages };
}

describe("ticket list filters and keyset cursors", () => {
  test("any combination of status, priority and label returns exactly the model's tickets, each once, over any page size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...STATUSES], { minLength: 1 }),
        fc.option(fc.subarray([...PRIORITIES], { minLength: 1 }), { nil: undefined }),
        fc.option(fc.constantFrom(...TAGS), { nil: undefined }),
        fc.integer({ min: 1, max: 25 }),
        fc.constantFrom("created_at", "last_message_at", "priority"),
        fc.constantFrom("asc", "desc"),
        async (statuses, priorities, tag, limit, sort, order) => {
          const query = new URLSearchParams({ status: statuses.join(","), limit: String(limit), sort, order });
          if (priorities) query.set("priority", priorities.join(","));
          if (tag) query.set("tag", tag);
          const { ids } = await walk(`/v1/tickets?${query}`);
          const expected = model
            .filter((t) => statuses.includes(t.status as (typeof STATUSES)[number]))
            .filter((t) => !priorities || priorities.includes(t.priority as (typeof PRIORITIES)[number]))
            .filter((t) => !tag || t.tags.includes(tag))
            .map((t) => t.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect([...ids].sort()).toEqual([...expected].sort());
        },
      ),
      { numRuns: 40, seed: SEED },
    );
  }, 120_000);

  test("a cursor is tied to its sort: reused under another sort, or tampered with, it is refused with 422", async () => {
    const first = await desk.api(
      "GET",
      "/v1/tickets?status=open,pending,on_hold,solved,closed&limit=2&sort=created_at",
      {
        headers,
      },
    );
    const cursor = first.body.next_cursor as string;
    expect(cursor).toBeTruthy();
    const other = await desk.api("GET", `/v1/tickets?limit=2&sort=priority&cursor=${encodeURIComponent(cursor)}`, {
      headers,
    });
    expect(other.status).toBe(422);
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 300 }), async (garbage) => {
        const res = await desk.api("GET", `/v1/tickets?cursor=${encodeURIComponent(garbage)}`, { headers });
        expect([200, 422]).toContain(res.status);
        if (res.status === 422) expect(res.body.errors[0].location).toBe("query.cursor");
      }),
      { numRuns: 100, seed: SEED },
    );
  });
});

describe("custom-field values", () => {
  const fieldKey = async (type: string, extra: Record<string, unknown> = {}) => {
    const res = await desk.api("POST", "/v1/custom-fields", {
      headers,
      body: { entity: "ticket", name: `Field ${type} ${crypto.randomUUID().slice(0, 8)}`, type, ...extra },
    });
    expect(res.status).toBe(201);
    return res.body.key as string;
  };

  test('a number field keeps any number it receives, clears on null or "", and refuses everything else, storing nothing', async () => {
    const key = await fieldKey("number");
    const target = model[0]!.id;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.double(), fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
        async (generated) => {
          // What arrives is the JSON of it: NaN and ±Infinity travel as null (and so clear the field).
          const value: unknown = JSON.parse(JSON.stringify({ v: generated })).v;
          const before = await storedState(desk.deps.db);
          const res = await desk.api("PATCH", `/v1/tickets/${target}`, { headers, body: { fields: { [key]: value } } });
          if (typeof value === "number") {
            expect(res.status).toBe(200);
            expect(res.body.fields[key]).toBe(value);
          } else if (value === null || value === "") {
            // SPEC.md: null or an empty string clears the key.
            expect(res.status).toBe(200);
            expect(res.body.fields[key] ?? null).toBeNull();
          } else {
            expect(res.status).toBe(422);
            expect(res.body.errors[0].location).toBe(`body.fields.${key}`);
            expect(await storedState(desk.deps.db)).toBe(before);
          }
        },
      ),
      { numRuns: 120, seed: SEED },
    );
  }, 60_000);

  test("a text field keeps any string it accepts exactly as read back", async () => {
    const key = await fieldKey("text");
    const target = model[1]!.id;
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300, unit: "grapheme" }), async (value) => {
        const res = await desk.api("PATCH", `/v1/tickets/${target}`, { headers, body: { fields: { [key]: value } } });
        if (res.status === 200) {
          const read = await desk.api("GET", `/v1/tickets/${target}`, { headers });
          expect(read.body.fields[key]).toEqual(res.body.fields[key]);
        } else expect(res.status).toBe(422);
      }),
      { numRuns: 100, seed: SEED },
    );
  }, 60_000);
});

describe("label names", () => {
  test("a name is accepted once ignoring case, reads back as stored, and is found again by any casing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 60, unit: "grapheme" }), async (raw) => {
        const name = `${raw}-${crypto.randomUUID().slice(0, 6)}`;
        const before = await storedState(desk.deps.db);
        const created = await desk.api("POST", "/v1/tags", { headers, body: { name } });
        if (created.status !== 201) {
          expect(created.status).toBe(422);
          expect(await storedState(desk.deps.db)).toBe(before);
          return;
        }
        const stored = created.body.name as string;
        const again = await desk.api("POST", "/v1/tags", { headers, body: { name: stored.toUpperCase() } });
        if (stored.toUpperCase().toLowerCase() === stored.toLowerCase()) expect(again.status).toBe(409);
        const listed = await desk.api("GET", "/v1/tags", { headers });
        expect(JSON.stringify(listed.body)).toContain(JSON.stringify(stored));
      }),
      { numRuns: 80, seed: SEED },
    );
  }, 60_000);
});

describe("idempotency keys", () => {
  test("a valid key replays the first answer exactly; another body under it is refused; an invalid key is a 422", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (tail, subject) => {
          // A fresh prefix per case: keys live 24 hours, and one case must not meet another's.
          const key = `${crypto.randomUUID().slice(0, 8)}${tail}`;
          const valid = /^[\x20-\x7e]{1,255}$/.test(key);
          const send = (body: unknown) =>
            desk.api("POST", "/v1/tickets", { headers: { ...headers, "idempotency-key": key }, body });
          let first: Awaited<ReturnType<typeof send>>;
          try {
            first = await send({ subject: `Idem ${subject}` });
          } catch {
            // A value the Fetch API itself refuses as a header never reaches Desk.
            expect(valid).toBe(false);
            return;
          }
          if (!valid) {
            expect(first.status).toBe(422);
            return;
          }
          expect(first.status).toBe(201);
          const replay = await send({ subject: `Idem ${subject}` });
          expect(replay.status).toBe(201);
          expect(replay.headers.get("idempotent-replayed")).toBe("true");
          expect(replay.body).toEqual(first.body);
          const reused = await send({ subject: `Other ${subject}` });
          expect(reused.status).toBe(422);
          expect(reused.body.code).toBe("idempotency_key_reused");
        },
      ),
      { numRuns: 60, seed: SEED },
    );
  }, 60_000);
});
