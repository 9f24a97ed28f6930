import { afterEach, describe, expect, test } from "bun:test";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { connect, type TestSocket } from "../../test/kit/realtime-client";
import { globalSocketCap, openFileLimit } from "./socket-limits";

const open: TestSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.ws.close();
});

const wsUrl = (desk: TestDesk, url: string) => {
  const u = new URL(url);
  return `${desk.url.replace(/^http/, "ws")}${u.pathname}${u.search}`;
};

/** A real WebSocket client, admitted (its ping answered). */
async function socketAt(url: string) {
  const socket = connect(url);
  open.push(socket);
  await socket.opened;
  socket.send({ type: "ping" });
  await socket.waitFor((f) => f.type === "pong");
  return socket;
}

/** A real client whose upgrade is refused: it never opens, and the HTTP answer says why. */
async function refused(url: string) {
  const socket = connect(url);
  socket.opened.catch(() => undefined);
  const closed = await socket.closed;
  expect(socket.frames).toEqual([]);
  const res = await fetch(url.replace(/^ws/, "http"), {
    headers: {
      upgrade: "websocket",
      connection: "upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    },
  });
  return { closed, status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function visitorOf(desk: TestDesk, key: string) {
  const res = await desk.api("POST", "/v1/widget/session", { body: { key } });
  expect(res.status).toBe(200);
  return {
    headers: { authorization: `Visitor ${res.body.visitor_token}` },
    contactId: res.body.contact.id as string,
    gatewayUrl: wsUrl(desk, res.body.gateway_url as string),
  };
}

async function agentUrl(desk: TestDesk, headers: Record<string, string>) {
  const res = await desk.api("POST", "/v1/realtime/token", { headers });
  expect(res.status).toBe(200);
  return wsUrl(desk, res.body.url as string);
}

describe("gateway admission", () => {
  test("a bad, forged or wrong-purpose token answers 401 and is never upgraded, on both paths", async () => {
    const desk = await startTestDesk();
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const base = desk.url.replace(/^http/, "ws");
    const agentToken = (await desk.api("POST", "/v1/realtime/token", { headers: owner.headers })).body.token;
    const widgetToken = await desk.deps.tokens.sign("widget_ws", { wid: workspace.id, cid: "c-1" });
    const expired = await desk.deps.tokens.sign("ws", { sub: owner.id, sid: owner.sessionId, wid: workspace.id }, -10);
    for (const url of [
      `${base}/v1/widget/realtime?token=garbage`,
      `${base}/v1/widget/realtime?token=${agentToken}`,
      `${base}/v1/realtime?token=${widgetToken}`,
      `${base}/v1/realtime?token=${expired}`,
      `${base}/v1/realtime`,
    ]) {
      const answer = await refused(url);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ status: 401, code: "unauthorized" });
      expect(answer.closed.code).not.toBe(1000);
    }
  });

  test("a signed-out session's token answers 401 instead of opening a socket", async () => {
    const desk = await startTestDesk();
    const { owner } = await createWorkspaceWithOwner(desk);
    const url = await agentUrl(desk, owner.headers);
    expect((await desk.api("POST", "/v1/auth/logout", { headers: owner.headers, body: {} })).status).toBeLessThan(300);
    expect((await refused(url)).status).toBe(401);
  });

  test("widget sockets are capped per gateway token, per visitor and per client address; a closed one frees its place", async () => {
    const desk = await startTestDesk({
      env: {
        DESK_WIDGET_SOCKETS_PER_TOKEN: "2",
        DESK_WIDGET_SOCKETS_PER_VISITOR: "3",
        DESK_WIDGET_SOCKETS_PER_ADDRESS: "4",
      },
    });
    const { workspace } = await createWorkspaceWithOwner(desk);
    const v = await visitorOf(desk, workspace.widgetKey);
    const first = await socketAt(v.gatewayUrl);
    await socketAt(v.gatewayUrl);
    const overToken = await refused(v.gatewayUrl);
    expect(overToken.status).toBe(429);
    expect(overToken.body).toMatchObject({ status: 429, code: "too_many_sockets" });
    expect(String(overToken.body.detail)).toContain("per gateway token");

    // A second token of the same visitor (signed in the same second, the route would answer the same text).
    const freshToken = await desk.deps.tokens.sign("widget_ws", { wid: workspace.id, cid: v.contactId }, 299);
    const freshUrl = `${v.gatewayUrl.split("?")[0]}?token=${freshToken}`;
    await socketAt(freshUrl);
    const overVisitor = await refused(freshUrl);
    expect(overVisitor.status).toBe(429);
    expect(String(overVisitor.body.detail)).toContain("per visitor");

    const other = await visitorOf(desk, workspace.widgetKey);
    await socketAt(other.gatewayUrl);
    const overAddress = await refused(other.gatewayUrl);
    expect(overAddress.status).toBe(429);
    expect(String(overAddress.body.detail)).toContain("per client address");

    first.ws.close();
    await first.closed;
    await socketAt(other.gatewayUrl);
  });

  test("agent sockets are capped per sign-in session and per API key, each holder on its own", async () => {
    const desk = await startTestDesk({ env: { DESK_REALTIME_SOCKETS_PER_SESSION: "2" } });
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const key = await createKey(desk, owner, ["realtime"]);
    await socketAt(await agentUrl(desk, owner.headers));
    await socketAt(await agentUrl(desk, owner.headers));
    const over = await refused(await agentUrl(desk, owner.headers));
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ status: 429, code: "too_many_sockets" });
    expect(String(over.body.detail)).toContain("per sign-in session");
    await socketAt(await agentUrl(desk, agent.headers));
    await socketAt(await agentUrl(desk, key.headers));
    await socketAt(await agentUrl(desk, key.headers));
    expect(String((await refused(await agentUrl(desk, key.headers))).body.detail)).toContain("per API key");
  });

  test("the total is capped so descriptors stay for HTTP and SMTP: past it every upgrade answers 429 and /healthz still answers", async () => {
    const desk = await startTestDesk({ env: { DESK_REALTIME_MAX_SOCKETS: "3" } });
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    await socketAt(await agentUrl(desk, owner.headers));
    await socketAt(await agentUrl(desk, agent.headers));
    await socketAt((await visitorOf(desk, workspace.widgetKey)).gatewayUrl);
    const over = await refused((await visitorOf(desk, workspace.widgetKey)).gatewayUrl);
    expect(over.status).toBe(429);
    expect(String(over.body.detail)).toContain("as many live connections as it may");
    expect((await fetch(`${desk.url}/healthz`)).status).toBe(200);
  });

  test("the total defaults to the open-file limit minus the reserve, and never below half the limit", async () => {
    const shell = Bun.spawnSync(["sh", "-c", "ulimit -n"]).stdout.toString().trim();
    if (/^\d+$/.test(shell)) expect(openFileLimit()).toBe(Number(shell));
    expect(globalSocketCap({ maxSockets: null, fdReserve: 512 }, 20_000)).toBe(19_488);
    expect(globalSocketCap({ maxSockets: null, fdReserve: 512 }, 800)).toBe(400);
    expect(globalSocketCap({ maxSockets: 100, fdReserve: 512 }, 20_000)).toBe(100);
    expect(globalSocketCap({ maxSockets: 50_000, fdReserve: 512 }, 20_000)).toBe(19_488);
  });
});
