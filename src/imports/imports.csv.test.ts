import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { parseCsv } from "./imports.csv";

const desk = await startTestDesk();
const { owner } = await createWorkspaceWithOwner(desk);

async function upload(member: Member, kind: string, text: string) {
  const form = new FormData();
  form.set("source", "csv");
  form.set("kind", kind);
  form.set("file", new Blob([text], { type: "text/csv" }), "file.csv");
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

  test("duplicate emails and invalid rows: an error per row and nothing written", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const res = await upload(
      own,
      "contacts",
      "email,name\ngood@example.test,Good\nnot-an-email,Bad\ndup@example.test,One\nDUP@example.test,Two\n,Nobody\nshort\n",
    );
    expect(res.body.status).toBe("failed");
    expect(res.body.errors).toEqual([
      { record: "row 3", message: '"not-an-email" is not an email address.' },
      { record: "row 5", message: "Repeats row 4 (dup@example.test)." },
      { record: "row 6", message: "Has neither email nor external_id." },
      { record: "row 7", message: "Has 1 fields; the header has 2." },
    ]);
    expect(await contacts(own)).toEqual([]);
  });

  test("a row refused while writing (a taken external_id) rolls back the rows before it", async () => {
    const { owner: own } = await createWorkspaceWithOwner(desk);
    const taken = await desk.api("POST", "/v1/contacts", {
      headers: own.headers,
      body: { email: "holder@example.test", external_id: "E1" },
    });
    expect(taken.status).toBe(201);
    const res = await upload(own, "contacts", "email,external_id\nfirst@example.test,\nsecond@example.test,E1\n");
    expect(res.body.status).toBe("failed");
    expect(res.body.errors).toEqual([{ record: "row 3", message: "A contact with this external_id already exists." }]);
    expect((await contacts(own)).map((c) => c.email)).toEqual(["holder@example.test"]);
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
});
