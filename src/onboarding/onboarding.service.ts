import { first } from "../db/store";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { anyInvitationIn } from "../invitations/invitations.public";
import { labelCount } from "../labels/labels.public";
import { firstMailboxOf } from "../mailboxes/mailboxes.public";
import { memberIdsOfWorkspace } from "../members/members.public";
import { triageSettingsOf } from "../triage/triage.public";
import { userRef } from "../identity/identity.public";
import type { OnboardingSchema, OnboardingStepId } from "./onboarding.schemas";
import { onboardingDismissals } from "./onboarding.table";

/** A check of workspace state for one step; the caller's own state where the step is personal. */
export type OnboardingProbe = (db: Queryable, ctx: RequestContext) => boolean | Promise<boolean>;

/**
 * Checks for steps whose feature lives in a module built on top of this one (the widget, the
 * knowledge base, the assistant): they provide them through ports; a step without one reads false.
 */
export type OnboardingProbes = Partial<Record<"install_widget" | "publish_article" | "try_assistant", OnboardingProbe>>;

type StepText = { title: string; description: string; href: string; requires: "admin" | "agent" };

const STEPS: Record<OnboardingStepId, StepText> = {
  connect_mailbox: {
    title: "Connect a mailbox",
    description: "Forward your support address to Desk, or connect it over IMAP, so customer email becomes tickets.",
    href: "/settings/mailboxes",
    requires: "admin",
  },
  invite_teammate: {
    title: "Invite a teammate",
    description: "Support is a team sport: invite the people who answer customers with you.",
    href: "/settings/members",
    requires: "admin",
  },
  upload_photo: {
    title: "Upload your photo",
    description: "Customers and teammates recognise you faster with a face beside your name.",
    href: "/profile",
    requires: "agent",
  },
  install_widget: {
    title: "Install the chat widget",
    description: "Add one script tag to your website so customers can chat with you.",
    href: "/settings/widget",
    requires: "admin",
  },
  publish_article: {
    title: "Publish a help article",
    description: "Answer common questions once in the help center, so customers find answers themselves.",
    href: "/kb",
    requires: "agent",
  },
  setup_triage: {
    title: "Turn on triage",
    description: "Let Desk set priority, severity and labels on new tickets as they arrive.",
    href: "/settings/triage",
    requires: "admin",
  },
  create_label: {
    title: "Create a label",
    description: "Labels group tickets by topic, so views and reports can follow them.",
    href: "/settings/labels",
    requires: "agent",
  },
  try_assistant: {
    title: "Try the assistant",
    description: "Ask the assistant about your tickets or to draft a change for you to approve.",
    href: "/assistant",
    requires: "agent",
  },
};

async function isDismissed(db: Queryable, workspaceId: string, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return (
    first(
      await db
        .select({ at: onboardingDismissals.dismissedAt })
        .from(onboardingDismissals)
        .where(and(eq(onboardingDismissals.workspaceId, workspaceId), eq(onboardingDismissals.userId, userId)))
        .limit(1),
    ) !== undefined
  );
}

/** The checklist from what the workspace holds now: nothing is stored per step. */
export async function onboardingOf(
  db: Queryable,
  ctx: RequestContext,
  probes: OnboardingProbes,
): Promise<z.infer<typeof OnboardingSchema>> {
  const userId = actorUserId(ctx);
  const checks: Record<OnboardingStepId, () => boolean | Promise<boolean>> = {
    connect_mailbox: async () => (await firstMailboxOf(db, ctx.workspaceId)) !== undefined,
    invite_teammate: async () =>
      (await memberIdsOfWorkspace(db, ctx.workspaceId)).length > 1 || (await anyInvitationIn(db, ctx.workspaceId)),
    upload_photo: async () => (userId ? Boolean((await userRef(db, userId))?.avatar_url) : false),
    install_widget: async () => (await probes.install_widget?.(db, ctx)) ?? false,
    publish_article: async () => (await probes.publish_article?.(db, ctx)) ?? false,
    setup_triage: async () => (await triageSettingsOf(db, ctx.workspaceId)).autoTriage,
    create_label: async () => (await labelCount(db, ctx.workspaceId)) > 0,
    try_assistant: async () => (await probes.try_assistant?.(db, ctx)) ?? false,
  };
  const steps = await Promise.all(
    (Object.keys(STEPS) as OnboardingStepId[]).map(async (id) => ({ id, ...STEPS[id], done: await checks[id]() })),
  );
  return {
    steps,
    done_count: steps.filter((s) => s.done).length,
    total: steps.length,
    dismissed: await isDismissed(db, ctx.workspaceId, userId),
  };
}

/** Hides the checklist for the caller in this workspace (idempotent). */
export async function dismissOnboarding(ctx: RequestContext, deps: Deps): Promise<void> {
  const userId = actorUserId(ctx);
  if (!userId) return;
  const now = deps.clock.now().toISOString();
  await transact(
    deps.db,
    async (tx) =>
      await tx
        .insert(onboardingDismissals)
        .values({ workspaceId: ctx.workspaceId, userId, dismissedAt: now })
        .onConflictDoNothing(),
  );
}
