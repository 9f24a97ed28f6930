import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../lib/api/client";
import { canAdmin, canWrite, useRole } from "../lib/api/session";
import type { Onboarding } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { onboardingKeys } from "./onboarding.queries";

/** Where the app turns into its phone layout (styles.css): the steps would take half the inbox there. */
const PHONE = "(max-width: 900px)";

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
        <h2 id="onboarding-title">Get started with Desk</h2>
        <span className="muted small" aria-live="polite">
          {data.done_count} of {data.total} done
        </span>
        <button
          type="button"
          className="btn btn-ghost"
          aria-expanded={expanded}
          aria-controls="onboarding-steps"
          onClick={() => setExpanded((v) => !v)}
        >
          {expanded ? "Hide steps" : "Show steps"}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => dismiss.mutate()}
          disabled={dismiss.isPending}
          aria-label="Dismiss the setup checklist"
        >
          Dismiss
        </button>
      </div>
      <progress max={data.total} value={data.done_count} aria-label="Setup progress" />
      <ol className="onboarding-steps" id="onboarding-steps" hidden={!expanded}>
        {data.steps.map((step) => (
          <li key={step.id} className={step.done ? "done" : ""}>
            <span className="onboarding-mark" aria-hidden="true">
              {step.done ? "✓" : "○"}
            </span>
            <div>
              {step.done || !may(step.requires) ? (
                <strong>{step.title}</strong>
              ) : (
                <Link to={step.href}>
                  <strong>{step.title}</strong>
                </Link>
              )}
              <span className="visually-hidden">{step.done ? " (done)" : " (to do)"}</span>
              <div className="muted small">
                {step.description}
                {!step.done && !may(step.requires) && " An admin can do this."}
              </div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
