import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import type { Workspace } from "../api/types";
import { defineResource } from "../realtime/invalidation";

export const workspaceKeys = { current: ["workspace"] as const };

export const workspaceResource = defineResource({
  name: "workspace",
  keys: workspaceKeys,
  events: [{ on: ["workspace.*"], invalidate: () => [workspaceKeys.current] }],
});

export function useWorkspace() {
  return useQuery({ queryKey: workspaceKeys.current, queryFn: () => api<Workspace>("/workspace"), staleTime: 60_000 });
}
