import { inArray, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { ticketFollowers } from "./followers.table";
import { ticketReadStatements, ticketSqlParts } from "./tickets.statements";
import { tickets } from "./tickets.table";

/** Follower ids of many tickets in one query, in the order they followed. */
export async function followerIdsOf(db: Queryable, ticketIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ticketIds.length === 0) return out;
  const rows =
    ticketIds.length === 1
      ? // Every ticket presented alone (a create's answer, its events) asks this: compiled once per connection.
        await ticketReadStatements(db).followersOf(ticketIds[0]!)
      : await db
          .select({ ticketId: ticketFollowers.ticketId, userId: ticketFollowers.userId })
          .from(ticketFollowers)
          .where(inArray(ticketFollowers.ticketId, ticketIds))
          .orderBy(ticketFollowers.createdAt, ticketFollowers.userId);
  for (const row of rows) out.set(row.ticketId, [...(out.get(row.ticketId) ?? []), row.userId]);
  return out;
}

/** The list filter `follower=me|<user id>`: tickets that person follows (through the (workspace, user) index). */
export function followedBySql(db: Queryable, workspaceId: string, userId: string | null): SQL {
  if (!userId) return ticketSqlParts(db).noRowSql();
  return sql`${tickets.id} IN (SELECT ${ticketFollowers.ticketId} FROM ${ticketFollowers} WHERE ${ticketFollowers.workspaceId} = ${workspaceId} AND ${ticketFollowers.userId} = ${userId})`;
}
