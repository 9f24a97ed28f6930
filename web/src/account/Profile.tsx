import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import qrcode from "qrcode-generator";
import { type FormEvent, useMemo, useState } from "react";
import { api } from "../lib/api/client";
import { sessionKeys, useMe } from "../lib/api/session";
import { Field, FormError, formValues } from "../lib/ui/form";
import { PictureUpload } from "../lib/ui/PictureUpload";
import { PasskeysSection } from "./Passkeys";
import { SsoLinksSection } from "./SsoLinks";
import { ErrorBox, Loading } from "../lib/ui/states";
import { NotificationEmailSection } from "../notifications/NotificationEmailSection";
import { accountKeys } from "./account.queries";
import { LanguageSection } from "./ProfileLanguage";
import { formatDateTime, t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

type ProfileUser = { id: string; name: string; email: string; avatar_url?: string | null; mfa_enabled?: boolean };
type SessionInfo = {
  id: string;
  client: "web" | "native";
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_used_at: string;
  current: boolean;
};

/** /profile: the signed-in person's own name, password, two-factor sign-in, passkeys and sessions. */
export function Profile() {
  const me = useMe();
  if (me.isPending) return <Loading />;
  if (me.isError) return <ErrorBox error={me.error} retry={() => me.refetch()} />;
  const user = me.data.user as ProfileUser;
  return (
    <div className="settings-body">
      <div className="settings-page">
        <h1>{t("account.yourProfile")}</h1>
        <p className="muted">{t("account.signedInAs", { email: user.email })}</p>
        <PictureSection user={user} />
        <NameSection user={user} />
        <LanguageSection userId={user.id} locale={me.data.user?.locale ?? null} />
        <NotificationEmailSection />
        <PasswordSection />
        <TwoFactorSection enabled={!!user.mfa_enabled} />
        <PasskeysSection />
        <SsoLinksSection />
        <SessionsSection />
      </div>
    </div>
  );
}

/** Your picture: chosen file sent as is; the server checks, crops and resizes it. */
function PictureSection({ user }: { user: ProfileUser }) {
  const client = useQueryClient();
  return (
    <section aria-labelledby="profile-picture">
      <h2 id="profile-picture">{t("account.picture")}</h2>
      <PictureUpload
        path="/me/avatar"
        workspace={false}
        url={user.avatar_url}
        alt={user.name}
        label={t("account.uploadPicture")}
        removeLabel={t("account.removePicture")}
        empty={t("account.noPictureYet")}
        onSaved={() => client.invalidateQueries({ queryKey: sessionKeys.me })}
      />
    </section>
  );
}

function NameSection({ user }: { user: ProfileUser }) {
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (name: string) => api("/me", { method: "PATCH", body: { name }, workspace: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.me }),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(formValues(e.currentTarget).name);
  };
  return (
    <section aria-labelledby="profile-name">
      <h2 id="profile-name">{t("account.name")}</h2>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <Field label={t("account.yourName")} name="name" error={save.error}>
          <input name="name" defaultValue={user.name} autoComplete="name" />
        </Field>
        <FormError error={save.error} fields={["name"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isSuccess && !save.isPending ? t("account.saved") : t("account.saveName")}
          </button>
        </div>
      </form>
    </section>
  );
}

function PasswordSection() {
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      api<{ signed_out_sessions: number }>("/me/password", { body, workspace: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    change.mutate(
      { current_password: v.current_password, new_password: v.new_password },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <section aria-labelledby="profile-password">
      <h2 id="profile-password">{t("account.password")}</h2>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <Field label={t("account.currentPassword")} name="current_password" error={change.error}>
          <input name="current_password" type="password" autoComplete="current-password" />
        </Field>
        <Field
          label={t("account.newPassword")}
          name="new_password"
          error={change.error}
          hint={t("account.newPasswordHint")}
        >
          <input name="new_password" type="password" autoComplete="new-password" />
        </Field>
        <FormError error={change.error} fields={["current_password", "new_password"]} />
        {change.isSuccess && (
          <div role="status" className="muted">
            {t("account.passwordChanged")}{" "}
            {change.data.signed_out_sessions
              ? t("account.otherSessionsSignedOut", { count: change.data.signed_out_sessions })
              : ""}
          </div>
        )}
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={change.isPending}>
            {t("account.changePassword")}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The otpauth:// URL as an SVG QR code, drawn from the matrix (no HTML injection, no network). */
function QrCode({ text, label }: { text: string; label: string }) {
  const path = useMemo(() => {
    const qr = qrcode(0, "M");
    qr.addData(text);
    qr.make();
    const n = qr.getModuleCount();
    let d = "";
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++) if (qr.isDark(row, col)) d += `M${col + 4},${row + 4}h1v1h-1z`;
    return { d, size: n + 8 };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${path.size} ${path.size}`}
      width={200}
      height={200}
      shapeRendering="crispEdges"
      style={{ background: "#fff", borderRadius: 4 }}
    >
      <path d={path.d} fill="#000" />
    </svg>
  );
}

function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const client = useQueryClient();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const start = useMutation({
    mutationFn: () =>
      api<{ secret: string; otpauth_url: string }>("/me/mfa/setup", { method: "POST", workspace: false }),
    onSuccess: setSetup,
  });
  const enable = useMutation({
    mutationFn: (code: string) =>
      api<{ enabled: true; recovery_codes: string[] }>("/me/mfa/enable", { body: { code }, workspace: false }),
    onSuccess: (answer) => {
      setSetup(null);
      setRecovery(answer.recovery_codes);
      client.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
  const disable = useMutation({
    mutationFn: (body: { password?: string; code?: string }) => api("/me/mfa/disable", { body, workspace: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.me }),
  });

  const confirm = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    enable.mutate(formValues(e.currentTarget).code.trim());
  };
  const turnOff = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    disable.mutate(v.proof_kind === "code" ? { code: v.proof.trim() } : { password: v.proof });
  };

  return (
    <section aria-labelledby="profile-2fa">
      <h2 id="profile-2fa">{t("account.twoFactorSignIn")}</h2>
      {recovery ? (
        <section className="card" aria-label={t("account.recoveryCodes")}>
          <strong>{t("account.saveRecoveryCodes")}</strong>
          <p className="muted small">{t("account.recoveryCodeHint")}</p>
          <ul
            aria-label={t("account.recoveryCodeList")}
            style={{ fontFamily: "var(--mono, monospace)", columns: 2, margin: 0 }}
          >
            {recovery.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="actions">
            <button
              type="button"
              className="btn"
              onClick={() => navigator.clipboard?.writeText(recovery.join("\n")).catch(() => {})}
            >
              {t("account.copyCodes")}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setRecovery(null)}>
              {t("account.savedThem")}
            </button>
          </div>
        </section>
      ) : enabled ? (
        <form className="stack narrow" onSubmit={turnOff} noValidate>
          <p>{tNodes("account.twoFactorIsOn", { on: <strong>{t("account.twoFactorOnWord")}</strong> })}</p>
          <Field label={t("account.proveItIsYou")}>
            <select name="proof_kind" defaultValue="password">
              <option value="password">{t("account.proofPassword")}</option>
              <option value="code">{t("account.proofCode")}</option>
            </select>
          </Field>
          <Field label={t("account.passwordOrCode")}>
            <input name="proof" type="password" autoComplete="off" />
          </Field>
          <FormError error={disable.error} fields={["password", "code"]} />
          <div className="actions">
            <button type="submit" className="btn btn-danger" disabled={disable.isPending}>
              {t("account.turnOffTwoFactor")}
            </button>
          </div>
        </form>
      ) : setup ? (
        <form className="stack narrow" onSubmit={confirm} noValidate>
          <p>{t("account.scanCode")}</p>
          <QrCode text={setup.otpauth_url} label={t("account.qrCodeLabel")} />
          <p className="muted small">
            {tNodes("account.cannotScan", { key: <code data-testid="mfa-secret">{setup.secret}</code> })}
          </p>
          <Field label={t("account.codeFromApp")} name="code" error={enable.error}>
            <input name="code" inputMode="numeric" autoComplete="one-time-code" />
          </Field>
          <FormError error={enable.error} fields={["code"]} />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={enable.isPending}>
              {t("account.turnOn")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setSetup(null)}>
              {t("account.cancel")}
            </button>
          </div>
        </form>
      ) : (
        <div className="stack narrow">
          <p>{tNodes("account.twoFactorIsOff", { off: <strong>{t("account.twoFactorOffWord")}</strong> })}</p>
          <ErrorBox error={start.error} />
          <div className="actions">
            <button type="button" className="btn btn-primary" onClick={() => start.mutate()} disabled={start.isPending}>
              {t("account.setUpTwoFactor")}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

/** "Firefox on Linux"-style label from a user agent, good enough to recognise one's devices. */
function deviceName(s: SessionInfo): string {
  if (s.client === "native") return t("account.deskApp");
  const ua = s.user_agent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : t("account.browser");
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad/.test(ua)
        ? "iOS"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? t("account.browserOnOs", { browser, os }) : browser;
}

function SessionsSection() {
  const client = useQueryClient();
  const sessions = useQuery({
    queryKey: accountKeys.sessions,
    queryFn: () => api<{ data: SessionInfo[] }>("/me/sessions", { workspace: false }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: accountKeys.sessions });
  const endOne = useMutation({
    mutationFn: (id: string) => api(`/me/sessions/${id}`, { method: "DELETE", workspace: false }),
    onSuccess: refresh,
  });
  const endOthers = useMutation({
    mutationFn: () => api("/me/sessions/sign-out-others", { method: "POST", workspace: false }),
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby="profile-sessions">
      <h2 id="profile-sessions">{t("account.activeSessions")}</h2>
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <ErrorBox error={sessions.error} retry={() => sessions.refetch()} />
      ) : (
        <>
          <table className="table" aria-label={t("account.activeSessions")}>
            <thead>
              <tr>
                <th scope="col">{t("account.device")}</th>
                <th scope="col">{t("account.address")}</th>
                <th scope="col">{t("account.lastActive")}</th>
                <th scope="col" aria-label={t("account.actions")} />
              </tr>
            </thead>
            <tbody>
              {sessions.data.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    {deviceName(s)} {s.current && <strong>{t("account.thisSession")}</strong>}
                  </td>
                  <td>{s.ip ?? "—"}</td>
                  <td>{formatDateTime(s.last_used_at)}</td>
                  <td>
                    {!s.current && (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => endOne.mutate(s.id)}
                        disabled={endOne.isPending}
                        aria-label={t("account.signOutSession", {
                          device: deviceName(s),
                          lastActive: formatDateTime(s.last_used_at),
                        })}
                      >
                        {t("account.signOut")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ErrorBox error={endOne.error ?? endOthers.error} />
          {sessions.data.data.length > 1 && (
            <div className="actions">
              <button type="button" className="btn" onClick={() => endOthers.mutate()} disabled={endOthers.isPending}>
                {t("account.signOutOthers")}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
