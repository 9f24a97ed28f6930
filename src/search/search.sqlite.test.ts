import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { untilCommitted } from "../db/tx";
import { createTicket } from "../tickets/tickets.create";
import { updateTicket } from "../tickets/tickets.service";
import { searchTickets } from "../tickets/tickets.public";
import { flushSearchStaging } from "./search.staging";

/** A hard delete (as the workspace purge does), in the caller's turn. */
const deleteTicketRows = async (db: typeof desk.deps.db, id: string) => {
  db.$client.run("DELETE FROM messages WHERE ticket_id = ?", [id]);
  db.$client.run("DELETE FROM tickets WHERE id = ?", [id]);
};

const desk = await startTestDesk();

// FTS5 internals: the staging tables each commit flushes into the index, and the index's rowids.
describe("search", () => {
  test("documents written in a turn are found in that turn, in their latest wording, and nothing stays staged", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const db = desk.deps.db;
    const staged = async () =>
      db.$client
        .query<{ n: number }, []>(
          "SELECT (SELECT count(*) FROM search_staging_tickets) + (SELECT count(*) FROM search_staging_messages) AS n",
        )
        .get()!.n;
    // All in one turn: nothing below yields to the event loop, so the batch has not committed yet.
    const kept = await createTicket(
      owner.ctx,
      { subject: "Echidna quills", body_html: "<p>the wombat burrow</p>" },
      desk.deps,
    );
    const renamed = await createTicket(owner.ctx, { subject: "Numbat sighting" }, desk.deps);
    await updateTicket(owner.ctx, renamed.id, { subject: "Quokka sighting" }, desk.deps);
    const gone = await createTicket(owner.ctx, { subject: "Bilby burrow" }, desk.deps);
    await deleteTicketRows(db, gone.id);
    expect(await staged()).toBeGreaterThan(0);
    const ids = async (q: string) => (await searchTickets(db, owner.ctx, q)).map((t) => t.id);
    expect(await ids("echidna")).toEqual([kept.id]);
    expect(await ids("wombat")).toEqual([kept.id]);
    expect(await ids("quokka")).toEqual([renamed.id]);
    expect(await ids("numbat")).toEqual([]);
    expect(await ids("bilby")).toEqual([]);
    await untilCommitted(db);
    expect(await staged()).toBe(0);
    expect(await ids("quokka")).toEqual([renamed.id]);
    expect(await ids("bilby burrow")).toEqual([]);
  });

  test("documents staged and committed outside Desk (a bulk load) are indexed at start", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await createTicket(owner.ctx, { subject: "Cassowary egg" }, desk.deps);
    await untilCommitted(desk.deps.db);
    // As if a writer bypassed the flush: the row is staged again and not in the index.
    const rowid = desk.deps.db.$client
      .query<{ rowid: number }, []>("SELECT rowid FROM tickets WHERE subject = 'Cassowary egg'")
      .get()!.rowid;
    desk.deps.db.$client.run("DELETE FROM ticket_search WHERE rowid = ?", [rowid]);
    desk.deps.db.$client.run(
      "INSERT INTO search_staging_tickets (row_ref, ws, subject) VALUES (?, 'w', 'Cassowary egg')",
      [rowid],
    );
    await untilCommitted(desk.deps.db);
    flushSearchStaging(desk.deps.db); // what registerSearchStaging does at start
    expect(desk.deps.db.$client.query("SELECT count(*) AS n FROM search_staging_tickets").get()).toEqual({ n: 0 });
    expect(
      desk.deps.db.$client.query("SELECT rowid FROM ticket_search WHERE ticket_search MATCH 'cassowary'").all(),
    ).toEqual([{ rowid }]);
  });
});
