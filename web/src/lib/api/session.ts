import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { api, authState, authVersion, onAuthChange } from "./client";
import type { Me, Role, UserRef, WorkspaceRef } from "./types";

/** The signed-in person and selected workspace; re-renders on sign-in, switch and sign-out. */
export function useAuth() {
  useSyncExternalStore(onAuthChange, authVersion);
  return authState();
}

/** The caller's own records: a sign-out keeps these and drops every workspace's cache. */
export const sessionKeys = {
  me: ["me"] as const,
  meOf: (userId: string | undefined) => ["me", userId] as const,
  accounts: ["accounts"] as const,
  accountsOf: (userId: string | undefined) => ["accounts", userId] as const,
  instanceStatus: ["instance-status"] as const,
};

export function useMe() {
  const auth = useAuth();
  return useQuery({
    queryKey: sessionKeys.meOf(auth.user?.id),
    queryFn: () => api<Me>("/me", { workspace: false }),
    enabled: !!auth.accessToken,
    staleTime: 60_000,
  });
}

/** The caller's role in the selected workspace. */
export function useRole(): Role | null {
  const auth = useAuth();
  const me = useMe();
  return me.data?.workspaces.find((w) => w.id === auth.workspaceId)?.role ?? null;
}

export const canAdmin = (role: Role | null) => role === "owner" || role === "admin";
export const canWrite = (role: Role | null) => role !== null && role !== "viewer";

export type Account = { user: UserRef; workspaces: WorkspaceRef[] };

/** POST /v1/auth/accounts: the accounts this browser is signed in to (shape kept lenient). */
export function useAccounts() {
  const auth = useAuth();
  return useQuery({
    queryKey: sessionKeys.accountsOf(auth.user?.id),
    enabled: !!auth.user,
    queryFn: async () => {
      const body = await api<unknown>("/auth/accounts", { method: "POST", body: {}, workspace: false });
      const list = Array.isArray(body)
        ? body
        : ((body as { data?: unknown[]; accounts?: unknown[] }).data ??
          (body as { accounts?: unknown[] }).accounts ??
          []);
      return (list as Array<Account | (UserRef & { workspaces?: WorkspaceRef[] })>).map((item) =>
        "user" in item ? item : { user: item, workspaces: item.workspaces ?? [] },
      );
    },
  });
}
