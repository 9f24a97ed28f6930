import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { helpCenterUrl } from "../../kb/KnowledgeBase";
import { api } from "../../lib/api/client";
import type { Workspace } from "../../lib/api/types";
import { useWorkspace, workspaceKeys } from "../../lib/resources/workspace";
import { Link } from "../../lib/router/Link";
import { t } from "../../lib/i18n/i18n";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { ErrorBox, Loading } from "../../lib/ui/states";
import { Sentence } from "../kit/Sentence";

/** The public help center: on or off, its title, and a link to see it as customers do. */
export default function HelpCenterSettings() {
  const workspace = useWorkspace();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Workspace>("/workspace", { method: "PATCH", body }),
    onSuccess: (w) => client.setQueryData(workspaceKeys.current, w),
  });
  if (workspace.isPending) return <Loading />;
  if (workspace.isError) return <ErrorBox error={workspace.error} retry={() => workspace.refetch()} />;
  const w = workspace.data;
  const settings = w.settings ?? {};
  const enabled = settings.help_center_enabled === true;
  const url = helpCenterUrl(w.slug);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const on = (form.elements.namedItem("help_center_enabled") as HTMLInputElement).checked;
    save.mutate({ settings: { help_center_enabled: on, help_center_title: v.help_center_title.trim() || null } });
  };
  return (
    <div className="settings-page">
      <h1>{t("settings.navHelpCenter")}</h1>
      <p className="muted">
        <Sentence
          id="settings.helpCenterIntro"
          nodes={{
            kb: <Link to="/kb">{t("settings.helpCenterKbLink")}</Link>,
            workspace: <Link to="/settings/workspace">{t("settings.navWorkspace")}</Link>,
          }}
        />
      </p>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <label className="check">
          <input type="checkbox" name="help_center_enabled" defaultChecked={enabled} />{" "}
          {t("settings.helpCenterPublish")}
        </label>
        <Field
          label={t("settings.helpCenterTitle")}
          name="settings.help_center_title"
          error={save.error}
          hint={t("settings.helpCenterTitleHint", { name: w.name })}
        >
          <input name="help_center_title" defaultValue={String(settings.help_center_title ?? "")} maxLength={100} />
        </Field>
        <FormError error={save.error} fields={["settings.help_center_title"]} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isSuccess && !save.isPending ? t("settings.saved") : t("common.save")}
          </button>
        </div>
      </form>
      <section aria-labelledby="help-center-address">
        <h2 id="help-center-address">{t("settings.workspaceAddress")}</h2>
        {enabled ? (
          <p>
            <a href={url} target="_blank" rel="noreferrer">
              {t("settings.helpCenterPreview")}
            </a>{" "}
            <code className="small">{url}</code>
          </p>
        ) : (
          <p className="muted">
            <Sentence id="settings.helpCenterOff" nodes={{ url: <code>{url}</code> }} />
          </p>
        )}
      </section>
    </div>
  );
}
