import { describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { withTx } from "../db/tx";
import { notificationsOf, notify } from "./notifications.public";

const desk = await startTestDesk();

describe("notify", () => {
  test("stores the notification and publishes notification.created to the person's topic", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ticket = { id: "t1", number: 7, subject: "Printer" };
    const sent = withTx(desk.deps.db, (tx) =>
      notify(
        tx,
        {
          workspaceId: workspace.id,
          userId: owner.id,
          type: "sla_breached",
          ticket,
          data: { kind: "first_response" },
        },
        desk.deps.clock,
      ),
    );
    const stored = withTx(desk.deps.db, (tx) => notificationsOf(tx, workspace.id, owner.id));
    expect(stored).toEqual([sent]);
    expect(sent).toMatchObject({ type: "sla_breached", ticket, data: { kind: "first_response" }, read_at: null });
    const events = await desk.api("GET", "/v1/events?since=0&limit=1000", { headers: owner.headers });
    const created = (events.body as { data: { type: string; topics: string[]; data: unknown }[] }).data.filter(
      (e) => e.type === "notification.created",
    );
    expect(created).toHaveLength(1);
    expect(created[0]!.topics).toContain(`user:${owner.id}`);
    expect(created[0]!.data).toEqual({ notification: sent });
  });
});
