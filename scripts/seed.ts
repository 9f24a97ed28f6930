/**
 * Seeds one workspace with a large, realistic data set for benchmarks:
 *   DESK_DATA_DIR=/tmp/desk-bench bun scripts/seed.ts [--tickets 1000000] [--contacts 200000] [--messages-per-ticket 5]
 * Raw prepared inserts in big transactions; the FTS triggers fill the search indexes as rows go in.
 * Prints the workspace id and an API key (all scopes) for bench/tickets.ts.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { createApiKey } from "../src/api-keys/api-keys.service";
import { users } from "../src/identity/identity.table";
import { SCOPES, type RequestContext } from "../src/auth/context";
import { loadConfig } from "../src/config/config";
import { createField } from "../src/custom-fields/fields.service";
import { buildDeps } from "../src/compose";
import { members } from "../src/members/members.table";
import { createWorkspace } from "../src/workspaces/workspaces.service";
import { newId } from "../src/lib/ids";
import { commitPending } from "../src/db/tx";

const { values: args } = parseArgs({
  options: {
    tickets: { type: "string", default: "1000000" },
    contacts: { type: "string", default: "200000" },
    "messages-per-ticket": { type: "string", default: "5" },
    agents: { type: "string", default: "20" },
  },
});
const TICKETS = Number(args.tickets);
const CONTACTS = Number(args.contacts);
const PER_TICKET = Number(args["messages-per-ticket"]);
const AGENTS = Number(args.agents);
const BATCH = 20_000;

const config = loadConfig({ ...process.env, DESK_LOG_LEVEL: "warn" });
const deps = await buildDeps(config);
const sqlite = deps.db.$client;
sqlite.exec("PRAGMA synchronous = OFF");
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

// ---- deterministic pseudo-random text with a Zipf-like word distribution ----
let seed = 42;
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
};
const SYLLABLES = "ka lo mi ne ru sa te vi zo ba de fi gu ho ja ke li mo nu pa qui ro su ta ve wa xi yo ze".split(" ");
const COMMON =
  "the to and a of i is it you that in my for on this with not can be have we are but was please order account help thanks".split(
    " ",
  );
const VOCABULARY: string[] = [...COMMON];
while (VOCABULARY.length < 30_000) {
  const n = 2 + Math.floor(random() * 3);
  let w = "";
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  VOCABULARY.push(w);
}
const LOG_V = Math.log(VOCABULARY.length);
const word = () => VOCABULARY[Math.floor(Math.exp(random() * LOG_V)) - 1]!;
const words = (min: number, max: number) => {
  const n = min + Math.floor(random() * (max - min + 1));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(word());
  return out.join(" ");
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const weighted = <T>(pairs: Array<[T, number]>): T => {
  let r = random();
  for (const [value, weight] of pairs) {
    r -= weight;
    if (r < 0) return value;
  }
  return pairs.at(-1)![0];
};

/** UUID v7 for a given time, so ids sort with created_at like real ones. */
function uuidAt(ms: number): string {
  const hex = ms.toString(16).padStart(12, "0") + randomBytes(10).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// ---- workspace, people, fields ----
const now = Date.now();
const ownerId = newId();
const iso = new Date(now).toISOString();
await deps.db.insert(users).values({
  id: ownerId,
  email: `owner-${ownerId.slice(-8)}@bench.test`,
  name: "Bench Owner",
  createdAt: iso,
  updatedAt: iso,
});
const workspace = await createWorkspace({ userId: ownerId }, { name: `Bench ${ownerId.slice(-6)}` }, deps);
const ws = workspace.id;
const ownerCtx: RequestContext = {
  workspaceId: ws,
  actor: { type: "user", userId: ownerId, sessionId: null },
  role: "owner",
  scopes: null,
  visibleTeams: "all",
  requestId: "seed",
  ip: null,
};
const agentIds: string[] = [];
for (let i = 0; i < AGENTS; i++) {
  const id = newId();
  await deps.db
    .insert(users)
    .values({ id, email: `agent${i}-${id.slice(-8)}@bench.test`, name: `Agent ${i}`, createdAt: iso, updatedAt: iso });
  await deps.db.insert(members).values({ workspaceId: ws, userId: id, role: "agent", createdAt: iso });
  agentIds.push(id);
}
const seats = await createField(ownerCtx, { entity: "ticket", name: "Seats", key: "seats", type: "number" }, deps);
const orderRef = await createField(
  ownerCtx,
  { entity: "ticket", name: "Order reference", key: "order_ref", type: "text" },
  deps,
);
const { secret } = await createApiKey(ownerCtx, { name: "bench", scopes: [...SCOPES] }, deps);
// The services above left this turn's group commit open: commit it before raw transactions of our own.
commitPending(deps.db);
console.log(`workspace ${ws} ready (${elapsed()})`);

// The FTS triggers cost ~100 µs a row when interleaved with bulk inserts; filling each index once
// with INSERT … SELECT afterwards is ~5× faster. They are put back exactly as the migration made them.
const triggers = sqlite
  .query<{ name: string; sql: string }, []>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_search_%'",
  )
  .all();
