import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../lib/api/client";
import { Link } from "../lib/router/Link";
import { useLocation } from "../lib/router/router";
import { ErrorBox, Loading } from "../lib/ui/states";
import { accountKeys } from "./account.queries";

type Provider = { id: string; name: string; start_url: string };
type Identity = {
  provider: string;
  provider_name: string;
  email: string | null;
  linked_at: string;
  last_used_at: string | null;
};

/** What the link callback's `sso_error` means on the profile page. */
const LINK_ERRORS: Record<string, string> = {
  linked_elsewhere: "That account is already linked to another Desk account. Sign in there and unlink it first.",
  already_linked: "Your Desk account is already linked to an account of this provider.",
  invalid_state: "The link expired or was finished in another browser. Try again.",
  denied: "The link was cancelled at the provider.",
  provider_error: "The provider did not complete the link. Try again.",
  provider_unavailable: "The provider cannot be reached right now. Try again later.",
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
      <h2 id="profile-sso">Single sign-on</h2>
      <p className="muted">
        Link your account at your organisation's sign-in provider to sign in with it. You link it here, while signed in.
      </p>
      {linkedName && <p role="status">Linked to {linkedName}. You can now sign in with it.</p>}
      {error && (
        <div className="form-error" role="alert">
          {LINK_ERRORS[error] ?? LINK_ERRORS.provider_error}
        </div>
      )}
      {providers.isPending || identities.isPending ? (
        <Loading />
      ) : identities.isError ? (
        <ErrorBox error={identities.error} retry={() => identities.refetch()} />
      ) : (
        <table className="table" aria-label="Sign-in providers">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Status</th>
              <th scope="col" aria-label="Actions" />
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
                      ? `Linked${linked.email ? ` as ${linked.email}` : ""} on ${new Date(linked.linked_at).toLocaleDateString()}`
                      : "Not linked"}
                  </td>
                  <td>
                    {!linked && (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => link.mutate(p.id)}
                        disabled={link.isPending}
                      >
                        Link {p.name}
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
        <h1>Link a sign-in account</h1>
        {confirm.isSuccess ? (
          <>
            <p role="status">
              Your {confirm.data.provider.name} account is now linked to <strong>{confirm.data.email}</strong>.
            </p>
            <a className="btn btn-primary btn-block" href={`/v1/auth/oauth/${confirm.data.provider.id}/start`}>
              Sign in with {confirm.data.provider.name}
            </a>
          </>
        ) : (
          <>
            <p>
              Someone signed in with a single sign-on account that gave your email address. Link it only if that was
              you: it will then sign in to your Desk account.
            </p>
            <ErrorBox error={confirm.error} />
            <button
              type="button"
              className="btn btn-primary btn-block"
              onClick={() => confirm.mutate()}
              disabled={confirm.isPending || !token}
            >
              {confirm.isPending ? "Linking…" : "Yes, link it to my account"}
            </button>
          </>
        )}
        <div className="auth-foot muted small">
          <Link to="/signin">Back to sign-in</Link>
        </div>
      </div>
    </div>
  );
}
