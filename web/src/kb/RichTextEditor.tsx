import { useEffect, useRef } from "react";
import { type MessageKey, t } from "../lib/i18n/i18n";

/**
 * A small rich-text editor for article bodies: a contenteditable region with a toolbar of the
 * formats the server keeps (src/lib/sanitize.ts): headings, bold, italic, lists, quotes, code and
 * links. The server sanitizes whatever it receives; this only makes writing comfortable.
 * Keyboard: Ctrl/Cmd+B and +I from the browser, Tab leaves the editor (it inserts no tab).
 */
// Each button's visible text is its whole accessible name (WCAG 2.5.3).
const TOOLS: Array<{ label: MessageKey; command: string; value?: string }> = [
  { label: "kb.toolHeading", command: "formatBlock", value: "h2" },
  { label: "kb.toolSubheading", command: "formatBlock", value: "h3" },
  { label: "kb.toolParagraph", command: "formatBlock", value: "p" },
  { label: "kb.toolBold", command: "bold" },
  { label: "kb.toolItalic", command: "italic" },
  { label: "kb.toolBulletedList", command: "insertUnorderedList" },
  { label: "kb.toolNumberedList", command: "insertOrderedList" },
  { label: "kb.toolQuote", command: "formatBlock", value: "blockquote" },
  { label: "kb.toolCodeBlock", command: "formatBlock", value: "pre" },
];

export function RichTextEditor({
  html,
  onChange,
  label,
  disabled,
  lang,
}: {
  html: string;
  onChange: (html: string) => void;
  label: string;
  disabled?: boolean;
  /** The language of the text being written (a translation's), for spell-checking and screen readers. */
  lang?: string;
}) {
  const area = useRef<HTMLDivElement>(null);
  // The region owns its DOM while editing: set it from props only when they differ (a load or a reset).
  useEffect(() => {
    if (area.current && area.current.innerHTML !== html) area.current.innerHTML = html;
  }, [html]);
  const run = (command: string, value?: string) => {
    area.current?.focus();
    document.execCommand(command, false, value);
    if (area.current) onChange(area.current.innerHTML);
  };
  const link = () => {
    const url = window.prompt(t("kb.linkPrompt"));
    if (url && /^(https?:|mailto:)/i.test(url.trim())) run("createLink", url.trim());
  };
  return (
    <div className="rte">
      <div className="rte-toolbar" role="toolbar" aria-label={t("kb.formattingToolbar", { label })}>
        {TOOLS.map((tool) => (
          <button
            key={tool.label}
            type="button"
            className="btn btn-small btn-ghost"
            disabled={disabled}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => run(tool.command, tool.value)}
          >
            {t(tool.label)}
          </button>
        ))}
        <button
          type="button"
          className="btn btn-small btn-ghost"
          disabled={disabled}
          onMouseDown={(e) => e.preventDefault()}
          onClick={link}
        >
          {t("kb.toolLink")}
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text region has no native element; role textbox with aria-multiline is the ARIA pattern */}
      <div
        ref={area}
        className="rte-area msg-body"
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        lang={lang}
        tabIndex={0}
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={(e) => onChange(e.currentTarget.innerHTML)}
      />
    </div>
  );
}
