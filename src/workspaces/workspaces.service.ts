import { and, eq, isNull } from "drizzle-orm";
import type { UserContext } from "../auth/context";
import type { Db } from "../db/database";
import { withTx } from "../db/tx";
import { appendEvent } from "../events/append";
import { newId, randomToken } from "../lib/ids";
import { slugify } from "../lib/slug";
import type { SecretBox } from "../lib/crypto";
import { members, workspaces } from "./workspaces.table";
import { presentWorkspace } from "./workspaces.present";

export type CreateWorkspaceInput = { name: string; slug?: string };

function freeSlug(db: Db, wanted: string): string {
  const base = slugify(wanted) || "workspace";
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}-${n + 1}`;
    const taken = db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, candidate)).get();
    if (!taken) return candidate;
  }
}

/** Creates a workspace with the caller as its owner. */
export function createWorkspace(user: Pick<UserContext, "userId">, input: CreateWorkspaceInput, deps: { db: Db; secrets: SecretBox }) {
  const now = new Date().toISOString();
  const id = newId();
  const slug = freeSlug(deps.db, input.slug ?? input.name);
  return withTx(deps.db, (tx) => {
    const row = tx
      .insert(workspaces)
      .values({
        id,
        name: input.name,
        slug,
        widgetKey: `wk_${randomToken(16)}`,
        widgetSecretSealed: deps.secrets.seal(randomToken(32)),
        settings: {},
        images: {},
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    tx.insert(members).values({ workspaceId: id, userId: user.userId, role: "owner", createdAt: now }).run();
    appendEvent(tx, { workspaceId: id, type: "workspace.updated", data: { workspace: presentWorkspace(row) } });
    return row;
  });
}

export function findWorkspace(db: Db, workspaceId: string) {
  return db.select().from(workspaces).where(and(eq(workspaces.id, workspaceId), isNull(workspaces.deletedAt))).get();
}
