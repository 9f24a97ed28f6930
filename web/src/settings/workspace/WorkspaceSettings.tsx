import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../../lib/api/client";
import { useWorkspace, workspaceKeys } from "../../lib/resources/workspace";
import { canAdmin, sessionKeys, useRole } from "../../lib/api/session";
import type { Workspace } from "../../lib/api/types";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { PictureUpload } from "../../lib/ui/PictureUpload";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { LOCALE_NAMES, SHIPPED_LOCALES, t } from "../../lib/i18n/i18n";

export default function WorkspaceSettings() {
  const workspace = useWorkspace();
  const role = useRole();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Workspace>("/workspace", { method: "PATCH", body }),
    onSuccess: (w) => {
      client.setQueryData(workspaceKeys.current, w);
      client.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
  if (workspace.isPending) return <Loading />;
  if (workspace.isError) return <ErrorBox error={workspace.error} retry={() => workspace.refetch()} />;
  const w = workspace.data;
  const settings = w.settings ?? {};
  const admin = canAdmin(role);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    save.mutate({
      name: v.name,
      settings: {
        timezone: v.timezone || undefined,
        locale: v.locale || undefined,
        brand_color: v.brand_color || undefined,
        label_creation: v.label_creation || undefined,
        csat_enabled: v.csat_enabled === "on",
        auto_close_days: v.auto_close_days === "" ? null : Number(v.auto_close_days),
        gravatar: v.gravatar === "on",
        domain_logos: v.domain_logos === "on",
        sso_only: v.sso_only === "on",
        assign_on_reply: v.assign_on_reply === "on",
        follow_on_mention: v.follow_on_mention === "on",
      },
    });
  };
  return (
    <div className="settings-page">
      <h1>{t("settings.navWorkspace")}</h1>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <Field label={t("settings.name")} name="name" error={save.error}>
          <input name="name" defaultValue={w.name} disabled={!admin} />
        </Field>
        <Field label={t("settings.workspaceAddress")} hint={t("settings.workspaceAddressHint")}>
          <input value={w.slug} readOnly disabled />
        </Field>
        <Field label={t("settings.workspaceTimezone")} name="settings.timezone" error={save.error}>
          <input
            name="timezone"
            defaultValue={String(settings.timezone ?? "")}
            placeholder="Europe/Berlin"
            disabled={!admin}
          />
        </Field>
        <Field
          label={t("app.workspaceLanguage")}
          name="settings.locale"
          error={save.error}
          hint={t("app.workspaceLanguageHint")}
        >
          <select name="locale" defaultValue={String(settings.locale ?? "en")} disabled={!admin}>
            {SHIPPED_LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t("settings.workspaceBrandColor")} name="settings.brand_color" error={save.error}>
          <input
            name="brand_color"
            defaultValue={String(settings.brand_color ?? "")}
            placeholder="#4f46e5"
            disabled={!admin}
          />
        </Field>
        <Field label={t("settings.workspaceLabelCreation")} name="settings.label_creation" error={save.error}>
          <select name="label_creation" defaultValue={String(settings.label_creation ?? "")} disabled={!admin}>
            <option value="">{t("settings.workspaceLabelCreationEveryone")}</option>
            <option value="admins">{t("settings.workspaceLabelCreationAdmins")}</option>
          </select>
        </Field>
        <label className="check">
          <input
            type="checkbox"
            name="csat_enabled"
            defaultChecked={settings.csat_enabled === true}
            disabled={!admin}
            aria-describedby="csat-hint"
          />{" "}
          {t("settings.workspaceCsat")}
        </label>
        <p id="csat-hint" className="muted small">
          {t("settings.workspaceCsatHint")}
        </p>
        <Field
          label={t("settings.workspaceAutoClose")}
          name="settings.auto_close_days"
          error={save.error}
          hint={t("settings.workspaceAutoCloseHint")}
        >
          <input
            name="auto_close_days"
            type="number"
            min={0}
            max={365}
            defaultValue={typeof settings.auto_close_days === "number" ? settings.auto_close_days : 4}
            disabled={!admin}
          />
        </Field>
        <label className="check">
          <input
            type="checkbox"
            name="assign_on_reply"
            defaultChecked={settings.assign_on_reply !== false}
            disabled={!admin}
            aria-describedby="assign-on-reply-hint"
          />{" "}
          {t("settings.workspaceAssignOnReply")}
        </label>
        <p id="assign-on-reply-hint" className="muted small">
          {t("settings.workspaceAssignOnReplyHint")}
        </p>
        <label className="check">
          <input
            type="checkbox"
            name="follow_on_mention"
            defaultChecked={settings.follow_on_mention === true}
            disabled={!admin}
          />{" "}
          {t("settings.workspaceFollowOnMention")}
        </label>
        <fieldset className="stack">
          <legend>{t("settings.workspacePicturesAndSignIn")}</legend>
          <label className="check">
            <input type="checkbox" name="gravatar" defaultChecked={settings.gravatar === true} disabled={!admin} />{" "}
            {t("settings.workspaceGravatar")}
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="domain_logos"
              defaultChecked={settings.domain_logos !== false}
              disabled={!admin}
            />{" "}
            {t("settings.workspaceDomainLogos")}
          </label>
          <label className="check">
            <input type="checkbox" name="sso_only" defaultChecked={settings.sso_only === true} disabled={!admin} />{" "}
            {t("settings.workspaceSsoOnly")}
          </label>
        </fieldset>
        <FormError
          error={save.error}
          fields={[
            "name",
            "settings.timezone",
            "settings.locale",
            "settings.brand_color",
            "settings.label_creation",
            "settings.csat_enabled",
            "settings.auto_close_days",
          ]}
        />
        {admin && (
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {save.isSuccess && !save.isPending ? t("settings.saved") : t("common.save")}
            </button>
          </div>
        )}
      </form>
      {admin && <WorkspaceImages workspace={w} />}
    </div>
  );
}

