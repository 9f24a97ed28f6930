import type { Queryable } from "../db/database";
import { isMember } from "../members/members.public";
import type { customFields, FieldType } from "./fields.table";

export type FieldDef = typeof customFields.$inferSelect;
/** The kinds of record that carry custom fields. */
export type FieldEntity = "ticket" | "contact" | "company";
/** What goes into field_values for one value; null means "no value" (the row is deleted). */
export type StoredValue = { valueText: string | null; valueNum: number | null; valueJson: string[] | null };

export const isEmptyFieldValue = (value: unknown): boolean =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EMAIL_RE = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

export function isCalendarDate(value: string): boolean {
  const match = DATE_RE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

type Checked = { ok: true; stored: StoredValue } | { ok: false; message: string };
const text = (valueText: string): Checked => ({ ok: true, stored: { valueText, valueNum: null, valueJson: null } });
const fail = (message: string): Checked => ({ ok: false, message });

/** Validates one non-empty incoming value against its field and gives its stored form. */
export async function checkFieldValue(
  db: Queryable,
  workspaceId: string,
  def: FieldDef,
  value: unknown,
): Promise<Checked> {
  switch (def.type as FieldType) {
    case "text":
      if (typeof value !== "string") return fail("a text value is a string");
      if (/[\r\n]/.test(value)) return fail("a text value is a single line");
      if (value.length > 1000) return fail("a text value has at most 1000 characters");
      return text(value);
    case "long_text":
      if (typeof value !== "string") return fail("a long text value is a string");
      if (value.length > 10000) return fail("a long text value has at most 10000 characters");
      return text(value);
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return fail("a number value is a JSON number");
      return { ok: true, stored: { valueText: null, valueNum: value, valueJson: null } };
    case "checkbox":
      if (typeof value !== "boolean") return fail("a checkbox value is true or false");
      return { ok: true, stored: { valueText: null, valueNum: value ? 1 : 0, valueJson: null } };
    case "select":
      if (typeof value !== "string" || !def.options.some((o) => o.id === value))
        return fail(`not an option of ${def.key}`);
      return text(value);
    case "multi_select": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
        return fail("a multi-select value is a list of option ids");
      const unknown = value.find((v) => !def.options.some((o) => o.id === v));
      if (unknown !== undefined) return fail(`"${String(unknown).slice(0, 60)}" is not an option of ${def.key}`);
      return { ok: true, stored: { valueText: null, valueNum: null, valueJson: [...new Set(value as string[])] } };
    }
    case "date":
      if (typeof value !== "string" || !isCalendarDate(value)) return fail("a date value is YYYY-MM-DD");
      return text(value);
    case "url":
      if (typeof value !== "string" || value.length > 2000 || !isHttpUrl(value))
        return fail("a URL value is an http or https URL of at most 2000 characters");
      return text(value);
    case "email": {
      if (typeof value !== "string" || value.length > 254 || !EMAIL_RE.test(value)) return fail("not an email address");
      return text(value.toLowerCase());
    }
    case "user": {
      if (typeof value !== "string") return fail("a user value is a member's user id");
      if (!(await isMember(db, workspaceId, value))) return fail("not a member of this workspace");
      return text(value);
    }
  }
}

/** The API form of a stored value. */
export function readFieldValue(type: FieldType, row: StoredValue): unknown {
  switch (type) {
    case "number":
      return row.valueNum;
    case "checkbox":
      return row.valueNum === 1;
    case "multi_select":
      return row.valueJson ?? [];
    default:
      return row.valueText;
  }
}
