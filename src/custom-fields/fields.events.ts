import { z } from "zod";
import { defineEvent } from "../events/define";
import { CustomFieldSchema } from "./fields.schemas";

/** Field definitions are read with any credential of the workspace, like GET /v1/custom-fields. */
const fields = { readScope: null } as const;

export const customFieldCreated = defineEvent("custom_field.created", z.object({ custom_field: CustomFieldSchema }), {
  ...fields,
  description: "A custom field was defined.",
});
export const customFieldUpdated = defineEvent("custom_field.updated", z.object({ custom_field: CustomFieldSchema }), {
  ...fields,
  description: "A custom field's definition or position changed.",
});
export const customFieldDeleted = defineEvent(
  "custom_field.deleted",
  z.object({ custom_field_id: z.string(), entity: CustomFieldSchema.shape.entity, key: z.string() }),
  { ...fields, description: "A custom field and its values were deleted." },
);

export const fieldEvents = [customFieldCreated, customFieldUpdated, customFieldDeleted] as const;
