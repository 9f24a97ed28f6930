import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { eventsSince } from "../../test/kit/ai";
import { lastSeq } from "../../test/kit/events";
import { parseCsv } from "./imports.csv";

const desk = await startTestDesk();
const { owner } = await createWorkspaceWithOwner(desk);

function csvForm(kind: string, text: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set("source", "csv");
  form.set("kind", kind);
  form.set("file", new Blob([text], { type: "text/csv" }), "file.csv");
  for (const [key, value] of Object.entries(extra)) form.set(key, value);
  return form;
}

async function upload(member: Member, kind: string, text: string, extra: Record<string, string> = {}) {
  const form = csvForm(kind, text, extra);
  const res = await desk.api("POST", "/v1/imports", { headers: member.headers, raw: form });
  if (res.status !== 202) return res;
  for (let i = 0; i < 50; i++) {
    await desk.jobs.drain();
    const job = await desk.api("GET", `/v1/imports/${res.body.id}`, { headers: member.headers });
    if (!["queued", "running"].includes(job.body.status)) return job;
  }
  throw new Error("csv import did not end");
}

const contacts = async (member: Member) =>
  (await desk.api("GET", "/v1/contacts?limit=100", { headers: member.headers })).body.data as Array<{
    email: string;
    name: string;
    company: { name: string } | null;
    locale: string | null;
  }>;

describe("CSV parsing", () => {
  test("a BOM, quoted commas, doubled quotes, newlines in quotes, CRLF and a last row without a newline", () => {
    const parsed = parseCsv(
      '\uFEFFemail,name\r\na@x.test,"Doe, ""JD"" John"\r\nb@x.test,"two\nlines"\nc@x.test,Ünïcødé',
      10,
    );
    expect(parsed).toEqual({
      rows: [
        ["email", "name"],
        ["a@x.test", 'Doe, "JD" John'],
        ["b@x.test", "two\nlines"],
        ["c@x.test", "Ünïcødé"],
      ],
      lines: [1, 2, 3, 5],
    });
    expect(parseCsv('a,b\n"open', 10)).toEqual({ error: "a quoted field is never closed", line: 2 });
  });
});

