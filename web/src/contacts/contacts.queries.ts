import { defineResource } from "../lib/realtime/invalidation";

/** Queries over contacts and companies start with these keys (lists add their search terms). */
export const contactKeys = {
  lists: ["contacts"] as const,
  list: (q: string, tag: string) => ["contacts", q, tag] as const,
  /** Every single contact (`one` of each). */
  ones: ["contact"] as const,
  one: (id: string) => ["contact", id] as const,
  duplicates: (id: string) => ["contact", id, "duplicates"] as const,
  mergeSearch: (term: string) => ["contacts", "merge-search", term] as const,
  /** The recipients field's address suggestions. */
  suggestions: (q: string) => ["contact-suggestions", q] as const,
  visit: (id: string) => ["contact-visit", id] as const,
  /** A company's people: under the contact lists, so any contact change refreshes them. */
  ofCompany: (companyId: string) => ["contacts", "company", companyId] as const,
};
export const companyKeys = {
  lists: ["companies"] as const,
  list: (q: string, tag: string) => ["companies", q, tag] as const,
  ones: ["company"] as const,
  one: (id: string) => ["company", id] as const,
  picker: ["companies", "picker"] as const,
};

export const contactsResource = defineResource({
  name: "contacts",
  keys: contactKeys,
  events: [{ on: ["contact.*"], invalidate: () => [contactKeys.lists, contactKeys.ones] }],
});

export const companiesResource = defineResource({
  name: "companies",
  keys: companyKeys,
  events: [{ on: ["company.*"], invalidate: () => [companyKeys.lists, companyKeys.ones] }],
});
