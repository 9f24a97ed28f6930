import { Fragment, type ReactNode } from "react";
import { type MessageKey, type MessageValues, t } from "./i18n";

// Marks no message text contains: a translated sentence is split at them to place the elements.
const MARK = "\u0001";
const SPLIT = /\u0001([^\u0001]*)\u0001/;

/**
 * A whole translated sentence with elements in it ("If <strong>{email}</strong> has a Desk
 * account…"): the message names them as ordinary placeholders (`{email}`), so each language puts
 * them where its grammar wants, and `elements` fills them with React nodes (escaped as always).
 */
export function tNodes(key: MessageKey, elements: Record<string, ReactNode>, values: MessageValues = {}): ReactNode {
  const marks: MessageValues = {};
  for (const name of Object.keys(elements)) marks[name] = `${MARK}${name}${MARK}`;
  const parts = t(key, { ...values, ...marks }).split(SPLIT);
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence never reorder
      <Fragment key={i}>{elements[part]}</Fragment>
    ) : (
      part
    ),
  );
}
