import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import { listOf } from "../../lib/api/queries";
import type { Page, Webhook, WebhookDelivery } from "../../lib/api/types";
import { timeAgo } from "../../lib/ui/bits";
import { Field, formValues } from "../../lib/ui/form";
import { Empty, ErrorBox, errorText, Loading } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { webhooksKeys } from "./developers.queries";

export default function WebhooksSettings() {
  const hooks = useCrud<Webhook>(webhooksKeys.list, "/webhooks");
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const events = v.events
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    hooks.create.mutate(
      { url: v.url, description: v.description || undefined, events: events.length ? events : ["*"] },
      {
        onSuccess: (w) => {
          setSecret(w.secret ?? null);
          form.reset();
        },
      },
    );
  };
  return (
    <div className="settings-page">
      <h1>Webhooks</h1>
      {secret && (
        <div className="secret" role="status">
          <strong>Signing secret, shown once:</strong> <code>{secret}</code>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      <CreateForm
        mutation={hooks.create}
        fields={["url", "events", "description"]}
        submitLabel="Add webhook"
        onSubmit={add}
      >
        <Field label="Endpoint URL" name="url" error={hooks.create.error} hint="HTTPS; private addresses are refused.">
          <input name="url" type="url" placeholder="https://example.com/desk-events" />
        </Field>
        <div className="row2">
          <Field label="Events" name="events" error={hooks.create.error} hint="Comma separated, or empty for all.">
            <input name="events" placeholder="ticket.created, message.created" />
          </Field>
          <Field label="Description" name="description" error={hooks.create.error}>
            <input name="description" />
          </Field>
        </div>
      </CreateForm>
      <CrudList query={hooks.list} empty={<Empty title="No webhooks" />}>
        {(rows) =>
          rows.map((w) => (
            <div className="card" key={w.id}>
              <div className="card-head">
                <code>{w.url}</code>
                <span className="muted small">{w.events.join(", ")}</span>
                <div className="grow" />
                <label className="check small">
                  <input
                    type="checkbox"
                    checked={w.enabled}
                    onChange={(e) => hooks.update.mutate({ id: w.id, enabled: e.target.checked })}
                  />{" "}
                  Enabled
                </label>
                <TestButton id={w.id} />
                <button type="button" className="btn btn-small" onClick={() => setOpen(open === w.id ? null : w.id)}>
                  {open === w.id ? "Hide log" : "Delivery log"}
                </button>
                <DeleteButton question={"Delete this webhook?"} onDelete={() => hooks.remove.mutate(w.id)} />
              </div>
              <Circuit webhook={w} />
              {open === w.id && <Deliveries id={w.id} />}
            </div>
          ))
        }
      </CrudList>
      <ChangeError mutations={[hooks.update, hooks.remove]} />
    </div>
  );
}

function TestButton({ id }: { id: string }) {
  const test = useMutation({ mutationFn: () => api(`/webhooks/${id}/test`, { body: {} }) });
  return (
    <button
      type="button"
      className="btn btn-small"
      onClick={() => test.mutate()}
      disabled={test.isPending}
      title={test.isError ? errorText(test.error) : undefined}
    >
      {test.isSuccess ? "Test sent" : test.isError ? "Test failed" : "Send test"}
    </button>
  );
}

/** The endpoint's circuit breaker: failures in a row, and the pause during which its deliveries wait. */
function Circuit({ webhook }: { webhook: Webhook }) {
  const paused = webhook.paused_until !== null && new Date(webhook.paused_until).getTime() > Date.now();
  if (!paused && webhook.consecutive_failures === 0) return null;
  return (
    <div className="notice-warn" role="note">
      {paused
        ? `Paused after ${webhook.consecutive_failures} failed attempts in a row: deliveries wait until ${new Date(
            webhook.paused_until ?? "",
          ).toLocaleString()}, then are tried again.`
        : `${webhook.consecutive_failures} failed attempt${webhook.consecutive_failures === 1 ? "" : "s"} in a row. After 5, deliveries pause.`}
    </div>
  );
}

function Deliveries({ id }: { id: string }) {
  const log = useQuery({
    queryKey: webhooksKeys.deliveries(id),
    queryFn: async () => listOf(await api<WebhookDelivery[] | Page<WebhookDelivery>>(`/webhooks/${id}/deliveries`)),
    refetchInterval: 5000,
  });
  if (log.isPending) return <Loading />;
  if (log.isError) return <ErrorBox error={log.error} />;
  if (!log.data.length) return <div className="muted small">No deliveries yet.</div>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th>Attempts</th>
          <th>Response</th>
          <th>Time</th>
          <th>When</th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((d) => (
          <tr key={d.id}>
            <td>{d.event_type}</td>
            <td>
              <span className={`pill pill-${d.status}`}>{d.status}</span>
            </td>
            <td className="num">{d.attempts}</td>
            <td>{d.response_code ?? "—"}</td>
            <td>{d.duration_ms != null ? `${d.duration_ms} ms` : "—"}</td>
            <td className="muted">{timeAgo(d.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
