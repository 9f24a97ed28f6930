import { roleAtLeast, type RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { forbidden, invalidAt, notFound } from "../lib/errors";
import { type MemberJson, setMemberAvailability, touchMemberSeen } from "../members/members.public";

type Body = { availability?: "online" | "away" | "offline"; max_open_tickets?: number | null };

/**
 * `PATCH /v1/members/{user_id}/availability`: members set their own availability; admins (and keys
 * with settings:write) anyone's, and `max_open_tickets`. `me` names the caller (a person).
 */
export async function changeAvailability(
  ctx: RequestContext,
  ref: string,
  body: Body,
  deps: Pick<Deps, "db" | "clock" | "ports">,
) {
  const self = ctx.actor.type === "user" ? ctx.actor.userId : null;
  if (ref === "me" && !self) throw invalidAt("path.user_id", "An API key is no member: name the member by user id.");
  const userId = ref === "me" ? self! : ref;
  const admin = roleAtLeast(ctx.role, "admin");
  if (!admin && userId !== self) throw forbidden("Only admins change another member's availability.");
  if (!admin && body.max_open_tickets !== undefined) throw forbidden("Only admins set assignment caps.");
  return await transact(deps.db, async (tx): Promise<MemberJson> => {
    const changed = await setMemberAvailability(deps, tx, ctx.workspaceId, userId, {
      availability: body.availability,
      maxOpenTickets: body.max_open_tickets,
    });
    if (!changed) throw notFound("Member");
    const { before, after } = changed;
    if (before.availability !== after.availability)
      await recordAudit(tx, ctx, {
        action: "member.availability_changed",
        entityType: "member",
        entityId: userId,
        data: { from: before.availability, to: after.availability },
      });
    if (before.max_open_tickets !== after.max_open_tickets)
      await recordAudit(tx, ctx, {
        action: "member.assignment_cap_changed",
        entityType: "member",
        entityId: userId,
        data: { from: before.max_open_tickets, to: after.max_open_tickets },
      });
    return after;
  });
}

/** `POST /v1/me/heartbeat`: the caller was seen now (feeds auto-away). */
export async function heartbeat(ctx: RequestContext, deps: Pick<Deps, "db" | "clock" | "ports">): Promise<void> {
  if (ctx.actor.type !== "user") throw forbidden();
  const userId = ctx.actor.userId;
  await transact(deps.db, async (tx) => {
    await touchMemberSeen(deps, tx, ctx.workspaceId, userId, deps.clock.now().toISOString());
  });
}
