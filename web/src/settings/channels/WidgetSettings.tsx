import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { operations } from "../../lib/api-schema";
import { api } from "../../lib/api/client";
import { useMailboxes } from "../../lib/resources/mailboxes";
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
      <h1>Chat widget</h1>
      <section aria-labelledby="widget-install" className="stack narrow">
        <h2 id="widget-install">Install</h2>
        <p className="muted small">
          Paste this tag before &lt;/body&gt; on every page that should show the chat button.
        </p>
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
            {copied ? "Copied" : "Copy snippet"}
          </button>
        </div>
      </section>
      <form className="stack narrow" onSubmit={submit} noValidate aria-labelledby="widget-behaviour">
        <h2 id="widget-behaviour">Behaviour</h2>
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={s.enabled} />
          Widget enabled
        </label>
        <Field label="Greeting" name="greeting" error={save.error} hint="The first words visitors read.">
          <input name="greeting" defaultValue={s.greeting} maxLength={500} />
        </Field>
        <label className="check">
          <input type="checkbox" name="require_email" defaultChecked={s.require_email} />
          Ask for an email address before a chat starts
        </label>
        <Field
          label="Allowed sites"
          name="allowed_origins"
          error={save.error}
          hint="One origin per line, such as https://shop.example or https://*.example.com. Empty: any site."
        >
          <textarea name="allowed_origins" rows={3} defaultValue={s.allowed_origins.join("\n")} />
        </Field>
        <Field
          label="Email replies from"
          name="reply_mailbox_id"
          error={save.error}
          hint="A visitor who left an email and has not seen a reply in the chat within a few minutes gets it by email from this mailbox; their answer comes back into the chat."
        >
          <select name="reply_mailbox_id" defaultValue={s.reply_mailbox_id ?? ""}>
            <option value="">The first mailbox{mailboxes.data?.[0] ? ` (${mailboxes.data[0].email})` : ""}</option>
            {(mailboxes.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
          </select>
        </Field>
        <p className="muted small">The widget uses the brand colour and pictures of the Workspace settings.</p>
        <FormError error={save.error} fields={["greeting", "allowed_origins", "reply_mailbox_id"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isSuccess && !save.isPending ? "Saved" : "Save"}
          </button>
        </div>
      </form>
      <section aria-labelledby="widget-identity" className="stack narrow">
        <h2 id="widget-identity">Identity verification</h2>
        <p className="small">
          Signed-in users of your site can be recognised in the widget, and see their earlier chats on any device. Your
          server signs the user's id with the widget secret; without a valid signature a visitor never sees another
          person's conversations.
        </p>
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
            <strong>Copy this secret now. It is not shown again; keep it on your server.</strong>
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
              if (window.confirm("Make a new widget secret? Signatures made with the old one stop working."))
                rotate.mutate();
            }}
          >
            Generate a new widget secret
          </button>
        </div>
      </section>
    </div>
  );
}
