import { first, one } from "../db/store";
import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { scopesBeyond } from "../auth/grants";
import { signalAccessEnded } from "../auth/session-signals";
import { recordAudit } from "../audit/audit.public";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Db, Queryable, Tx } from "../db/database";
import { afterCommit, transact } from "../db/tx";
import { teamCreated, teamDeleted, teamUpdated } from "./teams.events";
import { appendEvent } from "../events/append";
import { forbidden, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { membersAmong } from "../members/members.public";
import { presentTeam, type TeamJson, type TeamRow } from "./teams.present";
import { teamStatements } from "./teams.statements";
import { teamMembers, teams } from "./teams.table";
import type { Clock } from "../lib/clock";

type Deps = { db: Db; clock: Clock };

/** Drops a person who left the workspace from its teams (members.removeMember calls it in its transaction). */
export async function leaveWorkspaceTeams(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  const workspaceTeams = tx.select({ id: teams.id }).from(teams).where(eq(teams.workspaceId, workspaceId));
  await tx.delete(teamMembers).where(and(eq(teamMembers.userId, userId), inArray(teamMembers.teamId, workspaceTeams)));
}

/** Member ids of each team, in a stable order. */
export async function memberIdsOf(tx: Queryable, teamIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(teamIds.map((id) => [id, []]));
  if (!teamIds.length) return out;
  const rows = await tx
    .select()
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, teamIds))
    .orderBy(asc(teamMembers.userId));
  for (const row of rows) out.get(row.teamId)?.push(row.userId);
  return out;
}

const presentOne = async (tx: Queryable, row: TeamRow): Promise<TeamJson> =>
  presentTeam(row, await teamStatements(tx).memberIds(row.id));

async function findTeamRow(tx: Queryable, workspaceId: string, id: string) {
  return first(
    await tx
      .select()
      .from(teams)
      .where(and(eq(teams.workspaceId, workspaceId), eq(teams.id, id)))
      .limit(1),
  );
}

/** Every id must belong to a member of this workspace; 422 names the first offender's index. */
async function checkMembers(tx: Tx, workspaceId: string, memberIds: string[]): Promise<string[]> {
  const unique = [...new Set(memberIds)];
  const known = await membersAmong(tx, workspaceId, unique);
  const errors = memberIds.flatMap((id, i) =>
    known.has(id) ? [] : [{ location: `body.member_ids.${i}`, message: "not a member of this workspace" }],
  );
  if (errors.length) throw validationFailed(errors);
  return unique;
}

/**
 * Membership of a private team grants reading its tickets, and making a private team public grants
 * that to everyone: an API key may do either only when it holds tickets:read itself (src/auth/grants.ts).
 */
function assertMayGrantTeamAccess(ctx: RequestContext): void {
  if (scopesBeyond(ctx, ["tickets:read"] as const).length) {
    throw forbidden(
      "An API key without tickets:read cannot grant access to a private team's tickets (its members, or making it public).",
    );
  }
}

/** Who sees a private team changed: live sockets of the workspace re-read their teams after commit. */
function privateTeamsChanged(tx: Tx, db: Db, workspaceId: string): void {
  afterCommit(tx, () => signalAccessEnded(db, { kind: "grants", workspaceId, userId: null }));
}

async function addTeamMembers(tx: Tx, teamId: string, memberIds: string[]): Promise<void> {
  await teamStatements(tx).insertMembers(teamId, memberIds);
}

async function setTeamMembers(tx: Tx, teamId: string, memberIds: string[]): Promise<void> {
  await teamStatements(tx).deleteMembers(teamId);
  await addTeamMembers(tx, teamId, memberIds);
}

export async function listTeams(ctx: RequestContext, query: { limit: number; cursor?: string }, deps: Deps) {
  const after = decodeCursor(query.cursor, 2);
  const rows = await deps.db
    .select()
    .from(teams)
    .where(
      and(
        eq(teams.workspaceId, ctx.workspaceId),
        after
          ? or(
              gt(teams.createdAt, String(after[0])),
              and(eq(teams.createdAt, String(after[0])), gt(teams.id, String(after[1]))),
            )
          : undefined,
      ),
    )
    .orderBy(asc(teams.createdAt), asc(teams.id))
    .limit(query.limit + 1);
  const ids = await memberIdsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return await pageOf(
    rows,
    query.limit,
    (r) => presentTeam(r, ids.get(r.id) ?? []),
    (r) => [r.createdAt, r.id],
  );
}

