import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { operations } from "../../lib/api-schema";
import { api } from "../../lib/api/client";
import { useMailboxes } from "../../lib/resources/mailboxes";
import { t } from "../../lib/i18n/i18n";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";

type WidgetSettingsJson = operations["getWidgetSettings"]["responses"][200]["content"]["application/json"];

const widgetKeys = { settings: ["widget-settings"] as const };

/** The chat widget: the tag to paste, its greeting and rules, and identity verification. */
export default function WidgetSettings() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: widgetKeys.settings,
    queryFn: () => api<WidgetSettingsJson>("/widget/settings"),
  });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<WidgetSettingsJson>("/widget/settings", { method: "PATCH", body }),
    onSuccess: (saved) => client.setQueryData(widgetKeys.settings, saved),
  });
  const rotate = useMutation({
    mutationFn: () => api<{ secret: string }>("/workspace/widget-secret/rotate", { method: "POST", body: {} }),
  });
  const [copied, setCopied] = useState(false);
  const mailboxes = useMailboxes();
  if (settings.isPending || mailboxes.isPending) return <Loading />;
  if (settings.isError) return <ErrorBox error={settings.error} retry={() => settings.refetch()} />;
  const s = settings.data;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const form = new FormData(e.currentTarget);
    save.mutate({
      greeting: v.greeting ?? "",
      enabled: form.get("enabled") === "on",
      require_email: form.get("require_email") === "on",
      reply_mailbox_id: v.reply_mailbox_id || null,
      allowed_origins: (v.allowed_origins ?? "")
        .split(/[\s,]+/)
        .map((o) => o.trim())
        .filter(Boolean),
    });
  };
  const secret = rotate.data?.secret;
  return (
    <div className="settings-page">
      <h1>{t("settings.navWidget")}</h1>
      <section aria-labelledby="widget-install" className="stack narrow">
        <h2 id="widget-install">{t("settings.widgetInstall")}</h2>
        <p className="muted small">{t("settings.widgetInstallHint", { tag: "</body>" })}</p>
        <pre className="code-block" data-testid="widget-snippet">
          <code>{s.snippet}</code>
        </pre>
        <div className="actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              void navigator.clipboard?.writeText(s.snippet);
              setCopied(true);
            }}
          >
            {copied ? t("settings.copied") : t("settings.widgetCopySnippet")}
          </button>
        </div>
      </section>
      <form className="stack narrow" onSubmit={submit} noValidate aria-labelledby="widget-behaviour">
        <h2 id="widget-behaviour">{t("settings.widgetBehaviour")}</h2>
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={s.enabled} />
          {t("settings.widgetEnabled")}
        </label>
        <Field
          label={t("settings.widgetGreeting")}
          name="greeting"
          error={save.error}
          hint={t("settings.widgetGreetingHint")}
        >
          <input name="greeting" defaultValue={s.greeting} maxLength={500} />
        </Field>
        <label className="check">
          <input type="checkbox" name="require_email" defaultChecked={s.require_email} />
          {t("settings.widgetRequireEmail")}
        </label>
        <Field
          label={t("settings.widgetAllowedSites")}
          name="allowed_origins"
          error={save.error}
          hint={t("settings.widgetAllowedSitesHint", { a: "https://shop.example", b: "https://*.example.com" })}
        >
          <textarea name="allowed_origins" rows={3} defaultValue={s.allowed_origins.join("\n")} />
        </Field>
        <Field
          label={t("settings.widgetReplyMailbox")}
          name="reply_mailbox_id"
          error={save.error}
          hint={t("settings.widgetReplyMailboxHint")}
        >
          <select name="reply_mailbox_id" defaultValue={s.reply_mailbox_id ?? ""}>
            <option value="">
              {mailboxes.data?.[0]
                ? t("settings.widgetFirstMailboxOf", { email: mailboxes.data[0].email })
                : t("settings.widgetFirstMailbox")}
            </option>
            {(mailboxes.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
          </select>
        </Field>
        <p className="muted small">{t("settings.widgetBrand")}</p>
        <FormError error={save.error} fields={["greeting", "allowed_origins", "reply_mailbox_id"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isSuccess && !save.isPending ? t("settings.saved") : t("common.save")}
          </button>
        </div>
      </form>
      <section aria-labelledby="widget-identity" className="stack narrow">
        <h2 id="widget-identity">{t("settings.widgetIdentity")}</h2>
        <p className="small">{t("settings.widgetIdentityHint")}</p>
        <pre className="code-block">
          <code>
            {[
              "// On your server (Node.js):",
              'const hash = require("crypto").createHmac("sha256", WIDGET_SECRET).update(user.id).digest("hex");',
              "// In the page, before the widget's tag:",
              `<script>window.deskWidget = { user_id: "<user id>", user_hash: "<hash>", email: "<email>" };</script>`,
            ].join("\n")}
          </code>
        </pre>
        {secret ? (
          <div className="secret" role="status">
            <strong>{t("settings.widgetSecretCopyNow")}</strong>
            <code data-testid="widget-secret">{secret}</code>
          </div>
        ) : null}
        <FormError error={rotate.error} />
        <div className="actions">
          <button
            type="button"
            className="btn"
            disabled={rotate.isPending}
            onClick={() => {
              if (window.confirm(t("settings.widgetRotateQuestion"))) rotate.mutate();
            }}
          >
            {t("settings.widgetRotate")}
          </button>
        </div>
      </section>
    </div>
  );
}
