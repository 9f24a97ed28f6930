import { first } from "../db/store";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import {
  aiQuietOn,
  aiWorkspaceOf,
  chatJson,
  dataBlock,
  microsToUsd,
  monthOf,
  unattendedSpendSince,
  system,
  toneLine,
  user,
  workspaceInstructions,
} from "../ai/ai.public";
import { DeskError } from "../lib/errors";
import { adminIdsOfWorkspace } from "../members/members.public";
import { notify, withFollowers } from "../notifications/notifications.public";
import { ticketOfWorkspace } from "../tickets/tickets.public";
import { widgetCapNotices, widgetHandoffMails, widgetHandoffs } from "./widget-answers.table";

/** A published article the visitor may be answered from (the widget passes the help center's). */
export type VisitorArticle = { title: string; url: string; text: string };

export type VisitorQuestion = {
  workspaceId: string;
  /** The chat ticket the visitor writes in. */
  conversationTicketId: string;
  question: string;
  articles: VisitorArticle[];
  signal?: AbortSignal;
};

/** Why the answer is what it is; `answered` is the only one without a handoff. */
export type AnswerOutcome =
  | "answered"
  | "not_known"
  | "low_confidence"
  | "requested"
  | "no_articles"
  | "cap_reached"
  | "disabled"
  | "provider_error"
  | "handed_off"
  | "over_budget";

export type VisitorAnswer = {
  /** Text to post to the visitor as the AI agent, or null when people answer (off, cap, provider down). */
  answer: string | null;
  /** True when a person should take the conversation over (agents were told unless AI is off or capped). */
  handoff: boolean;
  /** The articles the answer rests on (links also appear in the answer's text). */
  sources: Array<{ title: string; url: string }>;
  outcome: AnswerOutcome;
};

/** Below this confidence the AI does not answer: a person does. */
export const MIN_CONFIDENCE = 0.6;
/** Articles (and characters of each) put in front of the model. */
const MAX_ARTICLES = 6;
const MAX_ARTICLE_CHARS = 6000;

/** A visitor asking for a person, in the languages most help desks meet first. */
const ASKS_FOR_PERSON =
  /\b(human|real person|a person|someone real|(live |an? )?agent|representative|operator|support staff|talk to (someone|somebody)|speak to (someone|somebody))\b|\b(mensch|mitarbeiter)\b|\b(humain|conseiller|une personne)\b|\b(humano|una persona)\b/i;

export const NOT_KNOWN_TEXT =
  "I couldn't find the answer in our help articles, so I'm passing your question to a person on our team. They will reply here.";
export const HANDOFF_TEXT = "Of course: I'm passing you to a person on our team. They will reply here.";

const ANSWER_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["answer", "known", "confidence", "handoff_requested", "sources"],
  properties: {
    answer: { type: "string", description: "The reply to the visitor, from the articles only." },
    known: { type: "boolean", description: "False when the articles do not contain the answer." },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    handoff_requested: { type: "boolean", description: "True when the visitor asks for a person." },
    sources: { type: "array", items: { type: "integer" }, description: "Numbers of the articles used." },
  },
} as const;

type ModelAnswer = {
  answer: string;
  known: boolean;
  confidence: number;
  handoff_requested: boolean;
  sources: number[];
};

/**
 * Answers a chat visitor as the AI agent when the workspace turned `widget_answers` on: from the
 * given published articles only (links to the ones used), saying so when they do not hold the
 * answer. Hands off to a person (an `ai_handoff` notification to the ticket's assignee, else the
 * owners and admins, and to its followers) when the visitor asks for one, the model does not know or is unsure, or the
 * provider fails. Past `widget_monthly_cap_usd` (this UTC month's spend on the AI agent's cost
 * keys) it stays quiet and people answer; owners and admins hear `ai_cap_reached` once per month.
 * Once a conversation was handed off, the AI stays quiet in it (`handed_off`).
 * Each model call is metered under the `answer` cost key. Changes nothing else: posting the answer
 * and routing the conversation are the caller's.
 */
