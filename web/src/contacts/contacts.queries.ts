import { defineResource } from "../lib/realtime/invalidation";

/** Queries over contacts and companies start with these keys (lists add their search terms). */
export const contactKeys = {
  lists: ["contacts"] as const,
  one: (id: string) => ["contact", id] as const,
  /** A company's people: under the contact lists, so any contact change refreshes them. */
  ofCompany: (companyId: string) => ["contacts", "company", companyId] as const,
};
export const companyKeys = {
  lists: ["companies"] as const,
  one: (id: string) => ["company", id] as const,
};

export const contactsResource = defineResource({
  name: "contacts",
  keys: contactKeys,
  events: [{ on: ["contact.*"], invalidate: () => [contactKeys.lists, ["contact"]] }],
});

export const companiesResource = defineResource({
  name: "companies",
  keys: companyKeys,
  events: [{ on: ["company.*"], invalidate: () => [companyKeys.lists, ["company"]] }],
});
