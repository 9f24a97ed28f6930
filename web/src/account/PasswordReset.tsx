import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import { Link } from "../lib/router/Link";
import { Field, FormError, formValues } from "../lib/ui/form";

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
        <h1>Reset your password</h1>
        {sentTo ? (
          <p role="status">
            If <strong>{sentTo}</strong> has a Desk account, a link to choose a new password is on its way. It works
            once, for one hour.
          </p>
        ) : (
          <>
            <p className="muted">Enter your account's email and we will send you a link to choose a new password.</p>
            <Field label="Email" name="email" error={error}>
              <input name="email" type="email" autoComplete="username" autoFocus required />
            </Field>
            <FormError error={error} fields={["email"]} />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? "Sending…" : "Send reset link"}
            </button>
          </>
        )}
        <div className="auth-foot muted small">
          <Link to="/signin">Back to sign-in</Link>
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
        <h1>Choose a new password</h1>
        {done ? (
          <p role="status">
            Your password is changed and every session of your account was signed out. Sign in with the new password.
          </p>
        ) : !token ? (
          <p role="alert">This reset link is incomplete. Open the link from the email again, or ask for a new one.</p>
        ) : (
          <>
            <Field label="New password" name="password" error={error} hint="At least 8 characters.">
              <input name="password" type="password" autoComplete="new-password" autoFocus required />
            </Field>
            <FormError error={error} fields={["password", "token"]} />
            <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
              {busy ? "Saving…" : "Set new password"}
            </button>
          </>
        )}
        <div className="auth-foot muted small">
          {done ? <Link to="/signin">Sign in</Link> : <Link to="/forgot-password">Ask for a new link</Link>}
        </div>
      </form>
    </div>
  );
}