describe("CSV imports", () => {
  test("contacts with companies: created, and a second upload updates them instead of adding more", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const first = await upload(
      own,
      "contacts",
      '\uFEFFemail,name,phone,company\r\nAna@Example.test,"Ana, from ""Sales""",+1 555,Initech\r\nbo@example.test,"Bo\nSecond line",,Initech\r\n',
    );
    expect(first.body).toMatchObject({ status: "succeeded", counts: { contacts: 2, companies: 1, failed: 0 } });
    const list = await contacts(own);
    expect(list.map((c) => [c.email, c.name, c.company?.name]).sort()).toEqual([
      ["ana@example.test", 'Ana, from "Sales"', "Initech"],
      ["bo@example.test", "Bo\nSecond line", "Initech"],
    ]);
    const again = await upload(own, "contacts", "email,name\nana@example.test,Ana Updated\n");
    expect(again.body).toMatchObject({ status: "succeeded", counts: { contacts: 1 } });
    const after = await contacts(own);
    expect(after).toHaveLength(2);
    expect(after.find((c) => c.email === "ana@example.test")!.name).toBe("Ana Updated");
  });

  test("a locale column sets each contact's locale (canonical); a malformed tag is that row's error", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const res = await upload(own, "contacts", "email,locale\nlea@example.test,de-at\nzoe@example.test,not_a_tag\n");
    expect(res.body).toMatchObject({ status: "succeeded", counts: { contacts: 1, failed: 1 } });
    const list = await contacts(own);
    expect(list.map((c) => [c.email, c.locale])).toEqual([["lea@example.test", "de-AT"]]);
  });

  test("duplicate emails and invalid rows: valid rows imported, an error per bad row, repeats skipped", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const res = await upload(
      own,
      "contacts",
      "email,name\ngood@example.test,Good\nnot-an-email,Bad\ndup@example.test,One\nDUP@example.test,Two\n,Nobody\nshort\n",
    );
    expect(res.body).toMatchObject({ status: "succeeded", counts: { contacts: 2, failed: 3, skipped: 1 } });
    expect(res.body.errors).toEqual([
      { record: "row 3", message: 'email: "not-an-email" is not an email address.' },
      { record: "row 5", message: "email: Repeats row 4; skipped." },
      { record: "row 6", message: "email: Has neither email nor external_id." },
      { record: "row 7", message: "Has 1 fields; the header has 2." },
    ]);
    expect((await contacts(own)).map((c) => [c.email, c.name]).sort()).toEqual([
      ["dup@example.test", "One"],
      ["good@example.test", "Good"],
    ]);
  });

  test("a row refused while writing (a taken external_id) is reported alone, its company not half-written", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const taken = await desk.api("POST", "/v1/contacts", {
      headers: own.headers,
      body: { email: "holder@example.test", external_id: "E1" },
    });
    expect(taken.status).toBe(201);
    const res = await upload(
      own,
      "contacts",
      "email,external_id,company\nfirst@example.test,,\nsecond@example.test,E1,Brand New Co\n",
    );
    expect(res.body).toMatchObject({ status: "succeeded", counts: { contacts: 1, companies: 0, failed: 1 } });
    expect(res.body.errors).toEqual([{ record: "row 3", message: "A contact with this external_id already exists." }]);
    expect((await contacts(own)).map((c) => c.email).sort()).toEqual(["first@example.test", "holder@example.test"]);
    const companies = await desk.api("GET", "/v1/companies?limit=100", { headers: own.headers });
    expect(companies.body.data).toEqual([]);
  });

  test("companies; unknown columns are refused", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const ok = await upload(own, "companies", 'name,domain,notes\nGlobex,globex.test,"Key, account"\nHooli,,\n');
    expect(ok.body).toMatchObject({ status: "succeeded", counts: { companies: 2 } });
    const bad = await upload(own, "companies", "name,colour\nX,red\n");
    expect(bad.body.status).toBe("failed");
    expect(bad.body.errors[0].message).toContain("Unknown columns: colour");
  });

  test("422 for a missing file or kind", async () => {
    const form = new FormData();
    form.set("source", "csv");
    form.set("kind", "tickets");
    const res = await desk.api("POST", "/v1/imports", { headers: owner.headers, raw: form });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("body.kind");
    const noFile = new FormData();
    noFile.set("source", "csv");
    noFile.set("kind", "contacts");
    const missing = await desk.api("POST", "/v1/imports", { headers: owner.headers, raw: noFile });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].location).toBe("body.file");
  });

  const MAPPED =
    "\uFEFFE-mail,Full name,Organisation,Tel,Ignored\r\n" +
    'ana@example.test,"Ana, ""the boss""",Initech,+1 555,x\r\n' +
    'bo@example.test,"Bo\r\nSecond line",Initech,,y\r\n' +
    "not-an-email,Bad,,,z\r\n" +
    "ANA@example.test,Ana again,,,w\r\n" +
    "holder@example.test,Holder renamed,,,v\r\n";
  const MAPPING = JSON.stringify({ email: "E-mail", name: "Full name", company: "Organisation", phone: "Tel" });

  test("a dry run with a mapping answers each row's fate and writes nothing (no records, no events)", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/contacts", { headers: own.headers, body: { email: "holder@example.test" } });
    const seq = await lastSeq(desk, own.workspaceId);
    const res = await desk.api("POST", "/v1/imports", {
      headers: own.headers,
      raw: csvForm("contacts", MAPPED, { mapping: MAPPING, dry_run: "true" }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      headers: ["E-mail", "Full name", "Organisation", "Tel", "Ignored"],
      suggested_mapping: { email: "E-mail", name: "Full name", company: "Organisation", phone: "Tel" },
      row_count: 5,
      totals: { create: 2, update: 1, skip: 1, error: 1 },
      problems: [],
    });
    expect(res.body.sample_rows[1]).toEqual(["bo@example.test", "Bo\r\nSecond line", "Initech", "", "y"]);
    expect(res.body.rows).toEqual([
      { row: 2, action: "create", column: null, message: null },
      { row: 3, action: "create", column: null, message: null },
      { row: 5, action: "error", column: "E-mail", message: '"not-an-email" is not an email address.' },
      { row: 6, action: "skip", column: "E-mail", message: "Repeats row 2; skipped." },
      { row: 7, action: "update", column: null, message: null },
    ]);
    expect(await lastSeq(desk, own.workspaceId)).toBe(seq);
    expect((await contacts(own)).map((c) => c.email)).toEqual(["holder@example.test"]);
    const list = await desk.api("GET", "/v1/imports", { headers: own.headers });
    expect(list.body.data).toEqual([]);
  });

  test("a dry run without a mapping offers one from headers that differ from Desk's names", async () => {
    const res = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      raw: csvForm("contacts", MAPPED, { dry_run: "true" }),
    });
    expect(res.status).toBe(200);
    expect(res.body.problems[0].message).toContain("Unknown columns: E-mail, Full name, Organisation, Tel, Ignored");
    expect(res.body.suggested_mapping).toEqual({
      email: "E-mail",
      name: "Full name",
      company: "Organisation",
      phone: "Tel",
    });
    expect(res.body.rows).toEqual([]);
  });

  test("the real run with a mapping: BOM, quoted commas and newlines, CRLF, a repeat skipped, a bad row reported", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/contacts", { headers: own.headers, body: { email: "holder@example.test" } });
    const res = await upload(own, "contacts", MAPPED, { mapping: MAPPING });
    expect(res.body).toMatchObject({
      status: "succeeded",
      counts: { contacts: 3, companies: 1, failed: 1, skipped: 1 },
    });
    expect(res.body.errors).toEqual([
      { record: "row 5", message: 'E-mail: "not-an-email" is not an email address.' },
      { record: "row 6", message: "E-mail: Repeats row 2; skipped." },
    ]);
    expect((await contacts(own)).map((c) => [c.email, c.name, c.company?.name ?? null]).sort()).toEqual([
      ["ana@example.test", 'Ana, "the boss"', "Initech"],
      ["bo@example.test", "Bo\r\nSecond line", "Initech"],
      ["holder@example.test", "Holder renamed", null],
    ]);
  });

  test("a mapping naming a header the file lacks, or not JSON: 422 at body.mapping, nothing started", async () => {
    const missing = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      raw: csvForm("contacts", "Mail\na@example.test\n", { mapping: JSON.stringify({ email: "E-mail" }) }),
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toEqual({ location: "body.mapping", message: "E-mail: No column has this header." });
    const bad = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      raw: csvForm("contacts", "Mail\na@example.test\n", { mapping: "[1" }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.mapping");
    const dry = await desk.api("POST", "/v1/imports", {
      headers: owner.headers,
      raw: csvForm("contacts", "Mail\n", { dry_run: "maybe" }),
    });
    expect(dry.status).toBe(422);
    expect(dry.body.errors[0].location).toBe("body.dry_run");
  });

  test("companies update the one with the same domain or name; another workspace's import answers 404", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/companies", { headers: own.headers, body: { name: "Globex", domain: "globex.test" } });
    const csv = "Company,Web\nGlobex Corp,globex.test\nhooli,\nHooli,\n";
    const mapping = JSON.stringify({ name: "Company", domain: "Web" });
    const dry = await desk.api("POST", "/v1/imports", {
      headers: own.headers,
      raw: csvForm("companies", csv, { mapping, dry_run: "true" }),
    });
    expect(dry.body.totals).toEqual({ create: 1, update: 1, skip: 1, error: 0 });
    const res = await upload(own, "companies", csv, { mapping });
    expect(res.body).toMatchObject({ status: "succeeded", counts: { companies: 2, skipped: 1 } });
    const list = await desk.api("GET", "/v1/companies?limit=100", { headers: own.headers });
    expect(list.body.data.map((c: { name: string }) => c.name).sort()).toEqual(["Globex Corp", "hooli"]);
    const other = await desk.api("GET", `/v1/imports/${res.body.id}`, { headers: owner.headers });
    expect(other.status).toBe(404);
  });

  test("a large file reports its progress every 500 rows while it runs", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const lines = Array.from({ length: 1200 }, (_, i) => `p${i}@example.test,Person ${i}`);
    const seq = await lastSeq(desk, own.workspaceId);
    const res = await upload(own, "contacts", `Email,Name\n${lines.join("\n")}\n`);
    expect(res.body).toMatchObject({ status: "succeeded", counts: { contacts: 1200, failed: 0 } });
    const progress = (await eventsSince(desk, own.workspaceId, seq))
      .filter((e) => e.type === "import.updated")
      .map((e) => (e.data as { import: { progress: { phase: string; done: number; total: number } } }).import.progress);
    expect(progress.filter((p) => p.done < p.total)).toEqual([
      { phase: "people", done: 500, total: 1200 },
      { phase: "people", done: 1000, total: 1200 },
    ]);
  }, 30_000);

  test("custom fields mapped as custom.<key>; a refused value is reported at its column", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const field = await desk.api("POST", "/v1/custom-fields", {
      headers: own.headers,
      body: { entity: "contact", key: "seats", name: "Seats", type: "number" },
    });
    expect(field.status).toBe(201);
    const res = await upload(own, "contacts", "Mail,Licences\na@example.test,12\nb@example.test,lots\n", {
      mapping: JSON.stringify({ email: "Mail", "custom.seats": "Licences" }),
    });
    expect(res.body).toMatchObject({ status: "succeeded", counts: { contacts: 1, failed: 1 } });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].record).toBe("row 3");
    expect(res.body.errors[0].message).toStartWith("Licences: ");
    const list = await desk.api("GET", "/v1/contacts?limit=100", { headers: own.headers });
    expect(list.body.data.map((c: { email: string; fields: Record<string, unknown> }) => [c.email, c.fields])).toEqual([
      ["a@example.test", { seats: 12 }],
    ]);
  });
});