export async function getTeam(ctx: RequestContext, id: string, deps: Deps): Promise<TeamJson> {
  const row = await findTeamRow(deps.db, ctx.workspaceId, id);
  if (!row) throw notFound("Team");
  return await presentOne(deps.db, row);
}

export async function createTeam(
  ctx: RequestContext,
  input: { name: string; member_ids: string[]; private: boolean },
  deps: Deps,
): Promise<TeamJson> {
  return await transact(deps.db, async (tx) => {
    const memberIds = await checkMembers(tx, ctx.workspaceId, input.member_ids);
    if (input.private && memberIds.length) assertMayGrantTeamAccess(ctx);
    const now = deps.clock.now().toISOString();
    const row: TeamRow = {
      id: newId(),
      workspaceId: ctx.workspaceId,
      name: input.name,
      private: input.private,
      createdAt: now,
      updatedAt: now,
    };
    await teamStatements(tx).insertTeam(row);
    await addTeamMembers(tx, row.id, memberIds);
    if (row.private) privateTeamsChanged(tx, deps.db, ctx.workspaceId);
    // Ordered as every other answer lists member_ids (ORDER BY user_id; ids are ASCII, so JS order is SQLite's).
    const team = presentTeam(row, [...memberIds].sort());
    await appendEvent(tx, teamCreated, { workspaceId: ctx.workspaceId, data: { team } });
    await recordAudit(tx, ctx, {
      action: "team.created",
      entityType: "team",
      entityId: row.id,
      data: { name: team.name, member_ids: team.member_ids, private: team.private },
    });
    return team;
  });
}

export async function updateTeam(
  ctx: RequestContext,
  id: string,
  input: { name?: string; member_ids?: string[]; private?: boolean },
  deps: Deps,
): Promise<TeamJson> {
  return await transact(deps.db, async (tx) => {
    const current = await findTeamRow(tx, ctx.workspaceId, id);
    if (!current) throw notFound("Team");
    const before = await presentOne(tx, current);
    const memberIds = input.member_ids ? await checkMembers(tx, ctx.workspaceId, input.member_ids) : null;
    const changes: string[] = [];
    if (input.name !== undefined && input.name !== current.name) changes.push("name");
    if (input.private !== undefined && input.private !== current.private) changes.push("private");
    if (memberIds && JSON.stringify([...memberIds].sort()) !== JSON.stringify(before.member_ids))
      changes.push("member_ids");
    if (!changes.length) return before;
    const privateAfter = input.private ?? current.private;
    const membersChanged = changes.includes("member_ids");
    if ((privateAfter && membersChanged) || (current.private && !privateAfter)) assertMayGrantTeamAccess(ctx);
    const row = one(
      await tx
        .update(teams)
        .set({
          name: input.name ?? current.name,
          private: input.private ?? current.private,
          updatedAt: deps.clock.now().toISOString(),
        })
        .where(eq(teams.id, id))
        .returning(),
    );
    if (memberIds && changes.includes("member_ids")) await setTeamMembers(tx, id, memberIds);
    if (current.private || privateAfter) privateTeamsChanged(tx, deps.db, ctx.workspaceId);
    const team = await presentOne(tx, row);
    await appendEvent(tx, teamUpdated, { workspaceId: ctx.workspaceId, data: { team } });
    await recordAudit(tx, ctx, {
      action: "team.updated",
      entityType: "team",
      entityId: id,
      data: {
        changes,
        ...Object.fromEntries(
          changes.map((c) => [c, { from: before[c as keyof TeamJson], to: team[c as keyof TeamJson] }]),
        ),
      },
    });
    return team;
  });
}

export async function deleteTeam(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const row = first(
      await tx
        .delete(teams)
        .where(and(eq(teams.workspaceId, ctx.workspaceId), eq(teams.id, id)))
        .returning(),
    );
    if (!row) throw notFound("Team");
    if (row.private) privateTeamsChanged(tx, deps.db, ctx.workspaceId);
    await appendEvent(tx, teamDeleted, { workspaceId: ctx.workspaceId, data: { team_id: id } });
    await recordAudit(tx, ctx, { action: "team.deleted", entityType: "team", entityId: id, data: { name: row.name } });
  });
}

/** Which of `teamIds` are teams of the workspace. */
export async function teamsAmong(tx: Queryable, workspaceId: string, teamIds: string[]): Promise<Set<string>> {
  if (!teamIds.length) return new Set();
  const rows = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.workspaceId, workspaceId), inArray(teams.id, teamIds)));
  return new Set(rows.map((r) => r.id));
}
