import type { ViewFilters } from "../lib/api/types";
import { t } from "../lib/i18n/i18n";
import { valueInText } from "../lib/ui/bits";
import { conditionText } from "./field-filters";

/** A one-line reading of a View's filters: "status: open, pending · plan is any of pro". */
export function describeViewFilters(f: ViewFilters): string {
  const parts: string[] = [];
  const values = (list: string[]) => list.map(valueInText).join(", ");
  if (f.status?.length) parts.push(t("inbox.summaryStatus", { values: values(f.status) }));
  if (f.priority?.length) parts.push(t("inbox.summaryPriority", { values: values(f.priority) }));
  if (f.assignee) parts.push(t("inbox.summaryAssignee", { assignee: f.assignee }));
  if (f.team_id) parts.push(t("inbox.summaryTeam"));
  if (f.mailbox_id) parts.push(t("inbox.summaryMailbox"));
  if (f.tag) parts.push(t("inbox.summaryLabel", { name: f.tag }));
  if (f.channel) parts.push(t("inbox.summaryChannel", { channel: valueInText(f.channel) }));
  if (f.q) parts.push(t("inbox.summarySearch", { text: f.q }));
  for (const c of f.fields ?? []) parts.push(conditionText(c.key, c.op, c.value));
  return parts.join(" · ");
}
