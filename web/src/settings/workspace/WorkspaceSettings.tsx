import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { api } from "../../lib/api/client";
import { useWorkspace, workspaceKeys } from "../../lib/resources/workspace";
import { canAdmin, sessionKeys, useRole } from "../../lib/api/session";
import type { Workspace } from "../../lib/api/types";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { PictureUpload } from "../../lib/ui/PictureUpload";
import { ErrorBox, Loading } from "../../lib/ui/states";

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
      <h1>Workspace</h1>
      <form className="stack narrow" onSubmit={submit} noValidate>
        <Field label="Name" name="name" error={save.error}>
          <input name="name" defaultValue={w.name} disabled={!admin} />
        </Field>
        <Field label="Address" hint="Used in links and the help center.">
          <input value={w.slug} readOnly disabled />
        </Field>
        <Field label="Time zone" name="settings.timezone" error={save.error}>
          <input
            name="timezone"
            defaultValue={String(settings.timezone ?? "")}
            placeholder="Europe/Berlin"
            disabled={!admin}
          />
        </Field>
        <Field label="Brand color" name="settings.brand_color" error={save.error}>
          <input
            name="brand_color"
            defaultValue={String(settings.brand_color ?? "")}
            placeholder="#4f46e5"
            disabled={!admin}
          />
        </Field>
        <Field label="Who may create labels while labelling" name="settings.label_creation" error={save.error}>
          <select name="label_creation" defaultValue={String(settings.label_creation ?? "")} disabled={!admin}>
            <option value="">Everyone who can edit the record</option>
            <option value="admins">Admins only</option>
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
          Ask customers to rate their support (CSAT)
        </label>
        <p id="csat-hint" className="muted small">
          When a ticket is solved, its customer gets one email with a rating link (1 to 5 and a comment).
        </p>
        <Field
          label="Close solved tickets after (days)"
          name="settings.auto_close_days"
          error={save.error}
          hint="Solved tickets become closed after this many days; 0 never closes them."
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
          Assign a ticket to the agent who replies to it while unassigned
        </label>
        <p id="assign-on-reply-hint" className="muted small">
          So two agents do not answer the same conversation. Notes, API keys and automations never take a ticket.
        </p>
        <label className="check">
          <input
            type="checkbox"
            name="follow_on_mention"
            defaultChecked={settings.follow_on_mention === true}
            disabled={!admin}
          />{" "}
          People mentioned in a note follow the ticket
        </label>
        <fieldset className="stack">
          <legend>Pictures and sign-in</legend>
          <label className="check">
            <input type="checkbox" name="gravatar" defaultChecked={settings.gravatar === true} disabled={!admin} /> Show
            contacts' Gravatar pictures (their email's hash is sent to Gravatar)
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="domain_logos"
              defaultChecked={settings.domain_logos !== false}
              disabled={!admin}
            />{" "}
            Show company logos from their websites
          </label>
          <label className="check">
            <input type="checkbox" name="sso_only" defaultChecked={settings.sso_only === true} disabled={!admin} />{" "}
            Members sign in only with single sign-on (the owner keeps password sign-in)
          </label>
        </fieldset>
        <FormError
          error={save.error}
          fields={[
            "name",
            "settings.timezone",
            "settings.brand_color",
            "settings.label_creation",
            "settings.csat_enabled",
            "settings.auto_close_days",
          ]}
        />
        {admin && (
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {save.isSuccess && !save.isPending ? "Saved" : "Save"}
            </button>
          </div>
        )}
      </form>
      {admin && <WorkspaceImages workspace={w} />}
    </div>
  );
}

/** The workspace's picture slots (PUT/DELETE /workspace/images/{slot}); `logo` is the workspace's avatar_url. */
const IMAGE_SLOTS = [
  { slot: "logo", title: "Logo", round: false, hint: "Shown beside the workspace name." },
  { slot: "help_center_logo", title: "Help center logo", round: false, hint: "Heads the public help center." },
  { slot: "help_center_favicon", title: "Help center icon", round: false, hint: "The help center's browser tab icon." },
  { slot: "widget_avatar", title: "Widget avatar", round: true, hint: "Stands for your team in the chat widget." },
  { slot: "widget_launcher", title: "Widget button icon", round: true, hint: "On the button that opens the widget." },
] as const;

function WorkspaceImages({ workspace }: { workspace: Workspace }) {
  const client = useQueryClient();
  const saved = (w: Workspace) => {
    client.setQueryData(workspaceKeys.current, w);
    client.invalidateQueries({ queryKey: sessionKeys.me });
  };
  return (
    <section aria-labelledby="workspace-images">
      <h2 id="workspace-images">Pictures</h2>
      <div className="picture-grid">
        {IMAGE_SLOTS.map((s) => {
          const url = s.slot === "logo" ? workspace.avatar_url : workspace.images[s.slot];
          return (
            <section key={s.slot} aria-labelledby={`workspace-image-${s.slot}`}>
              <h3 id={`workspace-image-${s.slot}`}>{s.title}</h3>
              <p className="muted small">{s.hint}</p>
              <PictureUpload<Workspace>
                path={`/workspace/images/${s.slot}`}
                url={url}
                alt={s.title}
                label={`Upload the ${s.title.toLowerCase()}`}
                removeLabel={`Remove the ${s.title.toLowerCase()}`}
                empty="None yet."
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
