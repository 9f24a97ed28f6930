import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";

const desk: TestDesk = await startTestDesk();

async function download(path: string, headers?: Record<string, string>) {
  const res = await fetch(`${desk.url}${path}`, { headers });
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array(await res.arrayBuffer()));
  return { status: res.status, headers: res.headers, text };
}

function records(text: string): Record<string, string>[] {
  expect(text.startsWith("\uFEFF")).toBe(true);
  return parse(text.slice(1), { columns: true });
}

describe("contacts and companies export", () => {
  test("access: 401, 403 without contacts:read, 422 bad filter, 200 for viewers", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const ticketsKey = (await createKey(desk, owner, ["tickets:read"])).headers;
    for (const path of ["/v1/contacts/export.csv", "/v1/companies/export.csv"]) {
      expect((await download(path)).status).toBe(401);
      expect((await download(path, ticketsKey)).status).toBe(403);
      const ok = await download(path, viewer.headers);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const bad = await desk.api("GET", `${path}?sort=bogus`, { headers: owner.headers });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].location).toBe("query.sort");
    }
  });

  test("contacts: every address, labels, quoting and formulas; filters and tenancy honoured", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/contacts", { headers: other.owner.headers, body: { name: "Elsewhere" } });
    const company = await desk.api("POST", "/v1/companies", {
      headers: owner.headers,
      body: { name: "Ünïcode, Ltd.", domain: "unicode.test" },
    });
    const jo = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: {
        name: '@Jo "the" Jansen',
        emails: ["jo@unicode.test", "jo@home.test"],
        company_id: company.body.id,
        notes: "=cmd|' /C calc'!A0\nsecond line",
        tags: ["vip"],
        locale: "de-ch",
      },
    });
    expect(jo.status).toBe(201);
    await desk.api("POST", "/v1/contacts", { headers: owner.headers, body: { name: "Kim", email: "kim@x.test" } });
    const rows = records((await download("/v1/contacts/export.csv", owner.headers)).text);
    expect(rows.map((r) => r.name)).toEqual(["Kim", '\'@Jo "the" Jansen']);
    expect(rows[1]).toMatchObject({
      id: jo.body.id,
      email: "jo@unicode.test",
      other_emails: "jo@home.test",
      company: "Ünïcode, Ltd.",
      tags: "vip",
      notes: "'=cmd|' /C calc'!A0\nsecond line",
      blocked: "false",
      locale: "de-CH",
      ticket_count: "0",
    });
    const vip = records((await download("/v1/contacts/export.csv?tag=vip", owner.headers)).text);
    expect(vip.map((r) => r.id)).toEqual([jo.body.id]);
    const ofCompany = records(
      (await download(`/v1/contacts/export.csv?company_id=${company.body.id}`, owner.headers)).text,
    );
    expect(ofCompany.map((r) => r.id)).toEqual([jo.body.id]);
    const companies = records((await download("/v1/companies/export.csv", owner.headers)).text);
    expect(companies).toEqual([
      expect.objectContaining({
        id: company.body.id,
        name: "Ünïcode, Ltd.",
        domain: "unicode.test",
        contact_count: "1",
      }),
    ]);
  });
});
