import { expect, test } from "bun:test";
import { systemContext } from "../auth/context";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { addMessage, createTicket } from "../tickets/tickets.public";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
const { workspace } = await createWorkspaceWithOwner(desk);

const sendPayloads = async () =>
  (
    await rowsOf<{ payload: unknown }>(
      desk.deps.db,
      sql`SELECT payload FROM jobs WHERE kind = 'mail.send_reply' AND workspace_id = ${workspace.id}`,
    )
  ).map(
    // JSON text on SQLite; PostgreSQL's client gives a jsonb column parsed.
    (r) =>
      (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as {
        message_id: string;
        auto_reply?: boolean;
      },
  );

test("the auto-reply says so explicitly through the ticket API; other replies are sent unmarked", async () => {
  const ctx = systemContext(workspace.id);
  const ticket = await createTicket(
    ctx,
    { subject: "Hi", channel: "email", contact: { email: "c@customer.test" } },
    desk.deps,
  );
  const plain = await addMessage(ctx, ticket.id, { kind: "reply", body_text: "An answer" }, desk.deps);
  const auto = await addMessage(
    ctx,
    ticket.id,
    { kind: "reply", body_text: "Got it", author: { type: "system" } },
    desk.deps,
    {
      origin: "auto_reply",
    },
  );
  const byMessage = new Map((await sendPayloads()).map((p) => [p.message_id, p]));
  expect(byMessage.get(plain.id)?.auto_reply).toBeUndefined();
  expect(byMessage.get(auto.id)?.auto_reply).toBe(true);
});