for (const trigger of triggers) sqlite.exec(`DROP TRIGGER ${trigger.name}`);

// ---- contacts ----
const insertContact = sqlite.prepare(
  "INSERT INTO contacts (id, workspace_id, email, name, phone, notes, custom, blocked, created_at, updated_at) VALUES (?, ?, ?, ?, '', '', '{}', 0, ?, ?)",
);
const contactIds: string[] = new Array(CONTACTS);
const YEAR = 365 * 24 * 3600_000;
for (let start = 0; start < CONTACTS; start += BATCH) {
  // A raw transaction with a synchronous body (prepared statements only), not transact: transact's
  // savepoint made a batch into tables already holding rows ~15x slower (45 s instead of 3 s for
  // 5,000 tickets after 20,000, measured), and nothing else runs during the seed.
  sqlite.transaction(() => {
    for (let i = start; i < Math.min(CONTACTS, start + BATCH); i++) {
      const at = now - YEAR - 86_400_000 + Math.floor((i / CONTACTS) * YEAR);
      const id = uuidAt(at);
      contactIds[i] = id;
      const first = word();
      const last = word();
      const t = new Date(at).toISOString();
      insertContact.run(id, ws, `${first}.${last}.${i}@example.test`, `${first} ${last}`, t, t);
    }
  })();
}
console.log(`${CONTACTS} contacts (${elapsed()})`);

// ---- tickets, messages, field values ----
const insertTicket =
  sqlite.prepare(`INSERT INTO tickets (id, workspace_id, number, subject, status, priority, severity, channel, contact_id, assignee_id, spam,
  solved_at, first_responded_at, last_message_at, last_customer_message_at, last_message_preview, message_count, custom, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, ?)`);
const insertMessage =
  sqlite.prepare(`INSERT INTO messages (id, workspace_id, ticket_id, kind, direction, author_type, author_user_id, author_contact_id,
  body_html, body_text, subject, "to", cc, bcc, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', '[]', '[]', ?)`);
