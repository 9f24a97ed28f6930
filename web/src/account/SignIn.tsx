import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { withChallenge } from "../lib/api/challenge";
import { api, isMfa, setSession } from "../lib/api/client";
import type { MfaChallenge, Session } from "../lib/api/types";
import { Link } from "../lib/router/Link";
import { navigate, useLocation } from "../lib/router/router";
import { Field, FormError, formValues } from "../lib/ui/form";
import { type MessageKey, t } from "../lib/i18n/i18n";
import { cancelledPrompt, passkeysSupported } from "./Passkeys";
import { accountKeys } from "./account.queries";

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

  // Back from a single sign-on provider: the one-time code is in the fragment (never sent to a server).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival
  useEffect(() => {
    const code = takeSsoCode();
    if (!code) return;
    setBusy(true);
    api<Session | MfaChallenge>("/auth/oauth/exchange", { body: { code }, workspace: false })
      .then((result) => (isMfa(result) ? setMfaToken(result.mfa_token) : finish(result)))
      .catch(setError)
      .finally(() => setBusy(false));
  }, []);
  const ssoError = search.get("sso_error");

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
        <h1>
          {mfaToken
            ? t("account.twoFactorCode")
            : search.get("add")
              ? t("account.addAnotherAccount")
              : t("account.signIn")}
        </h1>
        {mfaToken ? (
          <Field label={t("account.codeFromAuthenticator")} name="code" error={error}>
            <input name="code" inputMode="numeric" autoComplete="one-time-code" autoFocus required />
          </Field>
        ) : (
          <>
            <Field label={t("account.email")} name="email" error={error}>
              <input name="email" type="email" autoComplete="username" autoFocus required />
            </Field>
            <Field label={t("account.password")} name="password" error={error}>
              <input name="password" type="password" autoComplete="current-password" required />
            </Field>
          </>
        )}
        <FormError error={error} fields={["email", "password", "code"]} />
        {ssoError && !error && (
          <div className="form-error" role="alert">
            {t(SSO_ERRORS[ssoError] ?? SSO_ERRORS.provider_error)}
          </div>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? t("account.signingIn") : mfaToken ? t("account.verify") : t("account.signIn")}
        </button>
        {!mfaToken && passkeysSupported() && (
          <button type="button" className="btn btn-block" onClick={withPasskey} disabled={busy}>
            {t("account.signInWithPasskey")}
          </button>
        )}
        {!mfaToken && <SsoButtons next={search.get("next")} />}
        {!mfaToken && (
          <div className="auth-foot muted small">
            <Link to="/forgot-password">{t("account.forgotPassword")}</Link>
          </div>
        )}
        {signupOpen && !mfaToken && (
          <div className="auth-foot muted small">
            {t("account.newHere")} <Link to="/setup">{t("account.createAnAccount")}</Link>
          </div>
        )}
      </form>
    </div>
  );
}

/** The message for each `sso_error` the callback sends back (keys: translated at render). */
const SSO_ERRORS: Record<string, MessageKey> = {
  invalid_state: "account.ssoErrorInvalidState",
  denied: "account.ssoErrorDenied",
  provider_error: "account.ssoErrorProvider",
  provider_unavailable: "account.ssoErrorUnavailable",
  email_not_verified: "account.ssoErrorEmailNotVerified",
  no_account: "account.ssoErrorNoAccount",
  confirm_link_by_mail: "account.ssoErrorConfirmByMail",
  already_linked: "account.ssoErrorAlreadyLinked",
  linked_elsewhere: "account.ssoErrorLinkedElsewhere",
};

/** Reads and forgets `#sso_code=…`, so a reload or the history never replays it. */
function takeSsoCode(): string | null {
  const code = new URLSearchParams(window.location.hash.slice(1)).get("sso_code");
  if (code) history.replaceState(history.state, "", window.location.pathname + window.location.search);
  return code;
}

/** "Sign in with <provider>" for each configured single sign-on provider: plain links, the server redirects. */
function SsoButtons({ next }: { next: string | null }) {
  const providers = useQuery({
    queryKey: accountKeys.ssoProviders,
    queryFn: () =>
      api<{ providers: Array<{ id: string; name: string; start_url: string }> }>("/auth/oauth/providers", {
        workspace: false,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const list = providers.data?.providers ?? [];
  if (!list.length) return null;
  return (
    <div className="stack">
      {list.map((p) => (
        <a
          key={p.id}
          className="btn btn-block"
          href={`${p.start_url}${next ? `?next=${encodeURIComponent(next)}` : ""}`}
        >
          {t("account.signInWith", { provider: p.name })}
        </a>
      ))}
    </div>
  );
}
