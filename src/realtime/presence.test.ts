import { afterEach, describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { newTeam, newTicket } from "../../test/kit/tickets";
import { connect, type TestSocket } from "../../test/kit/realtime-client";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();
const wsBase = desk.url.replace(/^http/, "ws");
const open: TestSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.ws.close();
});

type Roster = { type: "presence"; ticket_id: string; viewers: Array<{ user_id: string; name: string; state: string }> };

/** A real socket, admitted (frames wait for admission, so the pong comes after it). */
async function socketFor(headers: Record<string, string>) {
  const res = await desk.api("POST", "/v1/realtime/token", { headers });
  expect(res.status).toBe(200);
  const socket = connect(`${wsBase}/v1/realtime?token=${res.body.token}`);
  open.push(socket);
  await socket.opened;
  socket.send({ type: "ping" });
  await socket.waitFor((f) => f.type === "pong");
  return socket;
}

const rosters = (socket: TestSocket, ticketId: string) =>
  socket.frames.filter((f) => f.type === "presence" && f.ticket_id === ticketId) as unknown as Roster[];
const latest = (socket: TestSocket, ticketId: string) =>
  rosters(socket, ticketId)
    .at(-1)
    ?.viewers.map((v) => `${v.name}:${v.state}`)
    .sort() ?? [];

/** Waits until the socket's newest roster for the ticket reads `expected`. */
async function rosterIs(socket: TestSocket, ticketId: string, expected: string[]) {
  const end = Date.now() + 2000;
  while (JSON.stringify(latest(socket, ticketId)) !== JSON.stringify([...expected].sort())) {
    if (Date.now() > end)
      throw new Error(`roster ${JSON.stringify(latest(socket, ticketId))}, expected ${JSON.stringify(expected)}`);
    await Bun.sleep(10);
  }
}

/** Gives the gateway time to answer, then says nothing more arrived (a ping round trip orders it). */
async function settle(socket: TestSocket) {
  const pongs = socket.frames.filter((f) => f.type === "pong").length;
  socket.send({ type: "ping" });
  await socket.waitFor(() => socket.frames.filter((f) => f.type === "pong").length > pongs);
}

describe("presence on the realtime gateway (collision detection)", () => {
  test("agents on one ticket see each other viewing and typing; closing a socket ends its presence; nothing is stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent", { name: "Arno Agent" });
    const ticket = await newTicket(desk, owner);
    const other = await newTicket(desk, owner);
    const seq = await lastSeq(desk, workspace.id);

    const a = await socketFor(owner.headers);
    const b = await socketFor(agent.headers);
    a.send({ type: "presence", ticket_id: ticket.id, state: "viewing" });
    await rosterIs(a, ticket.id, [`${owner.name}:viewing`]);
    b.send({ type: "presence", ticket_id: ticket.id });
    await rosterIs(a, ticket.id, ["Arno Agent:viewing", `${owner.name}:viewing`]);
    await rosterIs(b, ticket.id, ["Arno Agent:viewing", `${owner.name}:viewing`]);
    b.send({ type: "presence", ticket_id: ticket.id, state: "typing" });
    await rosterIs(a, ticket.id, ["Arno Agent:typing", `${owner.name}:viewing`]);

    // A second tab of the same agent shows once; typing wins.
    const b2 = await socketFor(agent.headers);
    b2.send({ type: "presence", ticket_id: ticket.id, state: "viewing" });
    await settle(b2);
    await rosterIs(a, ticket.id, ["Arno Agent:typing", `${owner.name}:viewing`]);
    b2.ws.close();
    await b2.closed;

    // Moving to another ticket leaves the first.
    b.send({ type: "presence", ticket_id: other.id, state: "viewing" });
    await rosterIs(a, ticket.id, [`${owner.name}:viewing`]);
    await rosterIs(b, other.id, ["Arno Agent:viewing"]);
    b.send({ type: "presence", ticket_id: ticket.id, state: "viewing" });
    await rosterIs(a, ticket.id, ["Arno Agent:viewing", `${owner.name}:viewing`]);

    // Disconnecting cleans up: the others hear the agent left.
    b.ws.close();
    await b.closed;
    await rosterIs(a, ticket.id, [`${owner.name}:viewing`]);
    a.send({ type: "presence", ticket_id: null });
    await settle(a);
    expect(await fetch(`${desk.url}/metrics`).then((r) => r.text())).toMatch(/^desk_realtime_present_sockets 0$/m);
    // Ephemeral: no event was stored, and rosters carry no seq.
    expect(await lastSeq(desk, workspace.id)).toBe(seq);
    expect(rosters(a, ticket.id).every((f) => !("seq" in f))).toBe(true);
  });

  test("only people who may see the ticket: private teams, other workspaces, API keys", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent", { name: "Ines Insider" });
    const outsider = await addMember(desk, workspace.id, "agent", { name: "Otto Outsider" });
    const team = await newTeam(desk, owner, { name: "Legal", private: true, member_ids: [insider.id] });
    const secret = await newTicket(desk, owner, { team_id: team.id });
    const stranger = await createWorkspaceWithOwner(desk);

    const ins = await socketFor(insider.headers);
    const out = await socketFor(outsider.headers);
    const str = await socketFor(stranger.owner.headers);
    const key = await socketFor((await createKey(desk, owner, ["realtime", "tickets:read"])).headers);
    ins.send({ type: "presence", ticket_id: secret.id });
    await rosterIs(ins, secret.id, ["Ines Insider:viewing"]);
    for (const s of [out, str, key]) s.send({ type: "presence", ticket_id: secret.id, state: "typing" });
    for (const s of [out, str, key]) await settle(s);
    await settle(ins);
    // Nobody outside the team joined the roster or heard it.
    expect(latest(ins, secret.id)).toEqual(["Ines Insider:viewing"]);
    for (const s of [out, str, key]) expect(rosters(s, secret.id)).toEqual([]);

    // An admin (all private teams) may see it and joins.
    const adm = await socketFor(owner.headers);
    adm.send({ type: "presence", ticket_id: secret.id });
    await rosterIs(ins, secret.id, ["Ines Insider:viewing", `${owner.name}:viewing`]);
  });

  test("a frame sent the moment the socket opens waits for admission instead of being judged without grants", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent", { name: "Ida Early" });
    const team = await newTeam(desk, owner, { name: "Vault", private: true, member_ids: [insider.id] });
    const secret = await newTicket(desk, owner, { team_id: team.id });
    for (let round = 0; round < 5; round++) {
      const res = await desk.api("POST", "/v1/realtime/token", { headers: insider.headers });
      const socket = connect(`${wsBase}/v1/realtime?token=${res.body.token}`);
      open.push(socket);
      await socket.opened;
      // No ping first: the presence frame races the gateway's reading of the private-team grant.
      socket.send({ type: "presence", ticket_id: secret.id });
      await rosterIs(socket, secret.id, ["Ida Early:viewing"]);
      socket.ws.close();
    }
  });

  test("malformed presence frames close the socket with 4400", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (const frame of [
      { type: "presence", ticket_id: 42 },
      { type: "presence", ticket_id: "not-a-uuid" },
      { type: "presence", ticket_id: crypto.randomUUID(), state: "dancing" },
    ]) {
      const socket = await socketFor(owner.headers);
      socket.send(frame);
      expect((await socket.closed).code).toBe(4400);
    }
  });
});
