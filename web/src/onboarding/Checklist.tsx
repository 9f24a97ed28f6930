import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../lib/api/client";
import { canAdmin, canWrite, useRole } from "../lib/api/session";
import type { Onboarding } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { onboardingKeys } from "./onboarding.queries";
import { type MessageKey, t } from "../lib/i18n/i18n";

/** Where the app turns into its phone layout (styles.css): the steps would take half the inbox there. */
const PHONE = "(max-width: 900px)";

/**
 * The steps' words in the reader's language, by step id; a step this app does not know yet shows
 * the English title and description the server sends.
 */
const STEP_TEXT: Record<string, [MessageKey, MessageKey]> = {
  connect_mailbox: ["onboarding.connectMailboxTitle", "onboarding.connectMailboxText"],
  invite_teammate: ["onboarding.inviteTeammateTitle", "onboarding.inviteTeammateText"],
  upload_photo: ["onboarding.uploadPhotoTitle", "onboarding.uploadPhotoText"],
  install_widget: ["onboarding.installWidgetTitle", "onboarding.installWidgetText"],
  publish_article: ["onboarding.publishArticleTitle", "onboarding.publishArticleText"],
  setup_triage: ["onboarding.setupTriageTitle", "onboarding.setupTriageText"],
  create_label: ["onboarding.createLabelTitle", "onboarding.createLabelText"],
  try_assistant: ["onboarding.tryAssistantTitle", "onboarding.tryAssistantText"],
};
const stepText = (step: { id: string; title: string; description: string }) => {
  const keys = STEP_TEXT[step.id];
  return keys ? { title: t(keys[0]), description: t(keys[1]) } : step;
};

/**
 * The setup checklist of a new workspace (GET /v1/onboarding), above the inbox until the person
 * dismisses it or every step is done. Steps the person's role cannot do say who can. On a phone
 * only its heading and progress show until the person opens the steps.
 */
export function OnboardingChecklist() {
  const role = useRole();
  const client = useQueryClient();
  const [expanded, setExpanded] = useState(() => !window.matchMedia?.(PHONE).matches);
  const onboarding = useQuery({
    queryKey: onboardingKeys.current,
    queryFn: () => api<Onboarding>("/onboarding"),
    staleTime: 60_000,
  });
  const dismiss = useMutation({
    mutationFn: () => api("/onboarding/dismiss", { method: "POST" }),
    onSuccess: () =>
      client.setQueryData<Onboarding>(onboardingKeys.current, (o) => (o ? { ...o, dismissed: true } : o)),
  });
  const data = onboarding.data;
  if (!data || data.dismissed || data.done_count === data.total || role === "viewer") return null;
  const may = (requires: "admin" | "agent") => (requires === "admin" ? canAdmin(role) : canWrite(role));
  return (
    <section className="onboarding" aria-labelledby="onboarding-title">
      <div className="onboarding-head">
        <h2 id="onboarding-title">{t("onboarding.title")}</h2>
        <span className="muted small" aria-live="polite">
          {t("onboarding.progress", { done: data.done_count, total: data.total })}
        </span>
        <button
          type="button"
          className="btn btn-ghost"
          aria-expanded={expanded}
          aria-controls="onboarding-steps"
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? t("onboarding.hideSteps") : t("onboarding.showSteps")}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => dismiss.mutate()}
          disabled={dismiss.isPending}
          aria-label={t("onboarding.dismissLabel")}
        >
          {t("onboarding.dismiss")}
        </button>
      </div>
      <progress max={data.total} value={data.done_count} aria-label={t("onboarding.progressLabel")} />
      <ol className="onboarding-steps" id="onboarding-steps" hidden={!expanded}>
        {data.steps.map((step) => (
          <li key={step.id} className={step.done ? "done" : ""}>
            <span className="onboarding-mark" aria-hidden="true">
              {step.done ? "✓" : "○"}
            </span>
            <div>
              {step.done || !may(step.requires) ? (
                <strong>{stepText(step).title}</strong>
              ) : (
                <Link to={step.href}>
                  <strong>{stepText(step).title}</strong>
                </Link>
              )}
              <span className="visually-hidden">{step.done ? t("onboarding.stepDone") : t("onboarding.stepToDo")}</span>
              <div className="muted small">
                {stepText(step).description}
                {!step.done && !may(step.requires) && t("onboarding.adminOnly")}
              </div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
