import { unauthorized } from "../lib/errors";

/** `desk_vis_` plus 32 random bytes in base64url (SPEC.md, credential formats). */
const VISITOR_HEADER = /^Visitor\s+(desk_vis_[A-Za-z0-9_-]{43})\s*$/i;

/** A chat widget visitor's session, as the feature that owns visitor sessions answers it. */
export type VisitorSession = { sessionId: string; workspaceId: string; contactId: string };

/**
 * Finds the live visitor session a token names (null: unknown, expired or ended). The widget
 * feature provides it through the `auth.visitorSessions` port (auth.ports.ts) and the composition
 * root passes it to the guard; the workspace of every visitor route comes from this session, never
 * from the request.
 */
export type VisitorResolver = {
  session(token: string): VisitorSession | null | Promise<VisitorSession | null>;
};

/** With no widget feature installed no visitor session exists: every visitor credential is refused. */
export const noVisitors: VisitorResolver = { session: () => null };

/** The visitor token of an `Authorization: Visitor <token>` header, or null when the header is not one. */
export function visitorTokenOf(header: string | null): string | null {
  return header ? (VISITOR_HEADER.exec(header)?.[1] ?? null) : null;
}

/** 401 unless the request carries a visitor token of a live session. Malformed tokens reach no lookup. */
export async function resolveVisitor(resolver: VisitorResolver, request: Request): Promise<VisitorSession> {
  const token = visitorTokenOf(request.headers.get("authorization"));
  if (!token) throw unauthorized("This route needs an `Authorization: Visitor <token>` header.");
  const session = await resolver.session(token);
  if (!session) throw unauthorized("The visitor session has ended; start a new one.");
  return session;
}
