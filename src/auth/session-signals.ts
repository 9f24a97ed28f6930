import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";

/**
 * Tells live connections (the realtime gateway) that sessions or memberships ended, so their
 * sockets close at once, or that grants changed (`grants`: a member's role, or who is in which
 * private team; `userId` null for everyone in the workspace), so they re-read what they may see.
 * Auth, members and teams signal; the gateway listens.
 */
export type AccessEnded =
  | { kind: "sessions"; userId: string; sessionIds: string[] | "all" }
  | { kind: "membership"; userId: string; workspaceId: string }
  | { kind: "api_key"; apiKeyId: string }
  | { kind: "grants"; workspaceId: string; userId: string | null };

/** The listeners of one desk, a slot of its runtime. */
const listenersOf = deskState("auth.access-listeners", (): Array<(signal: AccessEnded) => void> => []);

export function onAccessEnded(db: Db, listener: (signal: AccessEnded) => void): () => void {
  const list = listenersOf(db);
  list.push(listener);
  return () => list.splice(list.indexOf(listener), 1);
}

/** Call after the revoking transaction commits. */
export function signalAccessEnded(db: Db, signal: AccessEnded): void {
  for (const listener of listenersOf(db)) listener(signal);
}