/** The workspace's picture slots (PUT/DELETE /workspace/images/{slot}); `logo` is the workspace's avatar_url. */
const imageSlots = () =>
  [
    { slot: "logo", title: t("settings.workspaceImageLogo"), round: false, hint: t("settings.workspaceImageLogoHint") },
    {
      slot: "help_center_logo",
      title: t("settings.workspaceImageHelpCenterLogo"),
      round: false,
      hint: t("settings.workspaceImageHelpCenterLogoHint"),
    },
    {
      slot: "help_center_favicon",
      title: t("settings.workspaceImageHelpCenterIcon"),
      round: false,
      hint: t("settings.workspaceImageHelpCenterIconHint"),
    },
    {
      slot: "widget_avatar",
      title: t("settings.workspaceImageWidgetAvatar"),
      round: true,
      hint: t("settings.workspaceImageWidgetAvatarHint"),
    },
    {
      slot: "widget_launcher",
      title: t("settings.workspaceImageWidgetLauncher"),
      round: true,
      hint: t("settings.workspaceImageWidgetLauncherHint"),
    },
  ] as const;

function WorkspaceImages({ workspace }: { workspace: Workspace }) {
  const client = useQueryClient();
  const saved = (w: Workspace) => {
    client.setQueryData(workspaceKeys.current, w);
    client.invalidateQueries({ queryKey: sessionKeys.me });
  };
  return (
    <section aria-labelledby="workspace-images">
      <h2 id="workspace-images">{t("settings.workspacePictures")}</h2>
      <div className="picture-grid">
        {imageSlots().map((s) => {
          const url = s.slot === "logo" ? workspace.avatar_url : workspace.images[s.slot];
          return (
            <section key={s.slot} aria-labelledby={`workspace-image-${s.slot}`}>
              <h3 id={`workspace-image-${s.slot}`}>{s.title}</h3>
              <p className="muted small">{s.hint}</p>
              <PictureUpload<Workspace>
                path={`/workspace/images/${s.slot}`}
                url={url}
                alt={s.title}
                label={t("settings.workspaceUploadImage", { slot: s.slot })}
                removeLabel={t("settings.workspaceRemoveImage", { slot: s.slot })}
                empty={t("settings.noneYet")}
                size={64}
                round={s.round}
                onSaved={saved}
              />
            </section>
          );
        })}
      </div>
    </section>
  );
}
