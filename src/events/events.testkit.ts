import { z } from "zod";
import { defineEvent } from "./define";

/**
 * A definition of `type` taking any data, for tests of the event machinery (seqs, topics,
 * visibility, fan-out) that append events without the emitting feature's real data. Who may read
 * it still comes from the catalogue by its type's resource, as for a real event.
 */
export const anyEvent = (type: string) =>
  defineEvent(type, z.record(z.string(), z.unknown()), { readScope: null, description: "test event" });
