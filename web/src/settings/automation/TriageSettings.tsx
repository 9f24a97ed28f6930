import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../../lib/api/client";
import type { TriageSettings as Triage } from "../../lib/api/types";
import { Field, FormError } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { onboardingKeys } from "../../onboarding/onboarding.queries";
import { triageKeys } from "./automations.queries";

const FIELDS = [
  ["priority", "Priority"],
  ["severity", "Severity"],
  ["labels", "Labels"],
  ["team", "Team"],
] as const;

/** Triage settings (GET/PATCH /v1/triage): what triage may set by itself, and how sure it must be. */
export default function TriageSettings() {
  const client = useQueryClient();
  const triage = useQuery({ queryKey: triageKeys.current, queryFn: () => api<Triage>("/triage") });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Triage>("/triage", { method: "PATCH", body }),
    onSuccess: (t) => {
      client.setQueryData(triageKeys.current, t);
      client.invalidateQueries({ queryKey: onboardingKeys.current });
    },
  });
  if (triage.isPending) return <Loading />;
  if (triage.isError) return <ErrorBox error={triage.error} retry={() => triage.refetch()} />;
  const t = triage.data;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    save.mutate({
      auto_triage: form.get("auto_triage") === "on",
      assign_after_triage: form.get("assign_after_triage") === "on",
      fields: form.getAll("fields").map(String),
      threshold: Number(form.get("threshold")),
    });
  };
  return (
    <div className="settings-page">
      <h1>Triage</h1>
      <p className="muted">
        {t.available
          ? `Triage runs on ${t.engine.model || "the configured AI model"}.`
          : "No AI model is configured (or AI is off for this workspace): these settings apply once one is."}
      </p>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <label className="check">
          <input type="checkbox" name="auto_triage" defaultChecked={t.auto_triage} /> Triage new tickets automatically
        </label>
        <fieldset className="fieldset">
          <legend>Fields triage may set by itself</legend>
          {FIELDS.map(([value, label]) => (
            <label key={value} className="check">
              <input type="checkbox" name="fields" value={value} defaultChecked={t.fields.includes(value)} /> {label}
            </label>
          ))}
        </fieldset>
        <Field
          label="Confidence threshold"
          name="threshold"
          error={save.error}
          hint="From 0.5 to 0.99. Less certain decisions are kept as suggestions for an agent."
        >
          <input name="threshold" type="number" min={0.5} max={0.99} step={0.01} defaultValue={t.threshold} />
        </Field>
        <label className="check">
          <input type="checkbox" name="assign_after_triage" defaultChecked={t.assign_after_triage} /> Assign tickets
          after triage (instead of on arrival)
        </label>
        <FormError error={save.error} fields={["threshold"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isSuccess && !save.isPending ? "Saved" : "Save"}
          </button>
        </div>
      </form>
    </div>
  );
}
