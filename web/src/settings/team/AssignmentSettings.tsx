import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../../lib/api/client";
import type { Assignment } from "../../lib/api/types";
import { useMailboxes } from "../../lib/resources/mailboxes";
import { useTeams } from "../../lib/resources/teams";
import { t } from "../../lib/i18n/i18n";
import { Field, FormError } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { workspaceKeys } from "../../lib/resources/workspace";
import { assignmentKeys } from "./team.queries";

type Mode = Assignment["mode"];
type Rule = Assignment["rules"][number];
/** A rule being edited, with a key of its own for React (rules have no id). */
type Row = Rule & { key: number };
let nextKey = 0;
const row = (rule: Rule): Row => ({ ...rule, key: ++nextKey });

const modes = (): Array<[Mode, string]> => [
  ["none", t("settings.assignmentModeNone")],
  ["round_robin", t("settings.assignmentModeRoundRobin")],
  ["load_balanced", t("settings.assignmentModeLoadBalanced")],
];

/** Settings → Assignment: the workspace's mode, rules per mailbox and team, auto-away. */
export default function AssignmentSettings() {
  const assignment = useQuery({ queryKey: assignmentKeys.current, queryFn: () => api<Assignment>("/assignment") });
  if (assignment.isPending) return <Loading />;
  if (assignment.isError) return <ErrorBox error={assignment.error} retry={() => assignment.refetch()} />;
  return <AssignmentForm initial={assignment.data} />;
}

function AssignmentForm({ initial }: { initial: Assignment }) {
  const client = useQueryClient();
  const teams = useTeams();
  const mailboxes = useMailboxes();
  const [mode, setMode] = useState<Mode>(initial.mode);
  const [away, setAway] = useState(String(initial.auto_away_minutes));
  const [rules, setRules] = useState<Row[]>(() => initial.rules.map(row));
  const save = useMutation({
    mutationFn: (body: Assignment) => api<Assignment>("/assignment", { method: "PATCH", body }),
    onSuccess: (answer) => {
      client.setQueryData(assignmentKeys.current, answer);
      client.invalidateQueries({ queryKey: workspaceKeys.current });
    },
  });
  const targets = (type: Rule["target_type"]) =>
    type === "team"
      ? (teams.data ?? []).map((team) => ({ id: team.id, name: team.name }))
      : (mailboxes.data ?? []).map((m) => ({ id: m.id, name: m.name || m.email }));
  const update = (i: number, patch: Partial<Rule>) =>
    setRules((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      mode,
      rules: rules.map(({ key: _key, ...rule }) => rule),
      auto_away_minutes: Number(away),
    });
  };
  const ruleError = (i: number) =>
    save.error instanceof ApiError
      ? save.error.errors.find((x) => x.location.startsWith(`body.rules.${i}`))?.message
      : undefined;

  return (
    <div className="settings-page">
      <h1>{t("settings.navAssignment")}</h1>
      <p className="muted">{t("settings.assignmentIntro")}</p>
      <form onSubmit={submit} noValidate>
        <Field label={t("settings.assignmentMode")} name="mode" error={save.error}>
          <select value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            {modes().map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={t("settings.assignmentAutoAway")}
          name="auto_away_minutes"
          error={save.error}
          hint={t("settings.assignmentAutoAwayHint")}
        >
          <input type="number" min={0} max={1440} value={away} onChange={(e) => setAway(e.target.value)} />
        </Field>
        <h2>{t("settings.assignmentRules")}</h2>
        {rules.length === 0 && <p className="muted">{t("settings.assignmentNoRules")}</p>}
        <ul className="rule-list">
          {rules.map((rule, i) => (
            <li key={rule.key} className="inline-form">
              <select
                aria-label={t("settings.assignmentRuleAppliesTo", { n: i + 1 })}
                value={rule.target_type}
                onChange={(e) =>
                  update(i, {
                    target_type: e.target.value as Rule["target_type"],
                    target_id: targets(e.target.value as Rule["target_type"])[0]?.id ?? "",
                  })
                }
              >
                <option value="team">{t("settings.assignmentTargetTeam")}</option>
                <option value="mailbox">{t("settings.assignmentTargetMailbox")}</option>
              </select>
              <select
                aria-label={t("settings.assignmentRuleTarget", { n: i + 1, target: rule.target_type })}
                value={rule.target_id}
                onChange={(e) => update(i, { target_id: e.target.value })}
              >
                {targets(rule.target_type).map((target) => (
                  <option key={target.id} value={target.id}>
                    {target.name}
                  </option>
                ))}
              </select>
              <select
                aria-label={t("settings.assignmentRuleMode", { n: i + 1 })}
                value={rule.mode}
                onChange={(e) => update(i, { mode: e.target.value as Mode })}
              >
                {modes().map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={t("settings.assignmentRemoveRule", { n: i + 1 })}
                onClick={() => setRules((rs) => rs.filter((_, j) => j !== i))}
              >
                {t("settings.remove")}
              </button>
              {ruleError(i) && (
                <span className="field-error" role="alert">
                  {ruleError(i)}
                </span>
              )}
            </li>
          ))}
        </ul>
        <div className="form-actions">
          <button
            type="button"
            className="btn"
            disabled={!teams.data?.length && !mailboxes.data?.length}
            onClick={() => {
              const type: Rule["target_type"] = teams.data?.length ? "team" : "mailbox";
              setRules((rs) => [
                ...rs,
                row({ target_type: type, target_id: targets(type)[0]?.id ?? "", mode: "round_robin" }),
              ]);
            }}
          >
            {t("settings.assignmentAddRule")}
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t("common.save")}
          </button>
          {save.isSuccess && <span className="muted small">{t("settings.savedSentence")}</span>}
        </div>
        <FormError error={save.error} fields={["mode", "auto_away_minutes"]} />
      </form>
    </div>
  );
}
