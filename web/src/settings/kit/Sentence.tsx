import type { ReactNode } from "react";
import type { MessageKey, MessageValues } from "../../lib/i18n/i18n";
import { tNodes } from "../../lib/i18n/nodes";

/**
 * A translated sentence with elements inside it (a link, a code span), as a component: each
 * `{name}` of `nodes` in the message becomes that element, wherever the translation puts it.
 */
export function Sentence({
  id,
  values,
  nodes,
}: {
  id: MessageKey;
  values?: MessageValues;
  nodes: Record<string, ReactNode>;
}) {
  return <>{tNodes(id, nodes, values)}</>;
}
