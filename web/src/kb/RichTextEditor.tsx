import { useEffect, useRef } from "react";

/**
 * A small rich-text editor for article bodies: a contenteditable region with a toolbar of the
 * formats the server keeps (src/lib/sanitize.ts): headings, bold, italic, lists, quotes, code and
 * links. The server sanitizes whatever it receives; this only makes writing comfortable.
 * Keyboard: Ctrl/Cmd+B and +I from the browser, Tab leaves the editor (it inserts no tab).
 */
// Each button's visible text is its whole accessible name (WCAG 2.5.3).
const TOOLS: Array<{ label: string; command: string; value?: string }> = [
  { label: "Heading", command: "formatBlock", value: "h2" },
  { label: "Subheading", command: "formatBlock", value: "h3" },
  { label: "Paragraph", command: "formatBlock", value: "p" },
  { label: "Bold", command: "bold" },
  { label: "Italic", command: "italic" },
  { label: "Bulleted list", command: "insertUnorderedList" },
  { label: "Numbered list", command: "insertOrderedList" },
  { label: "Quote", command: "formatBlock", value: "blockquote" },
  { label: "Code block", command: "formatBlock", value: "pre" },
];

export function RichTextEditor({
  html,
  onChange,
  label,
  disabled,
}: {
  html: string;
  onChange: (html: string) => void;
  label: string;
  disabled?: boolean;
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
    const url = window.prompt("Link address (https://…)");
    if (url && /^(https?:|mailto:)/i.test(url.trim())) run("createLink", url.trim());
  };
  return (
    <div className="rte">
      <div className="rte-toolbar" role="toolbar" aria-label={`${label} formatting`}>
        {TOOLS.map((t) => (
          <button
            key={t.label}
            type="button"
            className="btn btn-small btn-ghost"
            disabled={disabled}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => run(t.command, t.value)}
          >
            {t.label}
          </button>
        ))}
        <button
          type="button"
          className="btn btn-small btn-ghost"
          disabled={disabled}
          onMouseDown={(e) => e.preventDefault()}
          onClick={link}
        >
          Link
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text region has no native element; role textbox with aria-multiline is the ARIA pattern */}
      <div
        ref={area}
        className="rte-area msg-body"
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        tabIndex={0}
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={(e) => onChange(e.currentTarget.innerHTML)}
      />
    </div>
  );
}
