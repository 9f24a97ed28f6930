import type { Db } from "../db/database";

/**
 * Tells live connections (the realtime gateway) that sessions or memberships ended, so their
 * sockets close at once. Auth and member removal signal; the gateway listens.
 */
export type AccessEnded =
  | { kind: "sessions"; userId: string; sessionIds: string[] | "all" }
  | { kind: "membership"; userId: string; workspaceId: string }
  | { kind: "api_key"; apiKeyId: string };

const listeners = new WeakMap<Db, Array<(signal: AccessEnded) => void>>();

export function onAccessEnded(db: Db, listener: (signal: AccessEnded) => void): () => void {
  const list = listeners.get(db) ?? [];
  list.push(listener);
  listeners.set(db, list);
  return () => list.splice(list.indexOf(listener), 1);
}

/** Call after the revoking transaction commits. */
export function signalAccessEnded(db: Db, signal: AccessEnded): void {
  for (const listener of listeners.get(db) ?? []) listener(signal);
}
