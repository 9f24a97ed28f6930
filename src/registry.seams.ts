import type { AssignAfterTriage, GroundingSources, TriageSettingsReader } from "./ai/ai.public";
import { AUTOMATION_TRIAGE_JOB, aiJudge, aiWorkspaceOf, assignsAfterTriage } from "./ai/ai.public";
import type { AutomationsOptions } from "./automations/automations.public";
import { enqueueByName } from "./jobs/enqueue";
import { assistantTried } from "./assistant/assistant.public";
import { autoAssignTicket } from "./assignment/assignment.public";
import { featuredArticles, searchPublishedArticleTexts } from "./kb/kb.public";
import type { OnboardingProbes } from "./onboarding/onboarding.public";
import { triageSettingsOf } from "./triage/triage.public";
import { widgetHasVisitors, widgetKeyOnSite } from "./widget/widget.public";
import { firstMailboxOf } from "./mailboxes/mailboxes.public";
import type { ArticlesForQuestion } from "./widget-answers/widget-answers.public";
import type { Deps } from "./deps";
import { type ContactChannelsOf, helpCenterUrlOf } from "./help-center/help-center.public";
import { findWorkspace } from "./workspaces/workspaces.public";

/**
 * The functions one feature lends another through the registry, where neither may import the
 * other (src/registry.ts passes them as module parameters). Each adapts an owner's public file to
 * the seam type its user declared.
 */

/** The workspace's published articles a query finds, with their text, linked on its help center when it is on. */
function publishedArticlesFor(
  deps: Pick<Deps, "db" | "config">,
  workspaceId: string,
  query: string,
  limit: number,
): Array<{ article_id: string; title: string; url: string; text: string }> {
  const workspace = findWorkspace(deps.db, workspaceId);
  if (!workspace) return [];
  // No link while the help center is off: it would answer 404.
  const center = helpCenterUrlOf(deps.config.baseUrl, workspace);
  return searchPublishedArticleTexts(deps.db, workspaceId, query, limit).map((article) => ({
    article_id: article.id,
    title: article.title,
    url: center ? `${center}/articles/${encodeURIComponent(article.slug)}` : "",
    text: article.text,
  }));
}

/** Drafts and answers ground on the workspace's published articles, linked on its help center. */
export const kbGrounding: GroundingSources = (deps, { workspaceId, query, limit }) =>
  publishedArticlesFor(deps, workspaceId, query, limit);

/** The chat widget's AI answers from the published articles the visitor's question finds. */
export const widgetArticles: ArticlesForQuestion = (deps, workspaceId, question) =>
  publishedArticlesFor(deps, workspaceId, question, 5).map(({ title, url, text }) => ({ title, url, text }));

/**
 * Where the help center's "Contact us" leads: the chat widget when it is installed (on, allowed on
 * the help center's own origin, and has had visitors), else the default (first) mailbox's address.
 */
export const helpCenterContact: ContactChannelsOf = (db, workspaceId, baseUrl) => ({
  widgetKey: widgetKeyOnSite(db, workspaceId, new URL(baseUrl).origin),
  email: firstMailboxOf(db, workspaceId)?.email ?? null,
});

/** Triage runs obey the workspace's triage settings (GET/PATCH /v1/triage). */
export const triageSettings: TriageSettingsReader = (db, workspaceId) => {
  const settings = triageSettingsOf(db, workspaceId);
  return {
    auto_triage: settings.autoTriage,
    fields: settings.fields,
    threshold: settings.threshold,
    assign_after_triage: settings.assignAfterTriage,
  };
};

/** After an automatic triage, the assignment rules pick the assignee when `assign_after_triage` is on. */
export const assignAfterTriage: AssignAfterTriage = (deps, workspaceId, ticketId) => {
  autoAssignTicket(deps, workspaceId, ticketId);
};

/** Assignment on creation waits when an automatic triage will assign after itself. */
export const assignmentWaitsForTriage = assignsAfterTriage({ readSettings: triageSettings, engine: null });

/** Automations' sentiment and ai_decide conditions (one call per automation), and their ai_triage action (a job). */
export const automationAi: AutomationsOptions = {
  aiJudge: (request, { deps }) =>
    aiJudge(deps, {
      workspaceId: request.workspaceId,
      ticketId: request.ticketId,
      sentiment: request.sentiment,
      questions: request.questions,
    }),
  aiTriage: (tx, request, deps) => {
    if (!deps.config.ai) return "AI is not configured on this instance (DESK_AI_BASE_URL)";
    if (!aiWorkspaceOf(deps, request.workspaceId).features.enabled) return "AI is off for this workspace";
    const queued = enqueueByName(
      tx,
      AUTOMATION_TRIAGE_JOB,
      { workspace_id: request.workspaceId, ticket_id: request.ticketId },
      { workspaceId: request.workspaceId, uniqueKey: `${AUTOMATION_TRIAGE_JOB}:${request.ticketId}` },
    );
    return queued === null ? "a triage of this ticket is already queued" : null;
  },
};

/** The checklist's steps whose feature sits above onboarding. */
export const onboardingProbes: OnboardingProbes = {
  install_widget: (db, ctx) => widgetHasVisitors(db, ctx.workspaceId),
  publish_article: (db, ctx) => featuredArticles(db, ctx.workspaceId, 1).length > 0,
  try_assistant: (db, ctx) => assistantTried(db, ctx.workspaceId),
};
