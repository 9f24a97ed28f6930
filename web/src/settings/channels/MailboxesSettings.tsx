import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { RichTextEditor } from "../../kb/RichTextEditor";
import { api } from "../../lib/api/client";
import type { Mailbox } from "../../lib/api/types";
import { useTeams } from "../../lib/resources/teams";
import { relativeTime, t } from "../../lib/i18n/i18n";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { Empty, errorText } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, CreateForm, CrudList, DeleteButton } from "../kit/CrudScreen";
import { Sentence } from "../kit/Sentence";
import { mailboxesKeys } from "../../lib/resources/mailboxes";

type TestResult = { inbound: { ok: boolean; error: string }; outbound: { ok: boolean; error: string } };

export default function MailboxesSettings() {
  const boxes = useCrud<Mailbox>(mailboxesKeys.list, "/mailboxes");
  const [inbound, setInbound] = useState<"forwarding" | "imap">("forwarding");
  const [outbound, setOutbound] = useState<"system" | "smtp">("system");
  const [editing, setEditing] = useState<string | null>(null);
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const config: Record<string, unknown> = {};
    if (inbound === "imap")
      Object.assign(config, {
        imap_host: v.imap_host,
        imap_port: Number(v.imap_port) || undefined,
        imap_username: v.imap_username,
        imap_tls: v.imap_tls,
      });
    if (outbound === "smtp")
      Object.assign(config, {
        smtp_host: v.smtp_host,
        smtp_port: Number(v.smtp_port) || undefined,
        smtp_username: v.smtp_username,
        smtp_tls: v.smtp_tls,
      });
    boxes.create.mutate(
      {
        name: v.name,
        email: v.email,
        display_name: v.display_name || undefined,
        inbound_kind: inbound,
        outbound_kind: outbound,
        config,
        ...(inbound === "imap" && v.password ? { password: v.password } : {}),
        ...(outbound === "smtp" && v.smtp_password ? { smtp_password: v.smtp_password } : {}),
      },
      { onSuccess: () => form.reset() },
    );
  };
  const err = boxes.create.error;
  return (
    <div className="settings-page">
      <h1>{t("settings.navMailboxes")}</h1>
      <CreateForm
        mutation={boxes.create}
        fields={[
          "name",
          "email",
          "display_name",
          "password",
          "smtp_password",
          "config.imap_host",
          "config.imap_port",
          "config.imap_username",
          "config.smtp_host",
          "config.smtp_port",
          "config.smtp_username",
        ]}
        submitLabel={t("settings.mailboxesAdd")}
        onSubmit={add}
      >
        <div className="row2">
          <Field label={t("settings.name")} name="name" error={err}>
            <input name="name" placeholder={t("settings.mailboxesNamePlaceholder")} />
          </Field>
          <Field label={t("settings.mailboxesAddress")} name="email" error={err}>
            <input name="email" type="email" placeholder="support@example.com" />
          </Field>
        </div>
        <Field label={t("settings.mailboxesSenderName")} name="display_name" error={err}>
          <input name="display_name" placeholder={t("settings.mailboxesSenderPlaceholder")} />
        </Field>
        <div className="row2">
          <Field label={t("settings.mailboxesReceiveBy")} name="inbound_kind" error={err}>
            <select value={inbound} onChange={(e) => setInbound(e.target.value as "forwarding" | "imap")}>
              <option value="forwarding">{t("settings.mailboxesForwarding")}</option>
              <option value="imap">IMAP</option>
            </select>
          </Field>
          <Field label={t("settings.mailboxesSendWith")} name="outbound_kind" error={err}>
            <select value={outbound} onChange={(e) => setOutbound(e.target.value as "system" | "smtp")}>
              <option value="system">{t("settings.mailboxesSystemMail")}</option>
              <option value="smtp">{t("settings.mailboxesSmtpServer")}</option>
            </select>
          </Field>
        </div>
        {inbound === "imap" && (
          <ServerFieldset
            protocol="imap"
            passwordName="password"
            port="993"
            tls={["tls", "starttls", "none"]}
            error={err}
          />
        )}
        {outbound === "smtp" && (
          <ServerFieldset
            protocol="smtp"
            passwordName="smtp_password"
            port="587"
            tls={["starttls", "tls", "none"]}
            error={err}
          />
        )}
      </CreateForm>
      <CrudList
        query={boxes.list}
        empty={<Empty title={t("settings.mailboxesEmpty")}>{t("settings.mailboxesEmptyHint")}</Empty>}
      >
        {(rows) =>
          rows.map((m) => (
            <div className="card" key={m.id}>
              <div className="card-head">
                <strong>{m.name}</strong> <span className="muted">{m.email}</span>
                <span className={`pill pill-${m.status}`}>{t("settings.mailboxStatus", { status: m.status })}</span>
                <div className="grow" />
                <MailboxTest id={m.id} />
                <button
                  type="button"
                  className="btn btn-small"
                  aria-expanded={editing === m.id}
                  aria-controls={`mailbox-edit-${m.id}`}
                  onClick={() => setEditing(editing === m.id ? null : m.id)}
                >
                  {editing === m.id ? t("settings.mailboxesCloseEditing") : t("common.edit")}
                </button>
                <DeleteButton
                  question={t("settings.mailboxesDeleteQuestion", { name: m.name })}
                  onDelete={() => boxes.remove.mutate(m.id)}
                />
              </div>
              {m.inbound_kind === "forwarding" && (
                <div className="small">
                  <Sentence id="settings.mailboxesForwardTo" nodes={{ address: <code>{m.forwarding_address}</code> }} />
                </div>
              )}
              {m.last_error && <div className="field-error">{m.last_error}</div>}
              {m.outbound_via === "outbox" && (
                <div className="notice-warn" role="note">
                  <Sentence id="settings.mailboxesOutboxOnly" nodes={{ variable: <code>DESK_SMTP_URL</code> }} />
                </div>
              )}
              <div className="muted small">
                {t("settings.mailboxesKinds", { inbound: m.inbound_kind, outbound: m.outbound_kind })}
                {m.last_synced_at
                  ? ` · ${t("settings.mailboxesSynced", { when: relativeTime(m.last_synced_at) })}`
                  : ""}
                {m.auto_reply_enabled ? ` · ${t("settings.mailboxesAutoReplyOn")}` : ""}
              </div>
              {editing === m.id && <MailboxEditForm mailbox={m} onDone={() => setEditing(null)} />}
            </div>
          ))
        }
      </CrudList>
      <ChangeError mutations={[boxes.remove]} />
    </div>
  );
}

