import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, qs, setSession, setWorkspace } from "../lib/api/client";
import { sessionKeys, useAuth } from "../lib/api/session";
import type { Session } from "../lib/api/types";
import { navigate } from "../lib/router/router";
import { Field, FormError, formValues } from "../lib/ui/form";
import { ErrorBox, Loading } from "../lib/ui/states";
import { t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";
import { accountKeys } from "./account.queries";

type Lookup = {
  email?: string;
  role?: string;
  workspace?: { id: string; name: string };
  workspace_name?: string;
  expires_at?: string;
};

/** /invite/<token>: join as the signed-in person, or create an account from name and password. */
export function InviteAccept({ token }: { token: string }) {
  const auth = useAuth();
  const client = useQueryClient();
  const lookup = useQuery({
    queryKey: accountKeys.invite(token),
    queryFn: () => api<Lookup>(`/invitations/lookup${qs({ token })}`, { workspace: false }),
    retry: false,
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const body = auth.accessToken ? { token } : { token, name: values.name, password: values.password };
      const result = await api<Partial<Session> & { workspace_id?: string; workspace?: { id: string } }>(
        "/invitations/accept",
        { body, workspace: false },
      );
      if (result.access_token && result.user) setSession(result as Session);
      const workspaceId = result.workspace_id ?? result.workspace?.id ?? lookup.data?.workspace?.id;
      if (workspaceId) setWorkspace(workspaceId);
      await client.invalidateQueries({ queryKey: sessionKeys.me });
      navigate("/inbox/unassigned", { replace: true });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const workspaceName = lookup.data?.workspace?.name ?? lookup.data?.workspace_name;
  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate>
        <div className="brand">Desk</div>
        {lookup.isPending ? (
          <Loading />
        ) : lookup.isError ? (
          <ErrorBox error={lookup.error} />
        ) : (
          <>
            <h1>
              {workspaceName ? t("account.joinWorkspace", { workspace: workspaceName }) : t("account.joinAWorkspace")}
            </h1>
            <p className="muted">
              {tNodes(
                "account.invitationFor",
                { email: <strong>{lookup.data.email}</strong> },
                { role: lookup.data.role || "none" },
              )}
            </p>
            {!auth.accessToken && (
              <>
                <Field label={t("account.yourName")} name="name" error={error}>
                  <input name="name" autoComplete="name" autoFocus required />
                </Field>
                <Field
                  label={t("account.choosePassword")}
                  name="password"
                  error={error}
                  hint={t("account.passwordHint")}
                >
                  <input name="password" type="password" autoComplete="new-password" required />
                </Field>
              </>
            )}
            <FormError error={error} fields={["name", "password"]} />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? t("account.joining") : t("account.acceptInvitation")}
            </button>
          </>
        )}
      </form>
    </div>
  );
}