const insertValue = sqlite.prepare(
  "INSERT INTO field_values (workspace_id, entity, record_id, field_id, value_text, value_num) VALUES (?, 'ticket', ?, ?, ?, ?)",
);
const STATUSES: Array<[string, number]> = [
  ["open", 0.06],
  ["pending", 0.03],
  ["on_hold", 0.01],
  ["solved", 0.4],
  ["closed", 0.5],
];
const PRIORITY: Array<[string, number]> = [
  ["low", 0.2],
  ["normal", 0.55],
  ["high", 0.2],
  ["urgent", 0.05],
];
const SEVERITY: Array<[string | null, number]> = [
  [null, 0.7],
  ["sev1", 0.03],
  ["sev2", 0.07],
  ["sev3", 0.1],
  ["sev4", 0.1],
];
const CHANNEL: Array<[string, number]> = [
  ["email", 0.6],
  ["chat", 0.2],
  ["api", 0.15],
  ["portal", 0.05],
];
let messageTotal = 0;
for (let start = 0; start < TICKETS; start += BATCH) {
  // A raw transaction with a synchronous body, as for the contacts above.
  sqlite.transaction(() => {
    for (let i = start; i < Math.min(TICKETS, start + BATCH); i++) {
      const createdMs = now - YEAR + Math.floor((i / TICKETS) * YEAR);
      const id = uuidAt(createdMs);
      const status = weighted(STATUSES);
      const contactId = contactIds[Math.floor(random() * CONTACTS)]!;
      const assignee = random() < 0.8 ? pick(agentIds) : null;
      const count = Math.max(1, PER_TICKET - 4 + (i % 9));
      let at = createdMs;
      let firstResponse: string | null = null;
      let lastCustomer: string | null = null;
      let preview = "";
      const rows: Array<
        [string, string, string, string, string | null, string | null, string, string, string, string]
      > = [];
      const subject = words(3, 8);
      for (let m = 0; m < count; m++) {
        const inbound = m % 2 === 0;
        const text = words(15, 40);
        const t = new Date(at).toISOString();
        if (inbound) lastCustomer = t;
        else firstResponse ??= t;
        preview = text.slice(0, 200);
        rows.push([
          uuidAt(at),
          inbound ? "inbound" : "outbound",
          inbound ? "contact" : "user",
          inbound ? "contact" : "user",
          inbound ? null : (assignee ?? agentIds[0]!),
          inbound ? contactId : null,
          `<p>${text}</p>`,
          text,
          subject,
          t,
        ]);
        at += 60_000 + Math.floor(random() * 4 * 3600_000);
      }
      const last = rows.at(-1)![9];
      const solved = status === "solved" || status === "closed" ? last : null;
      insertTicket.run(
        id,
        ws,
        i + 1,
        subject,
        status,
        weighted(PRIORITY),
        weighted(SEVERITY),
        weighted(CHANNEL),
        contactId,
        assignee,
        random() < 0.01 ? 1 : 0,
        solved,
        firstResponse,
        last,
        lastCustomer,
        preview,
        count,
        new Date(createdMs).toISOString(),
        last,
      );
      for (const r of rows) insertMessage.run(r[0], ws, id, "reply", r[1], r[2], r[4], r[5], r[6], r[7], r[8], r[9]);
      messageTotal += count;
      if (random() < 0.3) insertValue.run(ws, id, seats.id, null, 1 + Math.floor(random() * 500));
      if (random() < 0.2) insertValue.run(ws, id, orderRef.id, `ORD-${i}-${word()}`, null);
    }
  })();
  if ((start / BATCH) % 5 === 4)
    console.log(`${Math.min(TICKETS, start + BATCH)} tickets, ${messageTotal} messages (${elapsed()})`);
}
sqlite.exec(`UPDATE workspaces SET ticket_number_seq = ${TICKETS} WHERE id = '${ws}'`);
console.log(`${TICKETS} tickets, ${messageTotal} messages (${elapsed()})`);
const wsToken = `'w${ws.replace(/-/g, "")}'`;
sqlite.exec(
  `INSERT INTO ticket_search (rowid, ws, subject) SELECT rowid, ${wsToken}, subject FROM tickets WHERE workspace_id = '${ws}'`,
);
sqlite.exec(
  `INSERT INTO contact_search (rowid, ws, name, email) SELECT rowid, ${wsToken}, name, coalesce(email, '') FROM contacts WHERE workspace_id = '${ws}'`,
);
sqlite.exec(
  `INSERT INTO field_value_search (rowid, ws, value) SELECT rowid, ${wsToken}, value_text FROM field_values WHERE workspace_id = '${ws}' AND value_text IS NOT NULL`,
);
console.log(`search: tickets, contacts, fields indexed (${elapsed()})`);
sqlite.exec(
  `INSERT INTO message_search (rowid, ws, body) SELECT rowid, ${wsToken}, body_text FROM messages WHERE workspace_id = '${ws}'`,
);
console.log(`search: messages indexed (${elapsed()})`);
for (const trigger of triggers) sqlite.exec(trigger.sql);
for (const table of ["ticket_search", "message_search", "contact_search", "field_value_search"])
  sqlite.exec(`INSERT INTO ${table}(${table}) VALUES ('optimize')`);
console.log(`search indexes merged (${elapsed()})`);
sqlite.exec("ANALYZE");
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
console.log(`analyzed (${elapsed()})`);
console.log(JSON.stringify({ workspace_id: ws, api_key: secret, data_dir: config.dataDir }));
await Bun.write(`${config.dataDir}/bench.json`, JSON.stringify({ workspace_id: ws, api_key: secret }));
sqlite.close();
