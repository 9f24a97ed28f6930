import { z } from "zod";
import { LabelColorSchema } from "../labels/labels.public";
import { FIELD_ENTITIES, FIELD_TYPES } from "./fields.table";

const Name = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .refine((v) => !/[<>]/.test(v), "a field name has no < or >");
const Option = z.strictObject({
  id: z.string().max(60).optional(),
  label: z.string().trim().min(1).max(100),
  color: LabelColorSchema.optional(),
});
const Position = z.number().int().min(0).max(1_000_000);

export const CustomFieldSchema = z.object({
  id: z.string(),
  entity: z.enum(FIELD_ENTITIES),
  key: z.string(),
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  options: z.array(z.object({ id: z.string(), label: z.string(), color: z.string() })),
  required_on_solve: z.boolean(),
  description: z.string(),
  position: z.number(),
  archived: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CreateFieldBody = z.strictObject({
  entity: z.enum(FIELD_ENTITIES),
  name: Name,
  type: z.enum(FIELD_TYPES),
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, "a key matches ^[a-z][a-z0-9_]{0,39}$")
    .optional(),
  options: z.array(Option).max(200).optional(),
  required_on_solve: z.boolean().optional(),
  description: z.string().max(300).optional(),
  position: Position.optional(),
});

export const UpdateFieldBody = z.strictObject({
  name: Name.optional(),
  options: z.array(Option).max(200).optional(),
  required_on_solve: z.boolean().optional(),
  description: z.string().max(300).optional(),
  position: Position.optional(),
  archived: z.boolean().optional(),
});

export const FieldListQuery = z.strictObject({
  entity: z.enum(FIELD_ENTITIES).optional(),
  archived: z.enum(["true", "false", "any"]).default("any"),
});
export const ReorderFieldsBody = z.strictObject({
  entity: z.enum(FIELD_ENTITIES),
  ids: z.array(z.string().max(100)).max(100),
});