function MailboxTest({ id }: { id: string }) {
  const test = useMutation({ mutationFn: () => api<TestResult>(`/mailboxes/${id}/test`, { body: {} }) });
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? t("settings.mailboxesTesting") : t("settings.mailboxesTest")}
      </button>
      {test.data && (
        <span className="small" role="status">
          {t("settings.mailboxesTestIn", {
            result: test.data.inbound.ok ? t("settings.mailboxesTestOk") : test.data.inbound.error,
          })}{" "}
          ·{" "}
          {t("settings.mailboxesTestOut", {
            result: test.data.outbound.ok
              ? t("settings.mailboxesTestOk")
              : t("settings.mailboxesTestNotOk", { error: test.data.outbound.error }),
          })}
        </span>
      )}
      {test.isError && <span className="field-error">{errorText(test.error)}</span>}
    </>
  );
}

const tlsLabel = (tls: string) => (tls === "none" ? t("common.none") : tls.toUpperCase());

/** Host, port, credentials and security of a mailbox's IMAP or SMTP server; the first tls choice is the default. */
function ServerFieldset(props: {
  protocol: "imap" | "smtp";
  passwordName: string;
  port: string;
  tls: string[];
  error: Parameters<typeof Field>[0]["error"];
  /** The stored settings when editing; the stored password is never shown, and a blank one keeps it. */
  current?: Record<string, unknown>;
}) {
  const { protocol: p, passwordName, error: err, current } = props;
  const stored = (key: string) => (current?.[`${p}_${key}`] === undefined ? undefined : String(current[`${p}_${key}`]));
  return (
    <fieldset>
      <legend>{p.toUpperCase()}</legend>
      <div className="row2">
        <Field label={t("settings.mailboxesHost")} name={`config.${p}_host`} error={err}>
          <input name={`${p}_host`} defaultValue={stored("host")} />
        </Field>
        <Field label={t("settings.mailboxesPort")} name={`config.${p}_port`} error={err}>
          <input name={`${p}_port`} type="number" placeholder={props.port} defaultValue={stored("port")} />
        </Field>
      </div>
      <div className="row2">
        <Field label={t("settings.mailboxesUsername")} name={`config.${p}_username`} error={err}>
          <input name={`${p}_username`} autoComplete="off" defaultValue={stored("username")} />
        </Field>
        <Field
          label={t("settings.mailboxesPassword")}
          name={passwordName}
          error={err}
          hint={current ? t("settings.mailboxesPasswordKeep") : undefined}
        >
          <input name={passwordName} type="password" autoComplete="new-password" />
        </Field>
      </div>
      <Field label={t("settings.mailboxesSecurity")} name={`config.${p}_tls`} error={err}>
        <select name={`${p}_tls`} defaultValue={stored("tls") ?? props.tls[0]}>
          {props.tls.map((tls) => (
            <option key={tls} value={tls}>
              {tlsLabel(tls)}
            </option>
          ))}
        </select>
      </Field>
    </fieldset>
  );
}

