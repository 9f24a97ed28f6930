import type { Macro } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

/** One key for the menus and the settings screen (`useCrud(macrosKeys.list, …)` shares it). */
export const macrosKeys = { list: ["macros"] as const };

export const macrosResource = defineResource({
  name: "macros",
  keys: macrosKeys,
  events: [{ on: ["macro.*"], invalidate: () => [macrosKeys.list] }],
});

export const useMacros = listQuery<Macro>(macrosKeys.list, "/macros");
