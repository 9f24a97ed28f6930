import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../../lib/api/client";
import type { Assignment } from "../../lib/api/types";
import { useMailboxes } from "../../lib/resources/mailboxes";
import { useTeams } from "../../lib/resources/teams";
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

const MODES: Array<[Mode, string]> = [
  ["none", "Off (tickets stay unassigned)"],
  ["round_robin", "Round robin (take turns)"],
  ["load_balanced", "Load balanced (fewest open tickets)"],
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
      ? (teams.data ?? []).map((t) => ({ id: t.id, name: t.name }))
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
      <h1>Assignment</h1>
      <p className="muted">
        New unassigned tickets go to a member who is online and under their cap (set caps under Members). Viewers are
        never assigned. A rule for a ticket's team applies first, then one for its mailbox.
      </p>
      <form onSubmit={submit} noValidate>
        <Field label="Assign new tickets" name="mode" error={save.error}>
          <select value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            {MODES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Auto-away after (minutes)"
          name="auto_away_minutes"
          error={save.error}
          hint="0 turns it off; otherwise 10 to 1440. Members with no activity for this long show as away."
        >
          <input type="number" min={0} max={1440} value={away} onChange={(e) => setAway(e.target.value)} />
        </Field>
        <h2>Rules</h2>
        {rules.length === 0 && <p className="muted">No rules: every ticket follows the mode above.</p>}
        <ul className="rule-list">
          {rules.map((rule, i) => (
            <li key={rule.key} className="inline-form">
              <select
                aria-label={`Rule ${i + 1}: applies to`}
                value={rule.target_type}
                onChange={(e) =>
                  update(i, {
                    target_type: e.target.value as Rule["target_type"],
                    target_id: targets(e.target.value as Rule["target_type"])[0]?.id ?? "",
                  })
                }
              >
                <option value="team">Team</option>
                <option value="mailbox">Mailbox</option>
              </select>
              <select
                aria-label={`Rule ${i + 1}: ${rule.target_type}`}
                value={rule.target_id}
                onChange={(e) => update(i, { target_id: e.target.value })}
              >
                {targets(rule.target_type).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
              <select
                aria-label={`Rule ${i + 1}: mode`}
                value={rule.mode}
                onChange={(e) => update(i, { mode: e.target.value as Mode })}
              >
                {MODES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={`Remove rule ${i + 1}`}
                onClick={() => setRules((rs) => rs.filter((_, j) => j !== i))}
              >
                Remove
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
            Add rule
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save
          </button>
          {save.isSuccess && <span className="muted small">Saved.</span>}
        </div>
        <FormError error={save.error} fields={["mode", "auto_away_minutes"]} />
      </form>
    </div>
  );
}
