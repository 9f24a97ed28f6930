import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../lib/api/client";
import { Link } from "../lib/router/Link";
import { useLocation } from "../lib/router/router";
import { ErrorBox, Loading } from "../lib/ui/states";
import { formatDateTime, type MessageKey, t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";
import { accountKeys } from "./account.queries";

type Provider = { id: string; name: string; start_url: string };
type Identity = {
  provider: string;
  provider_name: string;
  email: string | null;
  linked_at: string;
  last_used_at: string | null;
};

/** What the link callback's `sso_error` means on the profile page (keys: translated at render). */
const LINK_ERRORS: Record<string, MessageKey> = {
  linked_elsewhere: "account.linkErrorLinkedElsewhere",
  already_linked: "account.linkErrorAlreadyLinked",
  invalid_state: "account.linkErrorInvalidState",
  denied: "account.linkErrorDenied",
  provider_error: "account.linkErrorProvider",
  provider_unavailable: "account.linkErrorUnavailable",
};

/**
 * Profile section: the single sign-on accounts linked to you, and "Link" for each provider not
 * linked yet. Linking while signed in is how an existing account starts using a provider; the
 * provider's redirect comes back here with `?sso_linked=` or `?sso_error=`.
 */
export function SsoLinksSection() {
  const { search } = useLocation();
  const providers = useQuery({
    queryKey: accountKeys.ssoProviders,
    queryFn: () => api<{ providers: Provider[] }>("/auth/oauth/providers", { workspace: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const identities = useQuery({
    queryKey: accountKeys.ssoIdentities,
    queryFn: () => api<{ identities: Identity[] }>("/auth/oauth/identities", { workspace: false }),
  });
  const link = useMutation({
    mutationFn: (provider: string) =>
      api<{ url: string }>(`/auth/oauth/${encodeURIComponent(provider)}/link`, { method: "POST", workspace: false }),
    // A full-page navigation: the provider's sign-in page, then back to this page.
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const list = providers.data?.providers ?? [];
  if (!providers.isPending && !list.length) return null;
  const linkedName = list.find((p) => p.id === search.get("sso_linked"))?.name;
  const error = search.get("sso_error");
  return (
    <section aria-labelledby="profile-sso">
      <h2 id="profile-sso">{t("account.singleSignOn")}</h2>
      <p className="muted">{t("account.ssoIntro")}</p>
      {linkedName && <p role="status">{t("account.linkedTo", { provider: linkedName })}</p>}
      {error && (
        <div className="form-error" role="alert">
          {t(LINK_ERRORS[error] ?? LINK_ERRORS.provider_error)}
        </div>
      )}
      {providers.isPending || identities.isPending ? (
        <Loading />
      ) : identities.isError ? (
        <ErrorBox error={identities.error} retry={() => identities.refetch()} />
      ) : (
        <table className="table" aria-label={t("account.signInProviders")}>
          <thead>
            <tr>
              <th scope="col">{t("account.provider")}</th>
              <th scope="col">{t("account.status")}</th>
              <th scope="col" aria-label={t("account.actions")} />
            </tr>
          </thead>
          <tbody>
            {list.map((p) => {
              const linked = identities.data.identities.find((i) => i.provider === p.id);
              return (
                <tr key={p.id}>
                  <td>{p.name}</td>
                  <td>
                    {linked
                      ? linked.email
                        ? t("account.linkedAsOn", {
                            email: linked.email,
                            date: formatDateTime(linked.linked_at, { dateStyle: "medium" }),
                          })
                        : t("account.linkedOn", { date: formatDateTime(linked.linked_at, { dateStyle: "medium" }) })
                      : t("account.notLinked")}
                  </td>
                  <td>
                    {!linked && (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => link.mutate(p.id)}
                        disabled={link.isPending}
                      >
                        {t("account.linkProvider", { provider: p.name })}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ErrorBox error={link.error} />
    </section>
  );
}

/**
 * /sso/confirm#<token>: the link in the mail sent when a provider account gave this person's email.
 * It asks before linking (a mail scanner opening the page links nothing), and the token leaves the
 * address bar at once so it stays out of the history.
 */
export function SsoLinkConfirm() {
  const [token] = useState(() => {
    const value = decodeURIComponent(location.hash.replace(/^#/, ""));
    if (value) history.replaceState(null, "", location.pathname);
    return value;
  });
  const confirm = useMutation({
    mutationFn: () =>
      api<{ provider: { id: string; name: string }; email: string }>("/auth/oauth/confirm-link", {
        body: { token },
        workspace: false,
      }),
  });
  return (
    <div className="auth-page">
      <div className="auth-card">
        <div className="brand">Desk</div>
        <h1>{t("account.linkSignInAccount")}</h1>
        {confirm.isSuccess ? (
          <>
            <p role="status">
              {tNodes(
                "account.providerAccountLinked",
                { email: <strong>{confirm.data.email}</strong> },
                { provider: confirm.data.provider.name },
              )}
            </p>
            <a className="btn btn-primary btn-block" href={`/v1/auth/oauth/${confirm.data.provider.id}/start`}>
              {t("account.signInWith", { provider: confirm.data.provider.name })}
            </a>
          </>
        ) : (
          <>
            <p>{t("account.confirmLinkIntro")}</p>
            <ErrorBox error={confirm.error} />
            <button
              type="button"
              className="btn btn-primary btn-block"
              onClick={() => confirm.mutate()}
              disabled={confirm.isPending || !token}
            >
              {confirm.isPending ? t("account.linking") : t("account.yesLinkIt")}
            </button>
          </>
        )}
        <div className="auth-foot muted small">
          <Link to="/signin">{t("account.backToSignIn")}</Link>
        </div>
      </div>
    </div>
  );
}
