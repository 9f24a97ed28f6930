import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";

const desk = await startTestDesk();
const SHOP = "https://shop.example";
const EVIL = "https://evil.example";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithOwner>>;

async function shopWorkspace(): Promise<Workspace> {
  const w = await createWorkspaceWithOwner(desk);
  const patched = await desk.api("PATCH", "/v1/widget/settings", {
    headers: w.owner.headers,
    body: { allowed_origins: [SHOP] },
  });
  expect(patched.status).toBe(200);
  return w;
}

async function visitor(w: Workspace) {
  const res = await desk.api("POST", "/v1/widget/session", { body: { key: w.workspace.widgetKey } });
  expect(res.status).toBe(200);
  return { authorization: `Visitor ${res.body.visitor_token}` };
}

const acao = (res: { headers: Headers }) => res.headers.get("access-control-allow-origin");

describe("widget CORS on error answers", () => {
  test("no Access-Control-Allow-Origin while the workspace is unknown (bad credential, unknown key)", async () => {
    const w = await shopWorkspace();
    const forged = `Visitor desk_vis_${"A".repeat(43)}`;
    for (const res of [
      await desk.api("GET", "/v1/widget/conversations", { headers: { origin: SHOP } }),
      await desk.api("GET", "/v1/widget/conversations", { headers: { origin: SHOP, authorization: forged } }),
      await desk.api("POST", "/v1/widget/conversations", {
        headers: { origin: SHOP, authorization: forged },
        body: { body: "hi" },
      }),
      await desk.api("GET", "/v1/widget/config?key=nope", { headers: { origin: SHOP } }),
      await desk.api("POST", "/v1/widget/session", { headers: { origin: SHOP }, body: { key: "nope" } }),
      await desk.api("POST", "/v1/widget/session", { headers: { origin: SHOP }, body: { key: 42 } }),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(acao(res)).toBeNull();
    }
    void w;
  });

  test("once the workspace is known, error answers follow allowed_origins exactly as successes do", async () => {
    const w = await shopWorkspace();
    const v = await visitor(w);
    // 422 from validation (before the handler runs), 404 from the handler, 422 from the session route once the
    // key is read, and a success for comparison.
    const call = async (i: number, origin: string) => {
      const [method, path, headers, body] = [
        ["POST", "/v1/widget/conversations", v, {}],
        ["GET", "/v1/widget/conversations/01a2b3c4-d5e6-7f80-9a0b-1c2d3e4f5a6b/messages", v, undefined],
        ["POST", "/v1/widget/session", {}, { key: w.workspace.widgetKey, email: "not-an-email" }],
        ["GET", "/v1/widget/conversations", v, undefined],
      ][i] as [string, string, Record<string, string>, Record<string, unknown> | undefined];
      return desk.api(method, path, { headers: { ...headers, origin }, body });
    };
    for (const [i, status] of [422, 404, 422, 200].entries()) {
      const listed = await call(i, SHOP);
      expect(listed.status).toBe(status);
      expect(acao(listed)).toBe(SHOP);
      const unlisted = await call(i, EVIL);
      expect(acao(unlisted)).toBeNull();
    }
    // A page of a site not listed is refused the session, and cannot read why.
    const refused = await desk.api("POST", "/v1/widget/session", {
      headers: { origin: EVIL },
      body: { key: w.workspace.widgetKey },
    });
    expect(refused.status).toBe(403);
    expect(acao(refused)).toBeNull();
  });

  test("the preflight still answers any page: it carries no credential to judge", async () => {
    const res = await desk.fetch(
      new Request("http://localhost/v1/widget/conversations", {
        method: "OPTIONS",
        headers: { origin: EVIL, "access-control-request-method": "POST" },
      }),
    );
    expect(res.status).toBe(204);
    expect(acao(res)).toBe(EVIL);
    expect(res.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
  });
});

describe("widget writes honour Idempotency-Key", () => {
  test("the same message POSTed twice with one key stores one message and answers the same body", async () => {
    const w = await shopWorkspace();
    const v = await visitor(w);
    const headers = { ...v, origin: SHOP, "idempotency-key": "chat-1" };
    const first = await desk.api("POST", "/v1/widget/conversations", { headers, body: { body: "My order is late" } });
    const again = await desk.api("POST", "/v1/widget/conversations", { headers, body: { body: "My order is late" } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // The replay is readable by the listed page as the first answer was.
    expect(acao(again)).toBe(SHOP);
    const conversationId = first.body.conversation.id as string;

    const send = () =>
      desk.api("POST", `/v1/widget/conversations/${conversationId}/messages`, {
        headers: { ...v, "idempotency-key": "msg-1" },
        body: { body: "Any news?" },
      });
    const sent = await send();
    const resent = await send();
    expect(sent.status).toBe(201);
    expect(resent.body).toEqual(sent.body);
    const thread = await desk.api("GET", `/v1/widget/conversations/${conversationId}/messages`, { headers: v });
    expect(thread.body.data.filter((m: { body_text: string }) => m.body_text === "Any news?")).toHaveLength(1);
    const list = await desk.api("GET", "/v1/widget/conversations", { headers: v });
    expect(list.body.data).toHaveLength(1);

    // Another body under the same key is refused; another visitor's same key is their own.
    const reused = await desk.api("POST", `/v1/widget/conversations/${conversationId}/messages`, {
      headers: { ...v, "idempotency-key": "msg-1" },
      body: { body: "Something else" },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_key_reused");
    const other = await visitor(w);
    const theirs = await desk.api("POST", "/v1/widget/conversations", {
      headers: { ...other, "idempotency-key": "chat-1" },
      body: { body: "My order is late" },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.conversation.id).not.toBe(conversationId);
  });
});
