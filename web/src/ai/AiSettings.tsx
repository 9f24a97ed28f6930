import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../lib/api/client";
import type { AiConfig } from "../lib/api/types";
import { Field, FormError } from "../lib/ui/form";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { aiKeys, formatUsd, useAiConfig, useAiModels } from "./ai.queries";

/** Settings › AI: provider status, models with prices, tone, language, instructions, automation, widget cap, own key. */
export default function AiSettings() {
  const config = useAiConfig();
  if (config.isPending) return <Loading />;
  if (config.isError) return <ErrorBox error={config.error} retry={() => config.refetch()} />;
  if (!config.data.provider)
    return (
      <div className="settings-page">
        <h1>AI</h1>
        <Empty title="No AI provider is configured">
          Set DESK_AI_BASE_URL and DESK_AI_MODEL on the server (OpenAI, Ollama or llama.cpp; see docs/ai.md).
        </Empty>
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
      <option value="">Instance default</option>
      {models.data?.data.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
          {m.usd_per_mtok.input !== null
            ? ` — $${m.usd_per_mtok.input}/$${m.usd_per_mtok.output} per M tokens`
            : " — price unknown"}
        </option>
      ))}
      {current && !models.data?.data.some((m) => m.id === current) && <option value={current}>{current}</option>}
    </>
  );
  return (
    <div className="settings-page">
      <h1>AI</h1>
      <p className="muted">
        Provider: <strong>{config.provider}</strong> · default model {config.models.default}, fast model{" "}
        {config.models.fast}
        {config.own_key ? " · using this workspace's own key" : ""}
      </p>
      {config.own_key_failed && (
        <div className="banner-error" role="alert">
          The provider refused this workspace's own key. Enter a new key or remove it.
        </div>
      )}
      <form className="stack narrow card" onSubmit={submit} noValidate aria-label="AI settings">
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={f.enabled} /> AI features on for this workspace
        </label>
        <label className="check">
          <input type="checkbox" name="auto_triage" defaultChecked={f.auto_triage} /> Triage new tickets automatically
        </label>
        <label className="check">
          <input type="checkbox" name="auto_summarize" defaultChecked={f.auto_summarize} /> Keep long threads summarized
        </label>
        <label className="check">
          <input type="checkbox" name="widget_answers" defaultChecked={f.widget_answers} /> Answer chat visitors from
          published articles
        </label>
        <label className="check">
          <input type="checkbox" name="assistant" defaultChecked={f.assistant} /> Assistant for agents (it proposes
          changes; a person approves each one)
        </label>
        <Field label="Tone" name="tone" error={save.error} hint="friendly, professional, concise, or your own words">
          <input name="tone" defaultValue={f.tone} maxLength={200} />
        </Field>
        <Field label="Reply language" name="reply_language" error={save.error} hint="auto = the customer's language">
          <input name="reply_language" defaultValue={f.reply_language} maxLength={35} />
        </Field>
        <Field label="Instructions for the AI" name="instructions" error={save.error}>
          <textarea name="instructions" rows={4} defaultValue={f.instructions} maxLength={2000} />
        </Field>
        <div className="row2">
          <Field label="Default model" name="model" error={save.error}>
            <select name="model" defaultValue={config.models.default}>
              {modelOptions(config.models.default)}
            </select>
          </Field>
          <Field label="Fast model" name="fast_model" error={save.error}>
            <select name="fast_model" defaultValue={config.models.fast}>
              {modelOptions(config.models.fast)}
            </select>
          </Field>
        </div>
        <Field label="Chat widget monthly cap (USD)" name="widget_monthly_cap_usd" error={save.error} hint="0 = no cap">
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
            Save AI settings
          </button>
        </div>
      </form>
      <form
        className="stack narrow card"
        aria-label="Own provider key"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) save.mutate({ api_key: key.trim() });
        }}
      >
        <h2>Own provider key</h2>
        <p className="muted small">
          Calls then run on your provider account and cost this instance nothing. The key is stored encrypted and never
          shown again.
        </p>
        <Field label="API key" name="api_key" error={save.error}>
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
              Remove own key
            </button>
          )}
          <button type="submit" className="btn" disabled={!key.trim() || save.isPending}>
            Save key
          </button>
        </div>
      </form>
      <h2>Typical cost per call</h2>
      <table className="table">
        <tbody>
          {Object.entries(config.costs).map(([feature, usd]) => (
            <tr key={feature}>
              <td>{feature.replace(/_/g, " ")}</td>
              <td className="num">{formatUsd(usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
