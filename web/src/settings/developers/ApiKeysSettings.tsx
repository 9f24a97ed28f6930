import { type FormEvent, useState } from "react";
import { type ApiKey, SCOPES } from "../../lib/api/types";
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
      <h1>API keys</h1>
      {secret && (
        <div className="secret" role="status">
          <strong>Copy this key now. It is not shown again.</strong>
          <code data-testid="api-key-secret">{secret}</code>
          <button type="button" className="btn btn-small" onClick={() => navigator.clipboard?.writeText(secret)}>
            Copy
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      <CreateForm
        mutation={keys.create}
        fields={["name", "expires_at", "scopes"]}
        submitLabel="Create key"
        onSubmit={add}
      >
        <div className="row2">
          <Field label="Name" name="name" error={keys.create.error}>
            <input name="name" placeholder="CRM sync" />
          </Field>
          <Field label="Expires (optional)" name="expires_at" error={keys.create.error}>
            <input name="expires_at" type="date" />
          </Field>
        </div>
        <Field label="Scopes" name="scopes" error={keys.create.error}>
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
      <CrudList query={keys.list} empty={<Empty title="No API keys" />}>
        {(rows) => (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Scopes</th>
                <th>Created by</th>
                <th>Last used</th>
                <th>Expires</th>
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
                  <td className="muted">{k.last_used_at ? timeAgo(k.last_used_at) : "never"}</td>
                  <td className="muted">{k.expires_at ? new Date(k.expires_at).toLocaleDateString() : "never"}</td>
                  <td className="right">
                    <DeleteButton
                      question={`Revoke ${k.name}? Apps using it stop working at once.`}
                      onDelete={() => keys.remove.mutate(k.id)}
                    >
                      Revoke
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
