import { first } from "../../src/db/store";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { defineEvent } from "../../src/events/define";
import { eventSeqs } from "../../src/events/events.table";
import type { TestDesk } from "../harness";

/**
 * A definition of `type` taking any data, for tests of the event machinery (seqs, topics,
 * visibility, fan-out) that append events without the emitting feature's real data. Who may read
 * it still comes from the catalogue by its type's resource, as for a real event.
 */
export const anyEvent = (type: string) =>
  defineEvent(type, z.record(z.string(), z.unknown()), { readScope: null, description: "test event" });

/** The seq of the workspace's newest event (0 before any): a test reads what was appended after it. */
export const lastSeq = async (desk: TestDesk, workspaceId: string): Promise<number> =>
  first(
    await desk.deps.db
      .select({ seq: eventSeqs.lastSeq })
      .from(eventSeqs)
      .where(eq(eventSeqs.workspaceId, workspaceId))
      .limit(1),
  )?.seq ?? 0;
