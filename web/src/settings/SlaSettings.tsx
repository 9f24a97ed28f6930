import { type FormEvent, useState } from "react";
import { PRIORITIES, type SlaPolicy } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { statusLabel } from "../lib/ui/bits";
import { Field, FormError, formValues } from "../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../lib/ui/states";
import { minutesText } from "../lib/sla-time";
import { useCrud } from "./crud";

const number = (value: string | undefined) => (value ? Number(value) : undefined);

export default function SlaSettings() {
  const policies = useCrud<SlaPolicy>("sla-policies", "/sla-policies");
  const [first, setFirst] = useState("");
  const [resolution, setResolution] = useState("");
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    policies.create.mutate(
      {
        name: v.name,
        priority: v.priority || null,
        first_response_minutes: number(v.first_response_minutes),
        resolution_minutes: number(v.resolution_minutes),
        business_hours: v.business_hours === "on",
      },
      {
        onSuccess: () => {
          form.reset();
          setFirst("");
          setResolution("");
        },
      },
    );
  };
  const list = policies.list.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const target = list[index + by];
    if (target) policies.update.mutate({ id: list[index]!.id, position: index + by });
  };
  const hint = (value: string) => (Number(value) > 0 ? minutesText(Number(value)) : "whole minutes");
  return (
    <div className="settings-page">
      <h1>SLA policies</h1>
      <p className="muted small">
        A ticket follows the first enabled policy, top to bottom, whose priority matches (or “Any”). A policy counting
        business hours uses the <Link to="/settings/business-hours">business hours</Link>.
      </p>
      <form className="stack narrow card" onSubmit={add} noValidate aria-label="New SLA policy">
        <div className="row2">
          <Field label="Name" name="name" error={policies.create.error}>
            <input name="name" placeholder="Urgent tickets" />
          </Field>
          <Field label="Priority" name="priority" error={policies.create.error}>
            <select name="priority" defaultValue="">
              <option value="">Any</option>
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {statusLabel(p)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="row2">
          <Field
            label="First response within (minutes)"
            name="first_response_minutes"
            error={policies.create.error}
            hint={hint(first)}
          >
            <input
              name="first_response_minutes"
              type="number"
              min={1}
              inputMode="numeric"
              value={first}
              onChange={(e) => setFirst(e.target.value)}
            />
          </Field>
          <Field
            label="Resolution within (minutes)"
            name="resolution_minutes"
            error={policies.create.error}
            hint={hint(resolution)}
          >
            <input
              name="resolution_minutes"
              type="number"
              min={1}
              inputMode="numeric"
              value={resolution}
              onChange={(e) => setResolution(e.target.value)}
            />
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" name="business_hours" /> Count business hours only
        </label>
        <FormError
          error={policies.create.error}
          fields={["name", "priority", "first_response_minutes", "resolution_minutes"]}
        />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={policies.create.isPending}>
            Add policy
          </button>
        </div>
      </form>
      {policies.list.isPending ? (
        <Loading />
      ) : policies.list.isError ? (
        <ErrorBox error={policies.list.error} retry={() => policies.list.refetch()} />
      ) : list.length === 0 ? (
        <Empty title="No SLA policies yet">Tickets have no deadlines until a policy matches them.</Empty>
      ) : (
        <table className="table" aria-label="SLA policies">
          <thead>
            <tr>
              <th>Order</th>
              <th>Name</th>
              <th>Priority</th>
              <th>First response</th>
              <th>Resolution</th>
              <th>Hours</th>
              <th>Enabled</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((p, index) => (
              <tr key={p.id}>
                <td className="nowrap">
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    aria-label={`Move ${p.name} up`}
                    disabled={index === 0 || policies.update.isPending}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    aria-label={`Move ${p.name} down`}
                    disabled={index === list.length - 1 || policies.update.isPending}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                </td>
                <td>{p.name}</td>
                <td>{p.priority ? statusLabel(p.priority) : "Any"}</td>
                <td>{minutesText(p.first_response_minutes)}</td>
                <td>{minutesText(p.resolution_minutes)}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${p.name}: business hours only`}
                    checked={p.business_hours}
                    onChange={(e) => policies.update.mutate({ id: p.id, business_hours: e.target.checked })}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Enable ${p.name}`}
                    checked={p.enabled}
                    onChange={(e) => policies.update.mutate({ id: p.id, enabled: e.target.checked })}
                  />
                </td>
                <td className="right">
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    onClick={() => policies.remove.mutate(p.id)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(policies.update.isError || policies.remove.isError) && (
        <div className="form-error" role="alert">
          {errorText(policies.update.error ?? policies.remove.error)}
        </div>
      )}
    </div>
  );
}
