import { t } from "../lib/i18n/i18n";
import { askAssistant, useAssistantOn, useTips } from "./assistant.queries";

/** The assistant's tips on the inbox (counts only); each asks the assistant its prompt. */
export function AssistantTips() {
  const on = useAssistantOn();
  const tips = useTips(on);
  if (!on || !tips.data?.tips.length) return null;
  return (
    <section className="assistant-tips" aria-label={t("assistant.tips")}>
      {tips.data.tips.map((tip) => (
        <button
          key={tip.key}
          type="button"
          className={`assistant-tip tip-${tip.severity}`}
          onClick={() => askAssistant(tip.prompt)}
        >
          {tip.text} <span className="small">{t("assistant.askTheAssistant")}</span>
        </button>
      ))}
    </section>
  );
}
