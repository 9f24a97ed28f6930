import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../../lib/api/client";
import type { TriageSettings as Triage } from "../../lib/api/types";
import { type MessageKey, t } from "../../lib/i18n/i18n";
import { Field, FormError } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { onboardingKeys } from "../../onboarding/onboarding.queries";
import { triageKeys } from "./automations.queries";

const FIELDS: ReadonlyArray<readonly [Triage["fields"][number], MessageKey]> = [
  ["priority", "workflow.triagePriority"],
  ["severity", "workflow.triageSeverity"],
  ["labels", "workflow.triageLabels"],
  ["team", "workflow.triageTeam"],
];

/** Triage settings (GET/PATCH /v1/triage): what triage may set by itself, and how sure it must be. */
export default function TriageSettings() {
  const client = useQueryClient();
  const triage = useQuery({ queryKey: triageKeys.current, queryFn: () => api<Triage>("/triage") });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Triage>("/triage", { method: "PATCH", body }),
    onSuccess: (saved) => {
      client.setQueryData(triageKeys.current, saved);
      client.invalidateQueries({ queryKey: onboardingKeys.current });
    },
  });
  if (triage.isPending) return <Loading />;
  if (triage.isError) return <ErrorBox error={triage.error} retry={() => triage.refetch()} />;
  const settings = triage.data;
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
      <h1>{t("workflow.triageTitle")}</h1>
      <p className="muted">
        {!settings.available
          ? t("workflow.triageUnavailable")
          : settings.engine.model
            ? t("workflow.triageRunsOn", { model: settings.engine.model })
            : t("workflow.triageRunsOnConfigured")}
      </p>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <label className="check">
          <input type="checkbox" name="auto_triage" defaultChecked={settings.auto_triage} /> {t("workflow.triageAuto")}
        </label>
        <fieldset className="fieldset">
          <legend>{t("workflow.triageFieldsLegend")}</legend>
          {FIELDS.map(([value, label]) => (
            <label key={value} className="check">
              <input type="checkbox" name="fields" value={value} defaultChecked={settings.fields.includes(value)} />{" "}
              {t(label)}
            </label>
          ))}
        </fieldset>
        <Field
          label={t("workflow.triageThreshold")}
          name="threshold"
          error={save.error}
          hint={t("workflow.triageThresholdHint", { min: 0.5, max: 0.99 })}
        >
          <input name="threshold" type="number" min={0.5} max={0.99} step={0.01} defaultValue={settings.threshold} />
        </Field>
        <label className="check">
          <input type="checkbox" name="assign_after_triage" defaultChecked={settings.assign_after_triage} />{" "}
          {t("workflow.triageAssignAfter")}
        </label>
        <FormError error={save.error} fields={["threshold"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isSuccess && !save.isPending ? t("workflow.saved") : t("common.save")}
          </button>
        </div>
      </form>
    </div>
  );
}
