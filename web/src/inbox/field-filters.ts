import type { CustomField, FieldType, Member } from "../lib/api/types";
import { t } from "../lib/i18n/i18n";

/** One custom-field condition, the same shape a View stores in `filters.fields`. */
export type FieldCondition = { key: string; op: string; value: string };

/** SPEC.md "Custom field filters": operators by field type, the first being the API's default. */
export const FIELD_OPERATORS: Record<FieldType, readonly string[]> = {
  text: ["contains", "eq", "ne", "not_contains", "set", "not_set"],
  long_text: ["contains", "eq", "ne", "not_contains", "set", "not_set"],
  url: ["contains", "eq", "ne", "not_contains", "set", "not_set"],
  email: ["contains", "eq", "ne", "not_contains", "set", "not_set"],
  number: ["eq", "ne", "gt", "gte", "lt", "lte", "set", "not_set"],
  date: ["eq", "ne", "gt", "gte", "lt", "lte", "set", "not_set"],
  checkbox: ["eq", "ne", "set", "not_set"],
  select: ["any", "eq", "ne", "none", "set", "not_set"],
  user: ["eq", "any", "ne", "none", "set", "not_set"],
  multi_select: ["any", "all", "none", "eq", "ne", "set", "not_set"],
};

/** An operator's name in the picker ("is any of"); an unknown one shows as it comes. */
export const opLabel = (op: string) => t("inbox.operator", { op });

/** A condition as one phrase in the reader's language ("Plan is any of Pro"); `value` empty for set/not_set. */
export const conditionText = (field: string, op: string, value: string) =>
  takesNoValue(op) ? t("inbox.conditionNoValue", { field, op }) : t("inbox.condition", { field, op, value });

/** Operators that take no value (the API ignores one). */
export const takesNoValue = (op: string) => op === "set" || op === "not_set";
/** Operators whose value is a comma-separated list. */
export const takesList = (op: string) => op === "any" || op === "all" || op === "none";

/** The `field.<key>[<op>]` query members of a list of conditions. */
export function fieldParams(conditions: FieldCondition[]): Record<string, string> {
  const params: Record<string, string> = {};
  // set/not_set ignore the value, but an empty one would be dropped from the query string.
  for (const c of conditions) params[`field.${c.key}[${c.op}]`] = takesNoValue(c.op) ? "true" : c.value;
  return params;
}

/** "Plan is any of Pro, Enterprise": how a condition reads in the filter bar. */
export function describeCondition(
  c: FieldCondition,
  field: CustomField | undefined,
  members: Member[] | undefined,
  myId: string | undefined,
): string {
  const name = field?.name ?? c.key;
  if (takesNoValue(c.op)) return conditionText(name, c.op, "");
  const one = (v: string) => {
    if (!field) return v;
    if (field.type === "select" || field.type === "multi_select")
      return field.options.find((o) => o.id === v)?.label ?? v;
    if (field.type === "user")
      return v === "me" || v === myId ? t("inbox.valueMe") : (members?.find((m) => m.user.id === v)?.user.name ?? v);
    if (field.type === "checkbox") return v === "true" ? t("inbox.valueYes") : t("inbox.valueNo");
    return v;
  };
  const value = takesList(c.op) ? c.value.split(",").filter(Boolean).map(one).join(", ") : one(c.value);
  return conditionText(name, c.op, value);
}
