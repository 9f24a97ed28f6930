import type { ViewFilters } from "../lib/api/types";
import { OP_LABELS, takesNoValue } from "./field-filters";

/** A one-line reading of a View's filters: "status: open, pending · plan is any of pro". */
export function describeViewFilters(f: ViewFilters): string {
  const parts: string[] = [];
  if (f.status?.length) parts.push(`status: ${f.status.join(", ").replaceAll("_", " ")}`);
  if (f.priority?.length) parts.push(`priority: ${f.priority.join(", ")}`);
  if (f.assignee)
    parts.push(`assignee: ${f.assignee === "none" ? "unassigned" : f.assignee === "me" ? "me" : "a teammate"}`);
  if (f.team_id) parts.push("a team");
  if (f.mailbox_id) parts.push("a mailbox");
  if (f.tag) parts.push(`label: ${f.tag}`);
  if (f.channel) parts.push(`channel: ${f.channel}`);
  if (f.q) parts.push(`“${f.q}”`);
  for (const c of f.fields ?? [])
    parts.push(takesNoValue(c.op) ? `${c.key} ${OP_LABELS[c.op]}` : `${c.key} ${OP_LABELS[c.op] ?? c.op} ${c.value}`);
  return parts.join(" · ");
}
