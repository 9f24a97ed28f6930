import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { withChallenge } from "../lib/api/challenge";
import { api, setSession, setWorkspace } from "../lib/api/client";
import { sessionKeys, useAuth } from "../lib/api/session";
import type { Session, Workspace } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { navigate } from "../lib/router/router";
import { Field, FormError, formValues } from "../lib/ui/form";
import { t } from "../lib/i18n/i18n";

/**
 * First run: the owner account (POST /v1/auth/register) then the first workspace
 * (POST /v1/workspaces). Signed-in people without a workspace land on the second step.
 */
export function Setup() {
  const auth = useAuth();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const needsAccount = !auth.accessToken;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      if (needsAccount) {
        const session = await withChallenge<Session>("/auth/register", {
          name: values.name,
          email: values.email,
          password: values.password,
        });
        setSession(session);
        // The instance has a person now: a later sign-out must land on sign-in, not setup.
        client.removeQueries({ queryKey: sessionKeys.instanceStatus });
      }
      const workspace = await api<Workspace>("/workspaces", { body: { name: values.workspace }, workspace: false });
      setWorkspace(workspace.id);
      await client.invalidateQueries({ queryKey: sessionKeys.me });
      navigate("/inbox/unassigned", { replace: true });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate>
        <div className="brand">Desk</div>
        <h1>{needsAccount ? t("account.setUpHelpDesk") : t("account.createAWorkspace")}</h1>
        <p className="muted">{needsAccount ? t("account.setupIntro") : t("account.workspaceIntro")}</p>
        {needsAccount && (
          <>
            <Field label={t("account.yourName")} name="name" error={error}>
              <input name="name" autoComplete="name" autoFocus required />
            </Field>
            <Field label={t("account.email")} name="email" error={error}>
              <input name="email" type="email" autoComplete="username" required />
            </Field>
            <Field label={t("account.password")} name="password" error={error} hint={t("account.passwordHint")}>
              <input name="password" type="password" autoComplete="new-password" minLength={8} required />
            </Field>
          </>
        )}
        <Field label={t("account.workspaceName")} name="name" error={needsAccount ? null : error}>
          <input name="workspace" placeholder={t("account.workspacePlaceholder")} autoFocus={!needsAccount} required />
        </Field>
        <FormError error={error} fields={["name", "email", "password"]} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy
            ? t("account.settingUp")
            : needsAccount
              ? t("account.createAccountAndWorkspace")
              : t("account.createWorkspace")}
        </button>
        {needsAccount && (
          <div className="auth-foot muted small">
            {t("account.alreadyHaveAccount")} <Link to="/signin">{t("account.signIn")}</Link>
          </div>
        )}
      </form>
    </div>
  );
}
