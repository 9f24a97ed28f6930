import type { Member } from "../factories";
import type { TestDesk } from "../harness";

/** Runs an import's job slices until it ends (bounded) and answers the Import. */
export async function runImportToEnd(desk: TestDesk, member: Member, id: string) {
  for (let i = 0; i < 100; i++) {
    await desk.jobs.drain();
    const res = await desk.api("GET", `/v1/imports/${id}`, { headers: member.headers });
    if (!["queued", "running"].includes(res.body.status)) return res.body;
    await Bun.sleep(50);
  }
  throw new Error("import did not end");
}

/** The fields of GET /v1/tickets the import tests read. */
export type ImportedTicket = {
  id: string;
  subject: string;
  status: string;
  message_count: number;
  contact: { email: string } | null;
  assignee: { id: string } | null;
  tags: Array<{ name: string }>;
  [field: string]: unknown;
};

/** The workspace's tickets (the import tests stay under 100). */
export async function importedTickets(desk: TestDesk, member: Member): Promise<ImportedTicket[]> {
  const res = await desk.api("GET", "/v1/tickets?limit=100", { headers: member.headers });
  return res.body.data;
}
