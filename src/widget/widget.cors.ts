import { visitorTokenOf } from "../auth/visitors";
import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import { workspaceOfWidgetKey } from "../workspaces/workspaces.public";
import { visitorResolver } from "./widget.sessions";
import { originAllowed, widgetSettingsOf } from "./widget.settings";

const ALLOW_ORIGIN = "access-control-allow-origin";

/** The part of an Elysia context a CORS decision writes. */
export type CorsSet = { headers: Record<string, string | number> };
type Set = CorsSet;

/**
 * A widget answer may be read by the calling page only when the workspace lists the page's site (or
 * lists none). Error answers follow the same rule: until the workspace is known (a bad credential, an
 * unknown key) no page may read anything, so a script on any site learns nothing by probing.
 */
export function allowOrigin(set: Set, request: Request, allowed: boolean): void {
  const origin = request.headers.get("origin");
  if (allowed && origin) set.headers[ALLOW_ORIGIN] = origin;
  else delete set.headers[ALLOW_ORIGIN];
}

/** The widget settings behind a public key, or null for an unknown key (no error: CORS only asks). */
export async function settingsOfKey(db: Db, key: unknown) {
  const workspace = typeof key === "string" && key.length <= 200 ? await workspaceOfWidgetKey(db, key) : null;
  const settings = workspace ? await widgetSettingsOf(db, workspace.id) : null;
  return settings?.enabled ? settings : null;
}

/**
 * Decides CORS as the request arrives, so every answer carries it, errors from validation or the
 * handler included: the workspace comes from the visitor's session (`Authorization: Visitor`) or the
 * widget key in the query (GET /config). The session route reads its key from the body and decides
 * in its handler. A preflight carries no credential and is answered for any page.
 */
export function corsOnArrival(deps: { db: Db; clock: Clock }) {
  const visitors = visitorResolver(deps.db, deps.clock);
  return async (request: Request, url: URL, set: Set): Promise<void> => {
    if (request.method === "OPTIONS") return allowOrigin(set, request, true);
    const token = visitorTokenOf(request.headers.get("authorization"));
    let settings = null;
    if (token) {
      const session = await visitors.session(token);
      settings = session ? await widgetSettingsOf(deps.db, session.workspaceId) : null;
    } else if (url.searchParams.has("key")) settings = await settingsOfKey(deps.db, url.searchParams.get("key"));
    allowOrigin(set, request, settings !== null && originAllowed(settings, request.headers.get("origin")));
  };
}

/**
 * The HTTP layer's idempotency for visitors: keys are scoped per visitor session, and a replayed
 * answer (or a refusal of the key) carries the CORS the route would have set, so the page can read
 * it. Null when the request carries no live visitor credential.
 */
export function visitorIdempotencyCaller(deps: { db: Db; clock: Clock }) {
  const visitors = visitorResolver(deps.db, deps.clock);
  return async (request: Request): Promise<{ scope: string; headers: Record<string, string> } | null> => {
    const token = visitorTokenOf(request.headers.get("authorization"));
    const session = token ? await visitors.session(token) : null;
    if (!session) return null;
    const origin = request.headers.get("origin");
    const allowed = origin !== null && originAllowed(await widgetSettingsOf(deps.db, session.workspaceId), origin);
    return {
      scope: `visitor:${session.sessionId}`,
      headers: allowed ? { [ALLOW_ORIGIN]: origin, vary: "Origin" } : {},
    };
  };
}
