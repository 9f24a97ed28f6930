import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../../lib/api/client";
import { listOf } from "../../lib/api/queries";
import type { Page, Webhook, WebhookDelivery } from "../../lib/api/types";
import { formatDateTime, formatNumber, t } from "../../lib/i18n/i18n";
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
      <h1>{t("settings.navWebhooks")}</h1>
      {secret && (
        <div className="secret" role="status">
          <strong>{t("settings.webhooksSecret")}</strong> <code>{secret}</code>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSecret(null)}>
            {t("settings.done")}
          </button>
        </div>
      )}
      <CreateForm
        mutation={hooks.create}
        fields={["url", "events", "description"]}
        submitLabel={t("settings.webhooksAdd")}
        onSubmit={add}
      >
        <Field
          label={t("settings.webhooksUrl")}
          name="url"
          error={hooks.create.error}
          hint={t("settings.webhooksUrlHint")}
        >
          <input name="url" type="url" placeholder="https://example.com/desk-events" />
        </Field>
        <div className="row2">
          <Field
            label={t("settings.webhooksEvents")}
            name="events"
            error={hooks.create.error}
            hint={t("settings.webhooksEventsHint")}
          >
            <input name="events" placeholder="ticket.created, message.created" />
          </Field>
          <Field label={t("settings.webhooksDescription")} name="description" error={hooks.create.error}>
            <input name="description" />
          </Field>
        </div>
      </CreateForm>
      <CrudList query={hooks.list} empty={<Empty title={t("settings.webhooksEmpty")} />}>
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
                  {t("settings.webhooksEnabled")}
                </label>
                <TestButton id={w.id} />
                <button type="button" className="btn btn-small" onClick={() => setOpen(open === w.id ? null : w.id)}>
                  {open === w.id ? t("settings.webhooksHideLog") : t("settings.webhooksDeliveryLog")}
                </button>
                <DeleteButton
                  question={t("settings.webhooksDeleteQuestion")}
                  onDelete={() => hooks.remove.mutate(w.id)}
                />
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
      {test.isSuccess
        ? t("settings.webhooksTestSent")
        : test.isError
          ? t("settings.webhooksTestFailed")
          : t("settings.webhooksSendTest")}
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
        ? t("settings.webhooksPaused", {
            count: webhook.consecutive_failures,
            until: formatDateTime(webhook.paused_until ?? ""),
          })
        : t("settings.webhooksFailures", { count: webhook.consecutive_failures })}
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
  if (!log.data.length) return <div className="muted small">{t("settings.webhooksNoDeliveries")}</div>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>{t("settings.webhooksEvent")}</th>
          <th>{t("settings.webhooksStatus")}</th>
          <th>{t("settings.webhooksAttempts")}</th>
          <th>{t("settings.webhooksResponse")}</th>
          <th>{t("settings.webhooksTime")}</th>
          <th>{t("settings.webhooksWhen")}</th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((d) => (
          <tr key={d.id}>
            <td>{d.event_type}</td>
            <td>
              <span className={`pill pill-${d.status}`}>
                {t("settings.webhooksDeliveryStatus", { status: d.status })}
              </span>
            </td>
            <td className="num">{formatNumber(d.attempts)}</td>
            <td>{d.response_code ?? "—"}</td>
            <td>{d.duration_ms != null ? t("settings.milliseconds", { ms: d.duration_ms }) : "—"}</td>
            <td className="muted">{timeAgo(d.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
