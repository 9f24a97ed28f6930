import { HttpStatusError, type SourceHttp } from "./imports.http";
import type { SourceField, SourceFieldValue } from "./imports.source";

/**
 * Each vendor's custom field definitions in Desk's terms, read once per run (a field list is small:
 * at most MAX_FIELD_PAGES pages), and a record's vendor values matched to them. A vendor type with
 * no Desk match becomes text (README's import table lists each vendor's mapping).
 */
const MAX_FIELD_PAGES = 10;
const MAX_FIELDS = 500;

export type FieldDefs = Map<string, SourceField>;
/** Definitions by kind ("ticket", "user", …), each fetched once per run. */
export type FieldCache = Map<string, Promise<FieldDefs>>;

/**
 * An account whose plan or role cannot list fields (403, 404) imports without them rather than not
 * at all; any other failure fails the run as other requests do.
 */
export function cachedFields(cache: FieldCache, kind: string, load: () => Promise<FieldDefs>): Promise<FieldDefs> {
  let defs = cache.get(kind);
  if (!defs) {
    defs = load().catch((error: unknown) => {
      if (error instanceof HttpStatusError && (error.status === 403 || error.status === 404)) return new Map();
      cache.delete(kind);
      throw error;
    });
    cache.set(kind, defs);
  }
  return defs;
}

const str = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : "";

/** Values given as a list of `{ id, value }` (Zendesk tickets) or an object by key (the rest). */
export function valuesOf(defs: FieldDefs, raw: unknown): SourceFieldValue[] {
  const out: SourceFieldValue[] = [];
  const entries: Array<[string, unknown]> = Array.isArray(raw)
    ? raw.flatMap((v) => (v && typeof v === "object" && "id" in v ? [[str(v.id), "value" in v ? v.value : null]] : []))
    : raw && typeof raw === "object"
      ? Object.entries(raw)
      : [];
  for (const [id, value] of entries) {
    const field = defs.get(id);
    if (field) out.push({ field, value: value ?? null });
  }
  return out;
}

/** Zendesk ticket, user and organization field types. */
const ZENDESK_TYPES: Record<string, SourceField["type"]> = {
  text: "text",
  regexp: "text",
  partialcreditcard: "text",
  lookup: "text",
  textarea: "long_text",
  integer: "number",
  decimal: "number",
  date: "date",
  checkbox: "checkbox",
  tagger: "select",
  dropdown: "select",
  multiselect: "multi_select",
};
type ZField = {
  id: number;
  key?: string;
  type?: string;
  title?: string;
  removable?: boolean;
  custom_field_options?: Array<{ name?: string; value?: string }>;
};

/**
 * Zendesk's `/ticket_fields`, `/user_fields`, `/organization_fields`. System ticket fields (subject,
 * status, …: `removable: false`) are Desk's own and skipped. Ticket values name a field by its id,
 * user and organization values by its key.
 */
export async function zendeskFields(
  http: SourceHttp,
  url: string,
  list: "ticket_fields" | "user_fields" | "organization_fields",
  signal: AbortSignal,
): Promise<FieldDefs> {
  const defs: FieldDefs = new Map();
  let next: string | null = url;
  for (let page = 0; next && page < MAX_FIELD_PAGES && defs.size < MAX_FIELDS; page++) {
    const body = (await http.json(next, signal)) as Record<string, unknown> & { next_page?: string | null };
    for (const f of (body[list] as ZField[] | undefined) ?? []) {
      if (list === "ticket_fields" && f.removable === false) continue;
      const options = (f.custom_field_options ?? []).map((o) => ({ value: str(o.value), label: str(o.name) }));
      defs.set(list === "ticket_fields" ? String(f.id) : str(f.key), {
        sourceId: String(f.id),
        name: str(f.title) || str(f.key) || `Field ${f.id}`,
        type: ZENDESK_TYPES[str(f.type)] ?? "text",
        options: options.filter((o) => o.value !== ""),
      });
    }
    next = typeof body.next_page === "string" ? body.next_page : null;
  }
  return defs;
}

/** Freshdesk ticket, contact and company field types (`custom_*`); default fields are Desk's own. */
const FRESHDESK_TYPES: Record<string, SourceField["type"]> = {
  custom_text: "text",
  custom_paragraph: "long_text",
  custom_number: "number",
  custom_decimal: "number",
  custom_date: "date",
  custom_date_time: "date",
  custom_checkbox: "checkbox",
  custom_dropdown: "select",
  custom_multi_select_dropdown: "multi_select",
};
export type FdField = {
  id: number;
  name?: string;
  label?: string;
  type?: string;
  default?: boolean;
  choices?: unknown;
};

/**
 * Freshdesk's `/ticket_fields`, `/contact_fields`, `/company_fields` (one unpaged list each). A
 * record's `custom_fields` names a field by its `name`; a dropdown's value is the choice's text.
 */
export function freshdeskFieldDefs(records: FdField[]): FieldDefs {
  const defs: FieldDefs = new Map();
  for (const f of records.slice(0, MAX_FIELDS)) {
    if (f.default !== false || !str(f.name)) continue;
    const choices = Array.isArray(f.choices)
      ? f.choices.map(str)
      : f.choices && typeof f.choices === "object"
        ? Object.keys(f.choices)
        : [];
    defs.set(str(f.name), {
      sourceId: String(f.id),
      name: str(f.label) || str(f.name).replace(/^cf_/, ""),
      type: FRESHDESK_TYPES[str(f.type)] ?? "text",
      options: choices.filter(Boolean).map((c) => ({ value: c, label: c })),
    });
  }
  return defs;
}

/** Help Scout mailbox field types. */
const HELPSCOUT_TYPES: Record<string, SourceField["type"]> = {
  SINGLE_LINE: "text",
  MULTI_LINE: "long_text",
  NUMBER: "number",
  DATE: "date",
  DROPDOWN: "select",
};
type HsField = { id: number; name?: string; type?: string; options?: Array<{ id: number; label?: string }> };

/**
 * A Help Scout mailbox's `/mailboxes/{id}/fields` (HAL pages). A conversation's `customFields`
 * name a field by its id; a dropdown's value is the option's id.
 */
export async function helpScoutFieldDefs(
  json: (url: string) => Promise<{ _embedded?: { fields?: HsField[] }; page?: { totalPages?: number } }>,
  url: (page: number) => string,
): Promise<FieldDefs> {
  const defs: FieldDefs = new Map();
  for (let page = 1; page <= MAX_FIELD_PAGES && defs.size < MAX_FIELDS; page++) {
    const body = await json(url(page));
    for (const f of body._embedded?.fields ?? [])
      defs.set(String(f.id), {
        sourceId: String(f.id),
        name: str(f.name) || `Field ${f.id}`,
        type: HELPSCOUT_TYPES[str(f.type)] ?? "text",
        options: (f.options ?? []).map((o) => ({ value: String(o.id), label: str(o.label) || String(o.id) })),
      });
    if (page >= (body.page?.totalPages ?? 1)) break;
  }
  return defs;
}