export async function answerVisitor(deps: Deps, input: VisitorQuestion): Promise<VisitorAnswer> {
  const quiet = (outcome: AnswerOutcome): VisitorAnswer => ({ answer: null, handoff: true, sources: [], outcome });
  if (!deps.config.ai) return quiet("disabled");
  const ws = await aiWorkspaceOf(deps, input.workspaceId);
  if (!ws.features.enabled || !ws.features.widget_answers) return quiet("disabled");
  if (await handedOff(deps, input.workspaceId, input.conversationTicketId)) return quiet("handed_off");
  // The visitor or their address spent their hourly AI allowance: people answer, nobody is paged.
  if (await aiQuietOn(deps.db, input.workspaceId, input.conversationTicketId)) return quiet("over_budget");
  if (await capReached(deps, input.workspaceId, ws.capMicros)) return quiet("cap_reached");

  if (ASKS_FOR_PERSON.test(input.question)) return await handOff(deps, input, "requested", HANDOFF_TEXT, []);
  const articles = input.articles.filter((a) => a.text.trim()).slice(0, MAX_ARTICLES);
  if (articles.length === 0) return await handOff(deps, input, "no_articles", NOT_KNOWN_TEXT, []);

  let reply: ModelAnswer;
  try {
    const result = await chatJson<ModelAnswer>(deps, {
      workspaceId: input.workspaceId,
      userId: null,
      feature: "answer",
      slot: "widget",
      maxTokens: 500,
      json: { name: "visitor_answer", schema: ANSWER_SCHEMA as unknown as Record<string, unknown> },
      signal: input.signal,
      messages: [
        system(
          "You are the help desk's assistant answering a visitor in the website chat.",
          "Answer ONLY from the numbered help articles given as data. If they do not contain the answer, set known to false and do not guess.",
          "Never invent facts, prices, policies or links. Keep the answer short (at most a few sentences).",
          "Set handoff_requested when the visitor asks for a person. Give the numbers of the articles you used in sources, and your confidence from 0 to 1.",
          toneLine(ws.features),
          workspaceInstructions(ws.features),
        ),
        user(
          ...articles.map((a, i) => dataBlock(`ARTICLE ${i + 1}: ${a.title}`, a.text.slice(0, MAX_ARTICLE_CHARS))),
          dataBlock("VISITOR QUESTION", input.question),
        ),
      ],
    });
    reply = result.value;
  } catch (error) {
    if (error instanceof DeskError && error.code === "client_closed") throw error;
    deps.logger.warn({ subsystem: "widget-answers", error: String(error) }, "AI answer failed: a person answers");
    return await handOff(deps, input, "provider_error", null, []);
  } finally {
    // The spend of this call may have reached the cap: owners and admins hear it now, not at the next visitor.
    await capReached(deps, input.workspaceId, ws.capMicros);
  }

  const used = [...new Set(Array.isArray(reply.sources) ? reply.sources : [])]
    .map((n) => articles[n - 1])
    .filter((a): a is VisitorArticle => a !== undefined)
    .map((a) => ({ title: a.title, url: a.url }));
  if (reply.handoff_requested) return await handOff(deps, input, "requested", HANDOFF_TEXT, []);
  if (!reply.known || !reply.answer?.trim()) return await handOff(deps, input, "not_known", NOT_KNOWN_TEXT, []);
  if (!(reply.confidence >= MIN_CONFIDENCE)) return await handOff(deps, input, "low_confidence", NOT_KNOWN_TEXT, []);
  const links = used.length ? `\n\n${used.map((s) => `${s.title}: ${s.url}`).join("\n")}` : "";
  const text = onlyKnownLinks(reply.answer.trim(), articles, deps.config.baseUrl);
  return { answer: `${text}${links}`, handoff: false, sources: used, outcome: "answered" };
}

