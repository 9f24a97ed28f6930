import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import { Field, FormError, formValues } from "../lib/ui/form";
import { formatDateTime, t } from "../lib/i18n/i18n";
import { ErrorBox, Loading } from "../lib/ui/states";
import { accountKeys } from "./account.queries";

type Passkey = {
  id: string;
  name: string;
  device_type: "singleDevice" | "multiDevice";
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
};

/** @simplewebauthn/browser is loaded only when someone adds or uses a passkey. */
const webauthn = () => import("@simplewebauthn/browser");

/** Whether this browser can create and use passkeys at all. */
export const passkeysSupported = () => typeof window !== "undefined" && !!window.PublicKeyCredential;

/** A cancelled or timed-out browser prompt is not an error worth showing. */
export const cancelledPrompt = (error: unknown) =>
  error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");

/** Profile section: your passkeys, add one under a name, rename or remove one. */
export function PasskeysSection() {
  const client = useQueryClient();
  const [adding, setAdding] = useState(false);
  const list = useQuery({
    queryKey: accountKeys.passkeys,
    queryFn: () => api<{ data: Passkey[] }>("/me/passkeys", { workspace: false }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: accountKeys.passkeys });
  const add = useMutation({
    mutationFn: async (name: string) => {
      const { options } = await api<{ options: Record<string, unknown> }>("/me/passkeys/options", {
        method: "POST",
        workspace: false,
      });
      const { startRegistration } = await webauthn();
      const credential = await startRegistration({ optionsJSON: options as never });
      return api<Passkey>("/me/passkeys", { body: { name, credential }, workspace: false });
    },
    onSuccess: () => {
      setAdding(false);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/me/passkeys/${id}`, { method: "DELETE", workspace: false }),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    add.mutate(formValues(e.currentTarget).name.trim() || t("account.passkeyDefaultName"));
  };
  const addError = add.error && !cancelledPrompt(add.error) ? add.error : null;
  return (
    <section aria-labelledby="profile-passkeys">
      <h2 id="profile-passkeys">{t("account.passkeys")}</h2>
      <p className="muted">{t("account.passkeysIntro")}</p>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorBox error={list.error} retry={() => list.refetch()} />
      ) : list.data.data.length ? (
        <table className="table" aria-label={t("account.yourPasskeys")}>
          <thead>
            <tr>
              <th scope="col">{t("account.name")}</th>
              <th scope="col">{t("account.added")}</th>
              <th scope="col">{t("account.lastUsed")}</th>
              <th scope="col" aria-label={t("account.actions")} />
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((p) => (
              <tr key={p.id}>
                <td>
                  {p.name}{" "}
                  {p.device_type === "multiDevice" && <span className="muted small">{t("account.synced")}</span>}
                </td>
                <td>{formatDateTime(p.created_at, { dateStyle: "medium" })}</td>
                <td>{p.last_used_at ? formatDateTime(p.last_used_at) : t("account.never")}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => remove.mutate(p.id)}
                    disabled={remove.isPending}
                    aria-label={t("account.removePasskeyNamed", { name: p.name })}
                  >
                    {t("account.remove")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{t("account.noPasskeys")}</p>
      )}
      <ErrorBox error={remove.error} />
      {!passkeysSupported() ? (
        <p className="muted small">{t("account.browserNoPasskeys")}</p>
      ) : adding ? (
        <form className="stack narrow" onSubmit={submit} noValidate>
          <Field label={t("account.passkeyName")} name="name" error={addError} hint={t("account.passkeyNameHint")}>
            <input name="name" maxLength={60} defaultValue="" autoComplete="off" />
          </Field>
          <FormError error={addError} fields={["name", "credential"]} />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={add.isPending}>
              {add.isPending ? t("account.waitingForDevice") : t("account.createPasskey")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setAdding(false)}>
              {t("account.cancel")}
            </button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            {t("account.addPasskey")}
          </button>
        </div>
      )}
    </section>
  );
}
