import { Fragment, type ReactNode } from "react";
import { Link } from "../lib/router/Link";

/**
 * A small markdown renderer for the assistant's answers that builds React elements (never HTML):
 * paragraphs, bullet and numbered lists, headings, **bold**, *italic*, `code`, links (http(s) and
 * in-app paths only) and ticket numbers (#123 links to the ticket). Anything else stays text, so
 * nothing the model writes can run in the page.
 */
/** Pieces of static text with positional keys (the text only ever grows at its end). */
const keyed = (parts: string[], prefix: string) => parts.map((text, n) => ({ text, key: `${prefix}.${n}` }));

export function Markdown({ text }: { text: string }) {
  const blocks = text.replace(/\r/g, "").split(/\n{2,}/);
  return (
    <div className="md">
      {blocks.map((block, i) => {
        const lines = block.split("\n").filter((l) => l.trim() !== "");
        if (!lines.length) return null;
        const key = `${i}`;
        if (lines.every((l) => /^\s*[-*] /.test(l)))
          return (
            <ul key={key}>
              {keyed(lines, key).map((l) => (
                <li key={l.key}>{inline(l.text.replace(/^\s*[-*] /, ""))}</li>
              ))}
            </ul>
          );
        if (lines.every((l) => /^\s*\d+[.)] /.test(l)))
          return (
            <ol key={key}>
              {keyed(lines, key).map((l) => (
                <li key={l.key}>{inline(l.text.replace(/^\s*\d+[.)] /, ""))}</li>
              ))}
            </ol>
          );
        const heading = /^(#{1,3}) (.*)$/.exec(lines[0]!);
        if (heading && lines.length === 1) return <h4 key={key}>{inline(heading[2]!)}</h4>;
        return (
          <p key={key}>
            {keyed(lines, key).map((l) => (
              <Fragment key={l.key}>
                {l.key !== `${key}.0` && <br />}
                {inline(l.text)}
              </Fragment>
            ))}
          </p>
        );
      })}
    </div>
  );
}

const TOKEN = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\)|#\d{1,9}\b)/g;

function inline(text: string): ReactNode[] {
  return text.split(TOKEN).map((part, i) => {
    const key = `${i}`;
    if (/^\*\*[^*]+\*\*$/.test(part)) return <strong key={key}>{part.slice(2, -2)}</strong>;
    if (/^\*[^*]+\*$/.test(part)) return <em key={key}>{part.slice(1, -1)}</em>;
    if (/^`[^`]+`$/.test(part)) return <code key={key}>{part.slice(1, -1)}</code>;
    if (/^#\d+$/.test(part))
      return (
        <Link key={key} to={`/tickets/${part.slice(1)}`}>
          {part}
        </Link>
      );
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) {
      const href = link[2]!;
      if (href.startsWith("/") && !href.startsWith("//"))
        return (
          <Link key={key} to={href}>
            {link[1]}
          </Link>
        );
      if (/^https?:\/\//i.test(href))
        return (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {link[1]}
          </a>
        );
      return <Fragment key={key}>{link[1]}</Fragment>;
    }
    return <Fragment key={key}>{part}</Fragment>;
  });
}