type InboundChoice = "forwarding" | "imap";
type OutboundChoice = "system" | "smtp";

/** The server settings a form's IMAP or SMTP fieldset holds, as the mailbox's config members. */
function serverConfig(p: "imap" | "smtp", v: Record<string, string>): Record<string, unknown> {
  return {
    [`${p}_host`]: v[`${p}_host`],
    [`${p}_port`]: Number(v[`${p}_port`]) || undefined,
    [`${p}_username`]: v[`${p}_username`],
    [`${p}_tls`]: v[`${p}_tls`],
  };
}

/**
 * Edits a mailbox in place (PATCH): the forwarding address and its tickets stay. Passwords are
 * write-only, so a blank one keeps what is stored; provider-connected mailboxes keep their kinds.
 */
function MailboxEditForm({ mailbox: m, onDone }: { mailbox: Mailbox; onDone: () => void }) {
  const client = useQueryClient();
  const teams = useTeams();
  const plainKinds =
    (m.inbound_kind === "forwarding" || m.inbound_kind === "imap") &&
    (m.outbound_kind === "system" || m.outbound_kind === "smtp");
  const [inbound, setInbound] = useState<InboundChoice>(m.inbound_kind === "imap" ? "imap" : "forwarding");
  const [outbound, setOutbound] = useState<OutboundChoice>(m.outbound_kind === "smtp" ? "smtp" : "system");
  const [signature, setSignature] = useState(m.signature_html);
  const [autoReply, setAutoReply] = useState(m.auto_reply_enabled);
  const [autoReplyHtml, setAutoReplyHtml] = useState(m.auto_reply_html);
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<Mailbox>(`/mailboxes/${m.id}`, { method: "PATCH", body }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: mailboxesKeys.list });
      onDone();
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const body: Record<string, unknown> = {
      name: v.name,
      email: v.email,
      display_name: v.display_name,
      team_id: v.team_id || null,
      signature_html: signature,
      auto_reply_enabled: autoReply,
      auto_reply_subject: v.auto_reply_subject,
      auto_reply_html: autoReplyHtml,
    };
    if (plainKinds) {
      body.inbound_kind = inbound;
      body.outbound_kind = outbound;
      body.config = {
        ...(inbound === "imap" ? serverConfig("imap", v) : {}),
        ...(outbound === "smtp" ? serverConfig("smtp", v) : {}),
      };
      if (inbound === "imap" && v.password) body.password = v.password;
      if (outbound === "smtp" && v.smtp_password) body.smtp_password = v.smtp_password;
    }
    save.mutate(body);
  };
  const err = save.error;
  return (
    <form
      id={`mailbox-edit-${m.id}`}
      className="stack narrow mailbox-edit"
      aria-label={t("settings.mailboxesEditLabel", { name: m.name })}
      onSubmit={submit}
      noValidate
    >
      <div className="row2">
        <Field label={t("settings.name")} name="name" error={err}>
          <input name="name" defaultValue={m.name} />
        </Field>
        <Field label={t("settings.mailboxesAddress")} name="email" error={err}>
          <input name="email" type="email" defaultValue={m.email} />
        </Field>
      </div>
      <div className="row2">
        <Field label={t("settings.mailboxesSenderName")} name="display_name" error={err}>
          <input name="display_name" defaultValue={m.display_name} />
        </Field>
        <Field
          label={t("settings.assignmentTargetTeam")}
          name="team_id"
          error={err}
          hint={t("settings.mailboxesTeamHint")}
        >
          <select name="team_id" defaultValue={m.team_id ?? ""}>
            <option value="">{t("settings.mailboxesNoTeam")}</option>
            {(teams.data ?? []).map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {plainKinds ? (
        <>
          <div className="row2">
            <Field label={t("settings.mailboxesReceiveBy")} name="inbound_kind" error={err}>
              <select value={inbound} onChange={(e) => setInbound(e.target.value as InboundChoice)}>
                <option value="forwarding">{t("settings.mailboxesForwarding")}</option>
                <option value="imap">IMAP</option>
              </select>
            </Field>
            <Field label={t("settings.mailboxesSendWith")} name="outbound_kind" error={err}>
              <select value={outbound} onChange={(e) => setOutbound(e.target.value as OutboundChoice)}>
                <option value="system">{t("settings.mailboxesSystemMail")}</option>
                <option value="smtp">{t("settings.mailboxesSmtpServer")}</option>
              </select>
            </Field>
          </div>
          {inbound === "imap" && (
            <ServerFieldset
              protocol="imap"
              passwordName="password"
              port="993"
              tls={["tls", "starttls", "none"]}
              error={err}
              current={m.config}
            />
          )}
          {outbound === "smtp" && (
            <ServerFieldset
              protocol="smtp"
              passwordName="smtp_password"
              port="587"
              tls={["starttls", "tls", "none"]}
              error={err}
              current={m.config}
            />
          )}
        </>
      ) : (
        <p className="muted small">{t("settings.mailboxesConnectedThrough", { kind: m.inbound_kind })}</p>
      )}
      <div className="field">
        <span className="field-label">{t("settings.mailboxesSignature")}</span>
        <RichTextEditor html={signature} onChange={setSignature} label={t("settings.mailboxesSignature")} />
        <span className="field-hint">{t("settings.mailboxesSignatureHint")}</span>
      </div>
      <fieldset className="stack">
        <legend>{t("settings.mailboxesAutoReply")}</legend>
        <label className="check">
          <input type="checkbox" checked={autoReply} onChange={(e) => setAutoReply(e.target.checked)} />{" "}
          {t("settings.mailboxesAutoReplySend")}
        </label>
        <Field
          label={t("settings.mailboxesAutoReplySubject")}
          name="auto_reply_subject"
          error={err}
          hint={t("settings.mailboxesAutoReplySubjectHint")}
        >
          <input name="auto_reply_subject" defaultValue={m.auto_reply_subject} />
        </Field>
        <div className="field">
          <span className="field-label">{t("settings.mailboxesAutoReplyMessage")}</span>
          <RichTextEditor
            html={autoReplyHtml}
            onChange={setAutoReplyHtml}
            label={t("settings.mailboxesAutoReplyMessage")}
          />
        </div>
      </fieldset>
      <FormError
        error={err}
        fields={[
          "name",
          "email",
          "display_name",
          "team_id",
          "password",
          "smtp_password",
          "auto_reply_subject",
          "config.imap_host",
          "config.imap_port",
          "config.imap_username",
          "config.smtp_host",
          "config.smtp_port",
          "config.smtp_username",
        ]}
      />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t("settings.mailboxesSave")}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
