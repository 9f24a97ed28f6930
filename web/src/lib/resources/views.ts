import type { View } from "../api/types";
import { listQuery } from "../api/queries";
import { defineResource } from "../realtime/invalidation";

export const viewsKeys = { list: ["views"] as const };

export const viewsResource = defineResource({
  name: "views",
  keys: viewsKeys,
  events: [{ on: ["view.*"], invalidate: () => [viewsKeys.list] }],
});

export const useViews = listQuery<View>(viewsKeys.list, "/views");
