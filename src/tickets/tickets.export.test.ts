import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";

const desk: TestDesk = await startTestDesk();

/** The body's bytes as sent (the harness decodes text, which drops the BOM). */
async function download(path: string, headers?: Record<string, string>) {
  const res = await fetch(`${desk.url}${path}`, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  return { status: res.status, headers: res.headers, text };
}

/** Records keyed by the header row, after checking the BOM. */
function records(text: string): Record<string, string>[] {
  expect(text.startsWith("\uFEFF")).toBe(true);
  return parse(text.slice(1), { columns: true });
}

const ticket = async (owner: Member, body: Record<string, unknown>) => {
  const res = await desk.api("POST", "/v1/tickets", { headers: owner.headers, body: { kind: "note", ...body } });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: number };
};

describe("GET /v1/tickets/export.csv", () => {
  test("access: 401, 403 without tickets:read, 422 on a bad filter, 200 for viewers", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await download("/v1/tickets/export.csv")).status).toBe(401);
    expect(
      (await download("/v1/tickets/export.csv", (await createKey(desk, owner, ["contacts:read"])).headers)).status,
    ).toBe(403);
    const bad = await desk.api("GET", "/v1/tickets/export.csv?status=bogus", { headers: owner.headers });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("query.status");
    const ok = await download("/v1/tickets/export.csv", viewer.headers);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(ok.headers.get("content-disposition")).toBe('attachment; filename="tickets.csv"');
    expect(records(ok.text)).toEqual([]);
  });

  test("quoted fields, non-ASCII and formulas come back exactly; filters and tenancy honoured", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    await ticket(other.owner, { subject: "Not mine", contact: { email: "x@other.test" } });
    const tricky = await ticket(owner, {
      subject: '=HYPERLINK("http://evil.test","Zoë, \u6771\u4eac")',
      contact: { email: "zoe@x.test", name: 'Zoë "Z" Ångström' },
      tags: ["vip", "-minus"],
      priority: "high",
    });
    const pending = await ticket(owner, {
      subject: "Line one\nline two",
      contact: { email: "@home@x.test".slice(1), name: "+Plus" },
      status: "pending",
    });
    const all = records((await download("/v1/tickets/export.csv", owner.headers)).text);
    expect(all.map((r) => r.number)).toEqual([String(pending.number), String(tricky.number)]);
    const row = all.find((r) => r.id === tricky.id)!;
    expect(row).toMatchObject({
      subject: `'=HYPERLINK("http://evil.test","Zoë, \u6771\u4eac")`,
      contact_name: 'Zoë "Z" Ångström',
      contact_email: "zoe@x.test",
      priority: "high",
      status: "open",
    });
    expect(row.tags!.split("; ").sort()).toEqual(["-minus", "vip"]);
    expect(all.find((r) => r.id === pending.id)).toMatchObject({
      subject: "Line one\nline two",
      contact_name: "'+Plus",
    });
    const open = records((await download("/v1/tickets/export.csv?status=open", owner.headers)).text);
    expect(open.map((r) => r.id)).toEqual([tricky.id]);
    const byTag = records(
      (await download("/v1/tickets/export.csv?tag=vip&sort=created_at&order=asc", owner.headers)).text,
    );
    expect(byTag.map((r) => r.id)).toEqual([tricky.id]);
  });

  test("a private team's tickets reach only its members' exports", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Billing", member_ids: [insider.id], private: true },
    });
    expect(team.status).toBe(201);
    const secret = await ticket(owner, { subject: "Refund", contact: { email: "r@x.test" }, team_id: team.body.id });
    const open = await ticket(owner, { subject: "Hello", contact: { email: "h@x.test" } });
    const ids = async (m: Member) =>
      records((await download("/v1/tickets/export.csv", m.headers)).text).map((r) => r.id);
    expect(await ids(insider)).toEqual([open.id, secret.id]);
    expect(await ids(outsider)).toEqual([open.id]);
  });

  test("keyset pages: every ticket once, in the list's order, past one page", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const numbers: number[] = [];
    for (let i = 0; i < 520; i++)
      numbers.push((await ticket(owner, { subject: `T${i}`, contact: { email: "bulk@x.test" } })).number);
    const rows = records((await download("/v1/tickets/export.csv?sort=created_at&order=asc", owner.headers)).text);
    expect(rows.map((r) => Number(r.number))).toEqual(numbers);
  }, 60_000);
});
