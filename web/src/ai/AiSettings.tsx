import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import type { AiConfig } from "../lib/api/types";
import { Field, FormError } from "../lib/ui/form";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { aiKeys, featureName, formatUsd, useAiConfig, useAiModels } from "./ai.queries";
import { t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

/** Settings › AI: provider status, models with prices, tone, language, instructions, automation, widget cap, own key. */
export default function AiSettings() {
  const config = useAiConfig();
  if (config.isPending) return <Loading />;
  if (config.isError) return <ErrorBox error={config.error} retry={() => config.refetch()} />;
  if (!config.data.provider)
    return (
      <div className="settings-page">
        <h1>{t("ai.title")}</h1>
        <Empty title={t("ai.noProvider")}>{t("ai.noProviderHelp")}</Empty>
      </div>
    );
  return <AiSettingsForm config={config.data} />;
}

function AiSettingsForm({ config }: { config: AiConfig }) {
  const client = useQueryClient();
  const models = useAiModels(true);
  const [key, setKey] = useState("");
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<AiConfig>("/ai/settings", { method: "PATCH", body }),
    onSuccess: (next) => {
      client.setQueryData(aiKeys.config, next);
      client.invalidateQueries({ queryKey: aiKeys.models });
      setKey("");
    },
  });
  const f = config.features;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const checked = (name: string) => form.get(name) === "on";
    save.mutate({
      enabled: checked("enabled"),
      auto_triage: checked("auto_triage"),
      auto_summarize: checked("auto_summarize"),
      widget_answers: checked("widget_answers"),
      assistant: checked("assistant"),
      tone: String(form.get("tone") ?? "").trim() || "friendly",
      reply_language: String(form.get("reply_language") ?? "auto"),
      instructions: String(form.get("instructions") ?? ""),
      // Models are sent only when changed: the shown value is the model in use, whatever set it.
      ...(form.get("model") !== config.models.default ? { model: String(form.get("model") ?? "") } : {}),
      ...(form.get("fast_model") !== config.models.fast ? { fast_model: String(form.get("fast_model") ?? "") } : {}),
      widget_monthly_cap_usd: Number(form.get("widget_monthly_cap_usd") ?? 0),
    });
  };
  const modelOptions = (current: string) => (
    <>
      <option value="">{t("ai.instanceDefault")}</option>
      {models.data?.data.map((m) => (
        <option key={m.id} value={m.id}>
          {m.usd_per_mtok.input !== null
            ? t("ai.modelPrice", {
                name: m.name,
                input: formatUsd(m.usd_per_mtok.input),
                output: formatUsd(m.usd_per_mtok.output ?? 0),
              })
            : t("ai.modelPriceUnknown", { name: m.name })}
        </option>
      ))}
      {current && !models.data?.data.some((m) => m.id === current) && <option value={current}>{current}</option>}
    </>
  );
  return (
    <div className="settings-page">
      <h1>{t("ai.title")}</h1>
      <p className="muted">
        {tNodes(
          config.own_key ? "ai.providerLineOwnKey" : "ai.providerLine",
          { provider: <strong>{config.provider}</strong> },
          { model: config.models.default, fast: config.models.fast },
        )}
      </p>
      {config.own_key_failed && (
        <div className="banner-error" role="alert">
          {t("ai.ownKeyRefused")}
        </div>
      )}
      <form className="stack narrow card" onSubmit={submit} noValidate aria-label={t("ai.settingsForm")}>
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={f.enabled} /> {t("ai.featureEnabled")}
        </label>
        <label className="check">
          <input type="checkbox" name="auto_triage" defaultChecked={f.auto_triage} /> {t("ai.featureAutoTriage")}
        </label>
        <label className="check">
          <input type="checkbox" name="auto_summarize" defaultChecked={f.auto_summarize} />{" "}
          {t("ai.featureAutoSummarize")}
        </label>
        <label className="check">
          <input type="checkbox" name="widget_answers" defaultChecked={f.widget_answers} />{" "}
          {t("ai.featureWidgetAnswers")}
        </label>
        <label className="check">
          <input type="checkbox" name="assistant" defaultChecked={f.assistant} /> {t("ai.featureAssistant")}
        </label>
        <Field label={t("ai.tone")} name="tone" error={save.error} hint={t("ai.toneHint")}>
          <input name="tone" defaultValue={f.tone} maxLength={200} />
        </Field>
        <Field label={t("ai.replyLanguage")} name="reply_language" error={save.error} hint={t("ai.replyLanguageHint")}>
          <input name="reply_language" defaultValue={f.reply_language} maxLength={35} />
        </Field>
        <Field label={t("ai.instructions")} name="instructions" error={save.error}>
          <textarea name="instructions" rows={4} defaultValue={f.instructions} maxLength={2000} />
        </Field>
        <div className="row2">
          <Field label={t("ai.defaultModel")} name="model" error={save.error}>
            <select name="model" defaultValue={config.models.default}>
              {modelOptions(config.models.default)}
            </select>
          </Field>
          <Field label={t("ai.fastModel")} name="fast_model" error={save.error}>
            <select name="fast_model" defaultValue={config.models.fast}>
              {modelOptions(config.models.fast)}
            </select>
          </Field>
        </div>
        <Field label={t("ai.widgetCap")} name="widget_monthly_cap_usd" error={save.error} hint={t("ai.widgetCapHint")}>
          <input
            name="widget_monthly_cap_usd"
            type="number"
            min={0}
            max={10000}
            step={0.01}
            defaultValue={config.widget_monthly_cap_usd}
          />
        </Field>
        <FormError
          error={save.error}
          fields={["tone", "reply_language", "instructions", "model", "fast_model", "widget_monthly_cap_usd"]}
        />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {t("ai.saveSettings")}
          </button>
        </div>
      </form>
      <form
        className="stack narrow card"
        aria-label={t("ai.ownKey")}
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) save.mutate({ api_key: key.trim() });
        }}
      >
        <h2>{t("ai.ownKey")}</h2>
        <p className="muted small">{t("ai.ownKeyHelp")}</p>
        <Field label={t("ai.apiKey")} name="api_key" error={save.error}>
          <input
            name="api_key"
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        </Field>
        <div className="actions">
          {config.own_key && (
            <button type="button" className="btn btn-ghost" onClick={() => save.mutate({ api_key: null })}>
              {t("ai.removeOwnKey")}
            </button>
          )}
          <button type="submit" className="btn" disabled={!key.trim() || save.isPending}>
            {t("ai.saveKey")}
          </button>
        </div>
      </form>
      <h2>{t("ai.typicalCost")}</h2>
      <table className="table">
        <tbody>
          {Object.entries(config.costs).map(([feature, usd]) => (
            <tr key={feature}>
              <td>{featureName(feature)}</td>
              <td className="num">{formatUsd(usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
