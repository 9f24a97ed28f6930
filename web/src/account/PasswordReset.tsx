import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import { Link } from "../lib/router/Link";
import { Field, FormError, formValues } from "../lib/ui/form";
import { t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

/** /forgot-password: asks for a reset link. The answer is the same whether or not the email has an account. */
export function ForgotPassword() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { email } = formValues(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await api("/auth/password/forgot", { body: { email }, workspace: false });
      setSentTo(email.trim());
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
        <h1>{t("account.resetYourPassword")}</h1>
        {sentTo ? (
          <p role="status">{tNodes("account.resetLinkSent", { email: <strong>{sentTo}</strong> })}</p>
        ) : (
          <>
            <p className="muted">{t("account.forgotIntro")}</p>
            <Field label={t("account.email")} name="email" error={error}>
              <input name="email" type="email" autoComplete="username" autoFocus required />
            </Field>
            <FormError error={error} fields={["email"]} />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? t("account.sending") : t("account.sendResetLink")}
            </button>
          </>
        )}
        <div className="auth-foot muted small">
          <Link to="/signin">{t("account.backToSignIn")}</Link>
        </div>
      </form>
    </div>
  );
}

/**
 * /reset-password#<token>: the link from the reset mail (or from `desk user reset-password`).
 * The token travels in the fragment, so it never reaches a server log; it is taken off the
 * address bar at once so it stays out of the history too.
 */
export function ResetPassword() {
  const [token] = useState(() => {
    const value = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (value) history.replaceState(null, "", location.pathname);
    return value;
  });
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { password } = formValues(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await api("/auth/password/reset", { body: { token, password }, workspace: false });
      setDone(true);
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
        <h1>{t("account.chooseNewPassword")}</h1>
        {done ? (
          <p role="status">{t("account.passwordResetDone")}</p>
        ) : !token ? (
          <p role="alert">{t("account.resetLinkIncomplete")}</p>
        ) : (
          <>
            <Field label={t("account.newPassword")} name="password" error={error} hint={t("account.passwordHint")}>
              <input name="password" type="password" autoComplete="new-password" autoFocus required />
            </Field>
            <FormError error={error} fields={["password", "token"]} />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? t("account.saving") : t("account.setNewPassword")}
            </button>
          </>
        )}
        <div className="auth-foot muted small">
          {done ? (
            <Link to="/signin">{t("account.signIn")}</Link>
          ) : (
            <Link to="/forgot-password">{t("account.askForNewLink")}</Link>
          )}
        </div>
      </form>
    </div>
  );
}
