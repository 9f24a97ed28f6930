import { type FormEvent, useState } from "react";
import { type ApiKey, SCOPES } from "../../lib/api/types";
import { formatDateTime, t } from "../../lib/i18n/i18n";
import { timeAgo } from "../../lib/ui/bits";
import { Field } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { apiKeysKeys } from "./developers.queries";

export default function ApiKeysSettings() {
  const keys = useCrud<ApiKey>(apiKeysKeys.list, "/api-keys");
  const [secret, setSecret] = useState<string | null>(null);
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const expires = String(data.get("expires_at") ?? "");
    keys.create.mutate(
      {
        name: String(data.get("name") ?? ""),
        scopes: data.getAll("scopes").map(String),
        ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
      },
      {
        onSuccess: (key) => {
          setSecret(key.secret ?? null);
          form.reset();
        },
      },
    );
  };
  return (
    <div className="settings-page">
      <h1>{t("settings.navApiKeys")}</h1>
      {secret && (
        <div className="secret" role="status">
          <strong>{t("settings.apiKeysCopyNow")}</strong>
          <code data-testid="api-key-secret">{secret}</code>
          <button type="button" className="btn btn-small" onClick={() => navigator.clipboard?.writeText(secret)}>
            {t("settings.copy")}
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSecret(null)}>
            {t("settings.done")}
          </button>
        </div>
      )}
      <CreateForm
        mutation={keys.create}
        fields={["name", "expires_at", "scopes"]}
        submitLabel={t("settings.apiKeysCreate")}
        onSubmit={add}
      >
        <div className="row2">
          <Field label={t("settings.name")} name="name" error={keys.create.error}>
            <input name="name" placeholder={t("settings.apiKeysNamePlaceholder")} />
          </Field>
          <Field label={t("settings.apiKeysExpiresOptional")} name="expires_at" error={keys.create.error}>
            <input name="expires_at" type="date" />
          </Field>
        </div>
        <Field label={t("settings.apiKeysScopes")} name="scopes" error={keys.create.error}>
          <div className="multi">
            {SCOPES.map((s) => (
              <label key={s} className="check">
                <input type="checkbox" name="scopes" value={s} />
                {s}
              </label>
            ))}
          </div>
        </Field>
      </CreateForm>
      <CrudList query={keys.list} empty={<Empty title={t("settings.apiKeysEmpty")} />}>
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("settings.name")}</th>
                <th>{t("settings.apiKeysPrefix")}</th>
                <th>{t("settings.apiKeysScopes")}</th>
                <th>{t("settings.apiKeysCreatedBy")}</th>
                <th>{t("settings.apiKeysLastUsed")}</th>
                <th>{t("settings.membersExpires")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td className="small">{k.scopes.join(", ")}</td>
                  <td>{k.created_by?.name ?? "—"}</td>
                  <td className="muted">{k.last_used_at ? timeAgo(k.last_used_at) : t("settings.never")}</td>
                  <td className="muted">
                    {k.expires_at
                      ? formatDateTime(k.expires_at, { year: "numeric", month: "numeric", day: "numeric" })
                      : t("settings.never")}
                  </td>
                  <td className="right">
                    <DeleteButton
                      question={t("settings.apiKeysRevokeQuestion", { name: k.name })}
                      onDelete={() => keys.remove.mutate(k.id)}
                    >
                      {t("settings.revoke")}
                    </DeleteButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CrudList>
      <ChangeError mutations={[keys.remove]} />
    </div>
  );
}
