import { z } from "zod";
import { defineEvent } from "../events/define";
import { CompanySchema, ContactSchema } from "./contacts.schemas";

const contacts = { readScope: "contacts:read" } as const;

export const contactCreated = defineEvent("contact.created", z.object({ contact: ContactSchema }), {
  ...contacts,
  description: "A contact was created (also by inbound mail from a new address).",
});
export const contactUpdated = defineEvent("contact.updated", z.object({ contact: ContactSchema }), {
  ...contacts,
  description: "A contact changed, its picture included.",
});
export const contactDeleted = defineEvent("contact.deleted", z.object({ contact_id: z.string() }), {
  ...contacts,
  description: "A contact was deleted.",
});
export const contactMerged = defineEvent("contact.merged", z.object({ contact_id: z.string(), into: ContactSchema }), {
  ...contacts,
  description:
    "A contact was merged into another (`into`, as it is now) and deleted; its tickets moved without events of their own.",
});
export const contactEvents = [contactCreated, contactUpdated, contactDeleted, contactMerged] as const;

export const companyCreated = defineEvent("company.created", z.object({ company: CompanySchema }), {
  ...contacts,
  description: "A company was created.",
});
export const companyUpdated = defineEvent("company.updated", z.object({ company: CompanySchema }), {
  ...contacts,
  description: "A company changed, its picture included.",
});
export const companyDeleted = defineEvent("company.deleted", z.object({ company_id: z.string() }), {
  ...contacts,
  description: "A company was deleted.",
});
export const companyEvents = [companyCreated, companyUpdated, companyDeleted] as const;
