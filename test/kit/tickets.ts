import { and, asc, eq, gt } from "drizzle-orm";
import { events } from "../../src/events/events.table";
import type { TestDesk } from "../harness";
import type { Member } from "../factories";

/** Test helpers shared by the ticket, message, search and report tests. */
export const eventsAfter = async (desk: TestDesk, workspaceId: string, seq: number) =>
  await desk.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), gt(events.seq, seq)))
    .orderBy(asc(events.seq));

export async function newTicket(desk: TestDesk, member: Pick<Member, "headers">, body: Record<string, unknown> = {}) {
  const res = await desk.api("POST", "/v1/tickets", {
    headers: member.headers,
    body: { subject: "Help needed", ...body },
  });
  if (res.status !== 201) throw new Error(`ticket not created: ${res.status} ${res.text}`);
  return res.body as { id: string; number: number; [key: string]: unknown };
}

export async function newField(desk: TestDesk, owner: Pick<Member, "headers">, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/custom-fields", {
    headers: owner.headers,
    body: { entity: "ticket", ...body },
  });
  if (res.status !== 201) throw new Error(`field not created: ${res.status} ${res.text}`);
  return res.body as { id: string; key: string };
}

export async function newTeam(desk: TestDesk, owner: Pick<Member, "headers">, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/teams", { headers: owner.headers, body });
  if (res.status !== 201) throw new Error(`team not created: ${res.status} ${res.text}`);
  return res.body as { id: string };
}
