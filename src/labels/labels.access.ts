import type { AccessRule } from "../auth/credentials";
import type { RequestContext, Scope } from "../auth/context";
import { forbidden } from "../lib/errors";

/** Changing label, group and field definitions: an admin, or a key with settings:write. */
export const settingsWrite: AccessRule = { role: "admin", scopes: ["settings:write"] };
/** Reading them: any member; a key needs one of these scopes (the guard demands all, so routes check). */
export const DEFINITION_READ_SCOPES: Scope[] = ["settings:read", "tickets:read", "contacts:read"];

export function requireAnyScope(ctx: RequestContext, scopes: readonly Scope[]): void {
  if (ctx.scopes === null) return;
  if (!scopes.some((s) => ctx.scopes!.includes(s)))
    throw forbidden(`The API key needs one of the scopes ${scopes.join(", ")}.`);
}
