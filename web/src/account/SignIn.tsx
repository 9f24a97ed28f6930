import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { withChallenge } from "../lib/api/challenge";
import { api, isMfa, setSession } from "../lib/api/client";
import type { MfaChallenge, Session } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { navigate, useLocation } from "../lib/router/router";
import { Field, FormError, formValues } from "../lib/ui/form";
import { cancelledPrompt, passkeysSupported } from "./Passkeys";

/** Email and password, then the two-factor code when the account has it on. */
export function SignIn({ signupOpen = false }: { signupOpen?: boolean }) {
  const client = useQueryClient();
  const { search } = useLocation();
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const finish = (session: Session) => {
    client.clear();
    setSession(session);
    navigate(search.get("next") ?? "/", { replace: true });
  };

  /** Discoverable passkey: the browser offers the passkeys it holds for this site; no email needed. */
  const withPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      const { options } = await api<{ options: Record<string, unknown> }>("/auth/passkey/options", {
        method: "POST",
        workspace: false,
      });
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const credential = await startAuthentication({ optionsJSON: options as never });
      finish(await api<Session>("/auth/passkey/login", { body: { credential }, workspace: false }));
    } catch (e) {
      if (!cancelledPrompt(e)) setError(e);
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      if (mfaToken)
        finish(
          await api<Session>("/auth/mfa", {
            body: { mfa_token: mfaToken, code: values.code.trim() },
            workspace: false,
          }),
        );
      else {
        const result = await withChallenge<Session | MfaChallenge>("/auth/login", {
          email: values.email,
          password: values.password,
        });
        if (isMfa(result)) setMfaToken(result.mfa_token);
        else finish(result);
      }
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
        <h1>{mfaToken ? "Two-factor code" : search.get("add") ? "Add another account" : "Sign in"}</h1>
        {mfaToken ? (
          <Field label="Code from your authenticator app" name="code" error={error}>
            <input name="code" inputMode="numeric" autoComplete="one-time-code" autoFocus required />
          </Field>
        ) : (
          <>
            <Field label="Email" name="email" error={error}>
              <input name="email" type="email" autoComplete="username" autoFocus required />
            </Field>
            <Field label="Password" name="password" error={error}>
              <input name="password" type="password" autoComplete="current-password" required />
            </Field>
          </>
        )}
        <FormError error={error} fields={["email", "password", "code"]} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? "Signing in…" : mfaToken ? "Verify" : "Sign in"}
        </button>
        {!mfaToken && passkeysSupported() && (
          <button type="button" className="btn btn-block" onClick={withPasskey} disabled={busy}>
            Sign in with a passkey
          </button>
        )}
        {!mfaToken && (
          <div className="auth-foot muted small">
            <Link to="/forgot-password">Forgot password?</Link>
          </div>
        )}
        {signupOpen && !mfaToken && (
          <div className="auth-foot muted small">
            New here? <Link to="/setup">Create an account</Link>
          </div>
        )}
      </form>
    </div>
  );
}