/** What replaces a link the answer may not carry: the visitor sees that something was left out. */
export const LINK_REMOVED = "[link removed]";
const LINK = /\[([^\]\n]{0,200})\]\(([^)\s]{1,2000})\)|\b(?:https?:\/\/|www\.)[^\s<>"'`)\]]+/gi;

/**
 * The answer's links, kept only when they lead to one of the given published articles or stay on
 * the help center's own host (the desk's, or the articles'); any other is replaced. The model may
 * have read a link in the visitor's question (or been told to write one): a chat answer in the
 * workspace's name must not send visitors to a page nobody in the workspace published.
 */
export function onlyKnownLinks(text: string, articles: Array<{ url: string }>, baseUrl: string): string {
  const hosts = new Set<string>();
  for (const url of [baseUrl, ...articles.map((a) => a.url)]) {
    const host = hostOf(url);
    if (host) hosts.add(host);
  }
  const allowed = (url: string) => {
    const host = hostOf(url.startsWith("www.") ? `https://${url}` : url);
    return host !== null && hosts.has(host);
  };
  return text.replace(LINK, (match, label: string | undefined, target: string | undefined) => {
    if (target !== undefined) return allowed(target) ? match : `${label ?? ""} ${LINK_REMOVED}`.trim();
    // A sentence's last full stop or comma is not part of the address.
    const url = match.replace(/[.,;:!?]+$/, "");
    return allowed(url) ? match : `${LINK_REMOVED}${match.slice(url.length)}`;
  });
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.host.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** Tells people to take over (`ai_handoff`) and answers the visitor with `text`. */
async function handOff(
  deps: Deps,
  input: VisitorQuestion,
  outcome: AnswerOutcome,
  text: string | null,
  sources: VisitorAnswer["sources"],
): Promise<VisitorAnswer> {
  await transact(deps.db, async (tx) => {
    await tx
      .insert(widgetHandoffs)
      .values({
        workspaceId: input.workspaceId,
        ticketId: input.conversationTicketId,
        reason: outcome,
        createdAt: deps.clock.now().toISOString(),
      })
      .onConflictDoNothing();
    const ticket = await ticketOfWorkspace(tx, input.workspaceId, input.conversationTicketId);
    const told = ticket?.assigneeId ? [ticket.assigneeId] : await adminIdsOfWorkspace(tx, input.workspaceId);
    const recipients = ticket ? await withFollowers(tx, input.workspaceId, ticket.id, told) : told;
    for (const userId of recipients)
      await notify(
        tx,
        {
          workspaceId: input.workspaceId,
          userId,
          type: "ai_handoff",
          ticket: ticket ? { id: ticket.id, number: ticket.number, subject: ticket.subject } : null,
          data: { reason: outcome, question: input.question.slice(0, 500) },
          email: await handoffMailDue(tx, input.workspaceId, userId, deps.clock.now()),
        },
        deps.clock,
      );
  });
  return { answer: text, handoff: true, sources, outcome };
}

/** A conversation already handed to people: the AI agent does not answer in it again. */
const handedOff = async (deps: Deps, workspaceId: string, ticketId: string): Promise<boolean> =>
  first(
    await deps.db
      .select({ ticketId: widgetHandoffs.ticketId })
      .from(widgetHandoffs)
      .where(and(eq(widgetHandoffs.workspaceId, workspaceId), eq(widgetHandoffs.ticketId, ticketId)))
      .limit(1),
  ) !== undefined;

/**
 * True when this month's unattended spend (the AI agent's answers, and the system's own triage and
 * AI conditions: unattendedSpendSince) reached the cap (0 = no cap); announces it once per month.
 */
async function capReached(deps: Deps, workspaceId: string, capMicros: number): Promise<boolean> {
  if (capMicros <= 0) return false;
  const { month, start } = monthOf(deps.clock.now());
  if ((await unattendedSpendSince(deps.db, workspaceId, start)) < capMicros) return false;
  await transact(deps.db, async (tx) => await announceCap(tx, deps, workspaceId, month, capMicros));
  return true;
}

async function announceCap(tx: Tx, deps: Deps, workspaceId: string, month: string, capMicros: number): Promise<void> {
  const inserted = await tx
    .insert(widgetCapNotices)
    .values({ workspaceId, month, createdAt: deps.clock.now().toISOString() })
    .onConflictDoNothing()
    .returning({ month: widgetCapNotices.month });
  if (inserted.length === 0) return;
  for (const userId of await adminIdsOfWorkspace(tx, workspaceId))
    await notify(
      tx,
      { workspaceId, userId, type: "ai_cap_reached", ticket: null, data: { cap_usd: microsToUsd(capMicros) } },
      deps.clock,
    );
}

/** At most one handoff mail per person in this long (README "Chat widget"); later handoffs are notifications only. */
export const HANDOFF_MAIL_EVERY_MS = 15 * 60 * 1000;

/**
 * True when `userId` may be mailed about a handoff now, and then counts that mail: anonymous
 * visitors can ask for a person as often as they like, and each ask must not become a mail to
 * every owner and admin. The notification itself is always stored and shown.
 */
export async function handoffMailDue(tx: Tx, workspaceId: string, userId: string, now: Date): Promise<boolean> {
  const last = first(
    await tx
      .select({ mailedAt: widgetHandoffMails.mailedAt })
      .from(widgetHandoffMails)
      .where(and(eq(widgetHandoffMails.workspaceId, workspaceId), eq(widgetHandoffMails.userId, userId)))
      .limit(1),
  );
  if (last && Date.parse(last.mailedAt) > now.getTime() - HANDOFF_MAIL_EVERY_MS) return false;
  const mailedAt = now.toISOString();
  await tx
    .insert(widgetHandoffMails)
    .values({ workspaceId, userId, mailedAt })
    .onConflictDoUpdate({ target: [widgetHandoffMails.workspaceId, widgetHandoffMails.userId], set: { mailedAt } });
  return true;
}
